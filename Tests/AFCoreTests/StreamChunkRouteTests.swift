@testable import AFCore
import AFTestSupport
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

/// Where a stream's chunks go: straight from the engine to the handler's queue when no monitor
/// of the session can see them pass `rootQueue` (see `DataStreamRequest.chunksSkipRootQueue`),
/// else through it, as Alamofire sends them; in order, either way.
@Suite(.timeLimit(.minutes(1))) struct StreamChunkRouteTests {
    /// Counts the chunks a monitor hears were parsed.
    final class ParseCounter: EventMonitor {
        let queue = DispatchQueue(label: "test.parseCounter")
        let parsed = Protected(0)

        func request<Value>(_ request: DataStreamRequest, didParseStream result: Result<Value, AFError>) {
            parsed.withLock { $0 += 1 }
        }
    }

    private let queue = DispatchQueue(label: "test.streamRoute")

    @Test func chunksReachTheHandlerWhileRootQueueIsBusy() async throws {
        let root = DispatchQueue(label: "test.busyRoot")
        let session = makeSession(rootQueue: root)
        let release = DispatchSemaphore(value: 0)
        let laterChunks = Gate(opensAfter: 3)
        let completed = OneShot()
        let chunks = Protected(0)
        // A byte every 200 ms: the first chunk's handler blocks rootQueue before the next arrives.
        session.streamRequest(Server.httpbin("/drip?numbytes=6&duration=1.2&delay=0")).responseStream(on: queue) { stream in
            switch stream.event {
            case .stream:
                let count = chunks.withLock { count in
                    count += 1
                    return count
                }
                if count == 1 { root.async { release.wait() } } else { laterChunks.arrive() }
            case .complete:
                completed.fire()
            }
        }
        // Waited for off the cooperative pool: `Gate.wait()` blocks its thread (20 s at most).
        let arrived = await withCheckedContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(returning: laterChunks.wait()) }
        }
        release.signal()
        #expect(arrived, "three more chunks reached the handler while rootQueue was blocked")
        await completed.wait()
    }

    @Test(arguments: [false, true])
    func chunksArriveInOrder(monitored: Bool) async throws {
        let monitor = ParseCounter()
        let session = makeSession(eventMonitors: monitored ? [monitor] : [])
        // A static file: httpbin's seeded bytes differ when two requests draw them at once.
        let url = Server.http("/static/1mb.bin")
        let whole = try await session.request(url).serializingData().value
        let received = Protected(Data())
        let chunks = Protected(0)
        let completed = OneShot()
        session.streamRequest(url).responseStream(on: queue) { stream in
            switch stream.event {
            case let .stream(.success(data)):
                received.withLock { $0.append(data) }
                chunks.withLock { $0 += 1 }
            case .complete:
                completed.fire()
            }
        }
        await completed.wait()
        #expect(received.value == whole)
        #expect(chunks.value > 1)
        // With a monitor, every chunk's parse event reaches it, as through rootQueue.
        let monitorQueueDrained = OneShot()
        monitor.queue.async { monitorQueueDrained.fire() }
        await monitorQueueDrained.wait()
        #expect(monitor.parsed.value == (monitored ? chunks.value : 0))
    }
}
