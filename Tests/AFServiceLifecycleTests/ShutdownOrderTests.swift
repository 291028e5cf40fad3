import AFCore
import AFServiceLifecycle
import AFTestSupport
import Foundation
import Logging
import ServiceLifecycle
import UnixSignals
import Testing

/// The grace period starts with the group's graceful shutdown wherever the SessionService
/// stands among the services, and no request is retried once it started. The SIGTERM cases run
/// a daemon in a child process (this test binary, running `ChildDaemon`) and time its exit.
@Suite(.serialized, .timeLimit(.minutes(1))) struct ShutdownOrderTests {
    static let childOrder = "AF_LIFECYCLE_CHILD_ORDER"
    static let childURL = "AF_LIFECYCLE_CHILD_URL"
    static let childGrace = "AF_LIFECYCLE_CHILD_GRACE"

    @Test(arguments: ["session-first", "session-last"])
    func sigtermEndsTheDaemonWithinItsGracePeriod(order: String) async throws {
        _ = TestServers.shared
        let grace = 2.0
        // Under the thread sanitizer, a process sleeps a second at exit unless told not to.
        let tsanOptions = [ProcessInfo.processInfo.environment["TSAN_OPTIONS"], "atexit_sleep_ms=0"].compactMap { $0 }
        let child = try startChildSuite("ChildDaemon", adding: [
            Self.childOrder: order, Self.childURL: Server.faults("/stall"), Self.childGrace: "\(grace)",
            "TSAN_OPTIONS": tsanOptions.joined(separator: " "),
        ])
        let ready = await child.line(containing: "AF-CHILD-READY")
        #expect(ready != nil, "the child's request went out")
        // A watchdog, not a wait: a child that outlives its grace period by far is killed, so
        // that the test fails rather than hangs.
        let watchdog = Task {
            try await Task.sleep(for: .seconds(grace + 10))
            child.send(SIGKILL)
        }
        defer { watchdog.cancel() }
        let signalled = ContinuousClock.now
        child.send(SIGTERM)
        let stopped = await child.line(containing: "AF-CHILD-STOPPED")
        let status = try await child.end()
        let took = ContinuousClock.now - signalled
        #expect(stopped?.contains("error=none") == true, "the group ended without an error: \(stopped ?? "no line")")
        #expect(status == 0, "the child's standard error: \(child.errors)")
        // The stalled request never answers: without the grace period's start at the signal,
        // the child would run until the watchdog kills it. The margin is the child's exit, which
        // under a sanitizer and a busy machine alone took longer than a second.
        #expect(took < .seconds(grace + 5), "exit \(took) after SIGTERM, grace period \(grace) s")
    }

    /// Runs `service` in a group, makes a request, starts the group's graceful shutdown once
    /// `policy` decided on the request's retry (RetryPolicy's first delay: 300 s), and waits for
    /// the group to end; the request and the error it ended with.
    private func shutdownDuringRetry(of service: SessionService, decidedBy policy: DecidedRetryPolicy,
                                     _ makeRequest: (Session) -> DataRequest) async throws -> (DataRequest, AFError?) {
        let group = ServiceGroup(services: [service], logger: Logger(label: "af.test.lifecycle"))
        let running = Task { try await group.run() }
        let request = makeRequest(service.session)
        let outcome = request.serializingData()
        await policy.decided.wait()
        await group.triggerGracefulShutdown()
        let error = await outcome.response.error
        try await running.value
        return (request, error)
    }

    @Test func aRetryWaitingForItsDelayEndsWhenTheShutdownStarts() async throws {
        _ = TestServers.shared
        let policy = DecidedRetryPolicy(exponentialBackoffBase: 2, exponentialBackoffScale: 300)
        let service = SessionService(interceptor: policy, gracePeriod: .seconds(30))
        let (request, error) = try await shutdownDuringRetry(of: service, decidedBy: policy) {
            $0.request(Server.faults("/flaky/\(uniqueKey())?fail=9")).validate()  // fails each time
        }
        guard case let .requestRetryFailed(retryError, _)? = error else {
            Issue.record("expected requestRetryFailed, got \(String(describing: error))")
            return
        }
        #expect(retryError is SessionServiceShuttingDown)
        #expect(request.retryCount == 0)
    }

    /// A request admitted by the service whose next adapter fails (a token refresh while
    /// offline) and which RetryPolicy retries after a delay: the shutdown stops those retries too.
    @Test func aRetryAfterAFailedAdapterEndsWhenTheShutdownStarts() async throws {
        _ = TestServers.shared
        let policy = DecidedRetryPolicy(exponentialBackoffBase: 2, exponentialBackoffScale: 300)
        let offline = Adapter { _, _, completion in completion(.failure(URLError(.notConnectedToInternet))) }
        let service = SessionService(interceptor: Interceptor(adapters: [offline], retriers: [policy]),
                                     gracePeriod: .seconds(30))
        let (request, error) = try await shutdownDuringRetry(of: service, decidedBy: policy) {
            $0.request(Server.http("/get"))
        }
        guard case let .requestRetryFailed(retryError, originalError)? = error else {
            Issue.record("expected requestRetryFailed, got \(String(describing: error))")
            return
        }
        #expect(retryError is SessionServiceShuttingDown)
        #expect((originalError as? AFError)?.isRequestAdaptationError == true)
        #expect(request.retryCount == 0)
    }

    @Test func triggerGracefulShutdownStartsTheGracePeriodBeforeTheGroupDoes() async throws {
        _ = TestServers.shared
        let service = SessionService(gracePeriod: .milliseconds(300))
        let user = StalledUser(session: service.session, url: URL(string: Server.faults("/stall"))!, report: { _ in })
        let group = ServiceGroup(services: [service, user], logger: Logger(label: "af.test.lifecycle"))
        let running = Task { try await group.run() }
        await user.inFlight.wait()
        service.triggerGracefulShutdown()
        await user.finished.wait()
        let error = user.outcome
        #expect(error?.isExplicitlyCancelledError == true, "past the grace period, the request was cancelled")
        let refused = await service.session.request(Server.http("/get")).serializingData().response.error
        #expect(refused?.isSessionInvalidatedError == true || refused?.isRequestAdaptationError == true)
        await group.triggerGracefulShutdown()
        try await running.value
    }
}

/// Alamofire's RetryPolicy, telling once it has decided on a retry: a shutdown started after
/// that meets a retry waiting for its delay, not an attempt still in flight.
final class DecidedRetryPolicy: RetryPolicy, @unchecked Sendable {
    let decided = OneShot()

    override func retry(_ request: Request, for session: Session, dueTo error: any Error,
                        completion: @escaping @Sendable (RetryResult) -> Void) {
        super.retry(request, for: session, dueTo: error) { [decided] result in
            completion(result)
            decided.fire()
        }
    }
}

/// A service that uses the Session as a poller does: one request (which stalls), then waits
/// for its graceful shutdown.
final class StalledUser: Service, Sendable {
    let session: Session
    let url: URL
    let report: @Sendable (String) -> Void
    let inFlight = OneShot()
    let finished = OneShot()
    private let error = Protected<AFError?>(nil)
    /// The error the request ended with, once `finished` fired.
    var outcome: AFError? { error.withLock { $0 } }

    init(session: Session, url: URL, report: @escaping @Sendable (String) -> Void) {
        self.session = session
        self.url = url
        self.report = report
    }

    func run() async throws {
        let request = session.request(url).onURLSessionTaskCreation(on: .global()) { [report, inFlight] _ in
            report("AF-CHILD-READY")
            inFlight.fire()
        }
        let error = await request.serializingData().response.error
        self.error.withLock { $0 = error }
        finished.fire()
        report("AF-CHILD-RESULT \(String(describing: error))")
        try? await gracefulShutdown()
    }
}

/// The daemon the SIGTERM test runs in a child process; skipped otherwise.
@Suite struct ChildDaemon {
    @Test(.enabled(if: ProcessInfo.processInfo.environment[ShutdownOrderTests.childOrder] != nil))
    func run() async throws {
        let environment = ProcessInfo.processInfo.environment
        let say: @Sendable (String) -> Void = { line in
            // Written at once, unbuffered: the parent waits for these lines.
            FileHandle.standardOutput.write(Data((line + "\n").utf8))
        }
        let grace = Double(environment[ShutdownOrderTests.childGrace] ?? "") ?? 2
        let service = SessionService(interceptor: RetryPolicy(), gracePeriod: .milliseconds(Int(grace * 1000)),
                                     gracefulShutdownSignals: [.sigterm])
        let user = StalledUser(session: service.session, url: URL(string: environment[ShutdownOrderTests.childURL] ?? "")!,
                               report: say)
        let services: [any Service] = environment[ShutdownOrderTests.childOrder] == "session-first" ? [service, user] : [user, service]
        let group = ServiceGroup(services: services, gracefulShutdownSignals: [.sigterm], logger: Logger(label: "af.child"))
        do {
            try await group.run()
            say("AF-CHILD-STOPPED error=none")
        } catch {
            say("AF-CHILD-STOPPED error=\(error)")
        }
    }
}
