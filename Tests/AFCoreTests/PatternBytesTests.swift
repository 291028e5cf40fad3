import AFTestSupport
import Foundation
import Testing

/// The test-data builder: the same bytes as the formula, byte for byte, across periods and runs.
@Suite struct PatternBytesTests {
    /// Byte i against `byte(i)` at every index near a period's or a run's edge, and every 97th.
    private func matches(_ data: Data, _ count: Int, edges: [Int], _ byte: (Int) -> UInt8) -> Bool {
        guard data.count == count else { return false }
        var indices = Set(stride(from: 0, to: count, by: 97))
        for edge in edges {
            for multiple in stride(from: 0, through: count, by: edge) {
                for index in multiple - 2...multiple + 2 where (0..<count).contains(index) { indices.insert(index) }
            }
        }
        let bytes = [UInt8](data)
        return indices.allSatisfy { bytes[$0] == byte($0) }
    }

    @Test func periodicBytesMatchTheirFormula() {
        let byte: (Int) -> UInt8 = { UInt8(truncatingIfNeeded: 5 * $0 + 1) }
        for count in [0, 1, 255, 256, 257, 100_003] {
            #expect(matches(patternBytes(count, byte), count, edges: [256], byte))
        }
        let wide: (Int) -> UInt8 = { UInt8(truncatingIfNeeded: $0 &* 2_654_435_761 >> 13) }
        #expect(matches(patternBytes(5 << 20, period: 1 << 21, wide), 5 << 20, edges: [1 << 21], wide))
    }

    @Test func runsThatShiftTheirPatternMatchTheirFormula() {
        let cache: (Int) -> UInt8 = { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 20) }
        let count = 3 << 20 + 12_345
        #expect(matches(patternBytes(count, segment: 1 << 20, cache), count, edges: [256, 1 << 20], cache))
        // Taken as one run, the shift at each MiB is missed, and the check sees it.
        #expect(!matches(patternBytes(count, cache), count, edges: [256, 1 << 20], cache))
        let form: (Int) -> UInt8 = { UInt8(truncatingIfNeeded: $0 &* 13 &+ $0 >> 11) }
        #expect(matches(patternBytes(700_001, segment: 1 << 11, form), 700_001, edges: [256, 1 << 11], form))
    }
}
