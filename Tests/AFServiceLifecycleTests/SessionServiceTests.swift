import AFCore
import AFServiceLifecycle
import AFTestSupport
import Foundation
import Logging
import ServiceLifecycle
import UnixSignals
import Testing

/// A Session as a service in a ServiceGroup: SIGTERM lets in-flight requests finish and refuses
/// new ones; past the grace period the rest are cancelled; the Session ends with the group.
@Suite(.serialized, .timeLimit(.minutes(1))) struct SessionServiceTests {
    /// A service that says when the group started it (its signal handlers are in place by then)
    /// and ends on graceful shutdown.
    final class Marker: Service, Sendable {
        let started = OneShot()
        func run() async throws {
            started.fire()
            try? await gracefulShutdown()
        }
    }

    private func group(_ services: [any Service], signals: [UnixSignal] = []) -> ServiceGroup {
        ServiceGroup(services: services, gracefulShutdownSignals: signals, logger: Logger(label: "af.test.lifecycle"))
    }

    @Test func sigtermLetsInFlightRequestsFinishAndRefusesNewOnes() async throws {
        _ = TestServers.shared
        let service = SessionService(gracePeriod: .seconds(20))
        let marker = Marker()
        let group = group([service, marker], signals: [.sigterm])
        let running = Task { try await group.run() }
        await marker.started.wait()

        let inFlight = service.session.request(Server.httpbin("/delay/8"))
        let finished = inFlight.validate().serializingData()
        _ = await response { done in inFlight.onURLSessionTaskCreation(on: .global()) { _ in done(()) } }
        kill(getpid(), SIGTERM)

        // Until the gate closes, new requests still go out; the first refused one ends the loop
        // (the in-flight request holds the grace period open for eight seconds meanwhile: with two,
        // a run under the address sanitizer once saw it finish before the gate closed).
        var refused: AFError?
        while refused == nil, inFlight.state != .finished {
            let attempt = await service.session.request(Server.http("/bench.json")).serializingData().response  // nginx alone: no load on httpbin
            if case let .requestAdaptationFailed(error)? = attempt.error, error is SessionServiceShuttingDown { refused = attempt.error }
        }
        #expect(refused != nil, "a request made during the grace period is refused")
        #expect(await finished.response.value != nil, "the in-flight request finished")
        try await running.value
        let after = await service.session.request(Server.http("/get")).serializingData().response
        #expect(after.error?.isSessionInvalidatedError == true || after.error?.isRequestAdaptationError == true)
    }

    @Test func pastTheGracePeriodTheRestIsCancelledAndTheSessionEnds() async throws {
        _ = TestServers.shared
        let service = SessionService(gracePeriod: .milliseconds(300))
        let group = group([service])
        let running = Task { try await group.run() }
        let stalled = service.session.request(Server.faults("/stall"))
        let outcome = stalled.serializingData()
        _ = await response { done in stalled.onURLSessionTaskCreation(on: .global()) { _ in done(()) } }
        await group.triggerGracefulShutdown()
        try await running.value
        #expect(await outcome.response.error?.isExplicitlyCancelledError == true)
    }
}
