@testable import AFCore
import AFTestSupport
import Foundation
import Testing

/// The pump between an InputStream and curl's read callback, without curl.
@Suite(.timeLimit(.minutes(1))) struct StreamUploadPumpTests {
    @Test func everyByteArrivesInOrderAndMemoryStaysBounded() async throws {
        // 4 MiB that do not repeat with the buffer's period, so misordering would show.
        let source = patternBytes(4 << 20, period: 1 << 21) { UInt8(truncatingIfNeeded: $0 &* 2_654_435_761 >> 13) }
        let woken = DispatchSemaphore(value: 0)
        let pump = StreamUploadPump(stream: InputStream(data: source)) { woken.signal() }
        var received = Data()
        var largestStorage = 0
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: 16 << 10, alignment: 1)
        defer { buffer.deallocate() }
        reading: while true {
            switch pump.take(into: buffer, count: 16 << 10) {
            case let .bytes(count): received.append(buffer.assumingMemoryBound(to: UInt8.self), count: count)
            case .pause: woken.wait()
            case .end: break reading
            case let .failure(error): throw error
            }
            largestStorage = max(largestStorage, pump.storageCapacity)
        }
        pump.close()
        #expect(received == source)
        // At most `capacity` plus one 64 KiB read are buffered; array growth may double that.
        #expect(largestStorage <= 2 * (StreamUploadPump.capacity + (64 << 10)))
    }
}
