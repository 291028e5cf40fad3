import AFCore
import AFTestSupport
import Foundation
import Testing

/// The Writing a plugin article's plugin, installed as the article says, against httpbin.
@Suite(.timeLimit(.minutes(1))) struct GuideExampleTests {
    struct Echo: Decodable { let headers: [String: String] }

    @Test func stampsEveryAttemptAndReportsOnlySlowRequests() async throws {
        let reported = Protected<[UUID]>([])
        let fast = CorrelationIDPlugin(reportingSlowerThan: 60) { id, _ in reported.withLock { $0.append(id) } }
        let slow = CorrelationIDPlugin(reportingSlowerThan: 0) { id, _ in reported.withLock { $0.append(id) } }
        let ids = Protected<[UUID]>([])
        let finished = DispatchSemaphore(value: 0)
        let witness = ClosureEventMonitor(queue: slow.queue)  // same serial queue: runs after the plugin
        witness.requestDidFinish = { request in ids.withLock { $0.append(request.id) }; finished.signal() }
        let session = makeSession(interceptor: fast, eventMonitors: [fast, slow, witness])

        let request = session.request(Server.httpbin("/headers"))
        let echo = try await request.serializingDecodable(Echo.self).value
        #expect(echo.headers["X-Correlation-Id"] == request.id.uuidString)

        await withCheckedContinuation { continuation in
            DispatchQueue.global().async { _ = finished.wait(timeout: .now() + 20); continuation.resume() }
        }
        // `fast.queue` is separate: wait for it too before reading what it reported.
        fast.queue.sync {}
        #expect(ids.value == [request.id])
        #expect(reported.value == [request.id], "only the plugin with a zero limit reports")
        withExtendedLifetime(session) {}
    }
}
