import AFCore
import Foundation
import ServiceLifecycle
import UnixSignals

/// A `Session` as a swift-service-lifecycle `Service`. While running, the Session works as any
/// other. Once its graceful shutdown starts, new requests fail at once
/// (`AFError.requestAdaptationFailed` with `SessionServiceShuttingDown`), no request is retried
/// (a retrier deciding ends its request with `AFError.requestRetryFailed` over
/// `SessionServiceShuttingDown`), the attempts in flight may finish for up to `gracePeriod`, then
/// the rest are cancelled and the Session shut down (`Session.shutdown()`: engine and
/// connections end). When the service's task is cancelled instead, that happens at once.
///
/// The graceful shutdown starts with the first of: the service's own (its `ServiceGroup` reached
/// it), one of `gracefulShutdownSignals`, or `triggerGracefulShutdown()`. A group shuts its
/// services down in reverse order, so a SessionService listed before the services that use it
/// hears the group only after they ended: give it the group's signals, and its grace period
/// starts with the group's shutdown wherever it stands. `run()` returns when the group reaches it.
public final class SessionService: Service, Sendable {
    /// The Session to make requests with.
    public let session: Session
    /// How long requests already made may take to finish after the graceful shutdown started.
    public let gracePeriod: Duration
    /// The signals that start the graceful shutdown, besides the service's own.
    public let gracefulShutdownSignals: [UnixSignal]
    private let gate: AdmissionGate
    private let cue = ShutdownCue()

    /// A service around the Session `makeSession` makes, which must be given the service's
    /// interceptor (first, if there are others) and event monitor. `gracefulShutdownSignals`:
    /// the group's own (see the type's description); none by default, since a signal trapped
    /// here no longer ends the process by itself.
    public init(gracePeriod: Duration = .seconds(30), gracefulShutdownSignals: [UnixSignal] = [],
                makeSession: (_ interceptor: any RequestInterceptor, _ monitor: any EventMonitor) -> Session) {
        let gate = AdmissionGate()
        self.gate = gate
        self.gracePeriod = gracePeriod
        self.gracefulShutdownSignals = gracefulShutdownSignals
        session = makeSession(gate, gate)
    }

    /// A service around a new Session with `configuration`, the service's interceptor in front of
    /// `interceptor`, and `eventMonitors`.
    public convenience init(configuration: URLSessionConfiguration = URLSessionConfiguration.af.default,
                            interceptor: (any RequestInterceptor)? = nil, eventMonitors: [any EventMonitor] = [],
                            gracePeriod: Duration = .seconds(30), gracefulShutdownSignals: [UnixSignal] = []) {
        self.init(gracePeriod: gracePeriod, gracefulShutdownSignals: gracefulShutdownSignals) { gate, monitor in
            Session(configuration: configuration,
                    interceptor: interceptor.map { Interceptor(interceptors: [gate, $0]) } ?? gate,
                    eventMonitors: [monitor] + eventMonitors)
        }
    }

    /// Starts the graceful shutdown now, as a signal in `gracefulShutdownSignals` would.
    public func triggerGracefulShutdown() {
        cue.fire()
    }

    /// Runs until the graceful shutdown starts or the task is cancelled, shuts the Session down as
    /// described above, then waits for the group to reach this service.
    public func run() async throws {
        let start = await shutdownStart()
        gate.close()
        if start != .cancelled { _ = await gate.waitUntilIdle(timeout: gracePeriod) }
        await session.shutdown()
        if start == .cue { try? await gracefulShutdown() }
    }

    private enum Start: Sendable { case own, cue, cancelled }

    /// Waits for the first start of the shutdown.
    private func shutdownStart() async -> Start {
        let signals = gracefulShutdownSignals
        let cue = cue
        return await withTaskGroup(of: Start?.self) { group in
            group.addTask {
                do {
                    try await gracefulShutdown()
                    return .own
                } catch {
                    return Task.isCancelled && !cue.isFired ? .cancelled : nil
                }
            }
            group.addTask {
                await cue.wait()
                return cue.isFired ? .cue : nil
            }
            if !signals.isEmpty {
                group.addTask {
                    for await _ in await UnixSignalsSequence(trapping: signals) {
                        cue.fire()
                        return .cue
                    }
                    return nil
                }
            }
            var start = Start.cancelled
            while let next = await group.next() {
                guard let next else { continue }
                start = next
                break
            }
            group.cancelAll()
            return start
        }
    }
}
