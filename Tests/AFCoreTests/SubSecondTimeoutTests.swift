import AFCore
import AFTestSupport
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

/// Idle timeouts with a fraction of a second are kept to the fraction: curl's own check counts
/// whole seconds, so before the engine kept them a 0.25 s timeout fired after one second or more.
/// The task's own interval is measured (not the test's wait, which the loaded test pool can
/// stretch); the bound leaves 0.7 s for scheduling and is still under curl's one-second floor.
@Suite(.timeLimit(.minutes(1))) struct SubSecondTimeoutTests {
    @Test func aSessionTimeoutOfAQuarterSecondEndsASilentExchange() async throws {
        let configuration = URLSessionConfiguration.af.default
        configuration.timeoutIntervalForRequest = 0.25
        let session = makeSession(configuration: configuration)
        let response = await session.request(Server.faults("/stall")).serializingData().response
        #expect(response.error?.urlErrorCode == .timedOut)
        let took = try #require(response.metrics?.taskInterval.duration)
        #expect(took < 0.95, "took \(took) s")
    }

    @Test func aRequestsOwnFractionalTimeoutToo() async throws {
        let session = makeSession()
        let response = await session.request(Server.faults("/stall")) { $0.timeoutInterval = 0.3 }.serializingData().response
        #expect(response.error?.urlErrorCode == .timedOut)
        let took = try #require(response.metrics?.taskInterval.duration)
        #expect(took < 0.95, "took \(took) s")
    }

    @Test func aSteadyTransferIsNotIdle() async throws {
        // 1 MiB at 4 MiB/s with a 0.2 s idle timeout: bytes keep coming, so it completes.
        let configuration = URLSessionConfiguration.af.default
        configuration.timeoutIntervalForRequest = 0.2
        let session = makeSession(configuration: configuration)
        let data = try await session.request(Server.http("/slow/1mb.bin")).serializingData().value
        #expect(data.count == 1 << 20)
    }
}
