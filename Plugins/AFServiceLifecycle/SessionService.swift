import AFCore
import Foundation
import ServiceLifecycle

/// A `Session` as a swift-service-lifecycle `Service`. While running, the Session works as any
/// other. On graceful shutdown (a `ServiceGroup`'s signal, `triggerGracefulShutdown()`), new
/// requests fail at once (`AFError.requestAdaptationFailed` with `SessionServiceShuttingDown`),
/// requests already made may finish, retries included, for up to `gracePeriod`; then the rest
/// are cancelled and the Session shut down (`Session.shutdown()`: engine and connections end).
/// When the service's task is cancelled instead, that happens at once.
public final class SessionService: Service, Sendable {
    /// The Session to make requests with.
    public let session: Session
    /// How long requests already made may take to finish after a graceful shutdown began.
    public let gracePeriod: Duration
    private let gate: AdmissionGate

    /// A service around the Session `makeSession` makes, which must be given the service's
    /// interceptor (first, if there are others) and event monitor.
    public init(gracePeriod: Duration = .seconds(30),
                makeSession: (_ interceptor: any RequestInterceptor, _ monitor: any EventMonitor) -> Session) {
        let gate = AdmissionGate()
        self.gate = gate
        self.gracePeriod = gracePeriod
        session = makeSession(gate, gate)
    }

    /// A service around a new Session with `configuration`, the service's interceptor in front of
    /// `interceptor`, and `eventMonitors`.
    public convenience init(configuration: URLSessionConfiguration = URLSessionConfiguration.af.default,
                            interceptor: (any RequestInterceptor)? = nil, eventMonitors: [any EventMonitor] = [],
                            gracePeriod: Duration = .seconds(30)) {
        self.init(gracePeriod: gracePeriod) { gate, monitor in
            Session(configuration: configuration,
                    interceptor: interceptor.map { Interceptor(interceptors: [gate, $0]) } ?? gate,
                    eventMonitors: [monitor] + eventMonitors)
        }
    }

    /// Runs until graceful shutdown or cancellation, then shuts the Session down as described above.
    public func run() async throws {
        let graceful: Bool
        do {
            try await gracefulShutdown()
            graceful = true
        } catch {
            graceful = false  // cancelled: no grace
        }
        gate.close()
        if graceful { _ = await gate.waitUntilIdle(timeout: gracePeriod) }
        await session.shutdown()
    }
}
