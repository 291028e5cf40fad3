@testable import AFCache
import AFCore
import Foundation
import Testing

/// The memory layer: least recently used dropped first, usage counted, any key removable.
@Suite struct MemoryLayerTests {
    static func key(_ number: Int, partition: String = "") -> MemoryLayer.Key {
        MemoryLayer.Key(url: URL(string: "http://example.test/\(number)")!, partition: partition)
    }

    static func variants(_ number: Int) -> [HTTPCacheEntry] {
        [SQLiteURLCacheTests.entry("http://example.test/\(number)", body: "body \(number % 10)")]
    }

    static let size = MemoryLayer.heldSize(of: variants(0)[0])

    /// A layer with room for exactly twenty entries (an entry over a twentieth of the capacity is
    /// not held), holding those of `numbers`, used in that order.
    static func layer(holding numbers: Range<Int>) -> MemoryLayer {
        var layer = MemoryLayer(capacity: 20 * size)
        for number in numbers { layer.hold(variants(number), for: key(number)) }
        return layer
    }

    @Test func theLeastRecentlyUsedGoesFirst() {
        var layer = Self.layer(holding: 0..<20)
        #expect(layer.entries(for: Self.key(0)) != nil)  // 0 is now the newest, 1 the oldest
        layer.hold(Self.variants(20), for: Self.key(20))
        #expect(layer.entries(for: Self.key(1)) == nil)
        #expect(([0] + Array(2...20)).allSatisfy { layer.entries(for: Self.key($0)) != nil })
        // Used in the order 0, 2, 3, ..., 20: two more drop 0, then 2.
        layer.hold(Self.variants(21), for: Self.key(21))
        layer.hold(Self.variants(22), for: Self.key(22))
        #expect(layer.entries(for: Self.key(0)) == nil && layer.entries(for: Self.key(2)) == nil)
        #expect((3...22).allSatisfy { layer.entries(for: Self.key($0)) != nil })
        #expect(layer.usage == 20 * Self.size)
    }

    @Test func usageFollowsWhatIsHeldAndRemovedSlotsAreReused() {
        var layer = Self.layer(holding: 0..<3)
        #expect(layer.usage == 3 * Self.size)
        layer.remove(Self.key(1))
        #expect(layer.usage == 2 * Self.size && layer.entries(for: Self.key(1)) == nil)
        layer.hold(Self.variants(1), for: Self.key(1))
        layer.hold(Self.variants(1), for: Self.key(1))  // held again: replaced, not counted twice
        #expect(layer.usage == 3 * Self.size)
        // Shrunk to two entries' worth: the oldest, 0, goes.
        layer.capacity = 2 * Self.size
        #expect(layer.usage == 2 * Self.size && layer.entries(for: Self.key(0)) == nil)
        #expect(layer.entries(for: Self.key(2)) != nil && layer.entries(for: Self.key(1)) != nil)
        layer.removeAll()
        #expect(layer.usage == 0 && layer.entries(for: Self.key(1)) == nil)
    }

    @Test func aURLIsForgottenInEveryPartition() {
        var layer = Self.layer(holding: 0..<1)
        layer.hold(Self.variants(0), for: Self.key(0, partition: "alice"))
        layer.hold(Self.variants(1), for: Self.key(1, partition: "alice"))
        layer.remove(URL(string: "http://example.test/0")!)
        #expect(layer.entries(for: Self.key(0)) == nil && layer.entries(for: Self.key(0, partition: "alice")) == nil)
        #expect(layer.entries(for: Self.key(1, partition: "alice")) != nil)
        #expect(layer.usage == Self.size)
    }
}
