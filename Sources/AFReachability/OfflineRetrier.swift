import AFCore
import CNetlink
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Retries a request that failed because the network was gone (not connected, connection lost,
/// cannot connect, host name not found) once the network is reachable, or gives up after
/// `maximumWait`. As Alamofire's, it makes a monitor of its own for each burst of failures (the
/// requests that wait together share it) and lets it go when none is left; it watches the
/// monitor beside its listener, so a manager the app also listens on keeps the app's listener.
///
/// When the network is reachable at the time of the failure, it retries at once only a
/// connection lost to a change of the host's network (`URLError.isCausedByNetworkChange`) or a
/// request that found no path (`notConnectedToInternet`): the path came back meanwhile. Other
/// failures with the network there have another cause (a refused connection, a name that does
/// not exist) and are left to the next retrier: compose it with a `RetryPolicy` in an
/// `Interceptor`. A request it sent again because the network came back gets one more try if
/// that attempt fails within two seconds (a link that has just come back may still be settling).
public final class OfflineRetrier: RequestInterceptor, @unchecked Sendable {
    /// How long a request waits for the network by default: 5 seconds.
    public static let defaultWait: DispatchTimeInterval = .seconds(5)

    /// Retries at once (the network reachable at the failure) after which a request is no longer
    /// retried that way: a path that the engine finds unusable while the monitor calls it
    /// reachable cannot make it loop.
    static let maximumImmediateRetries = 8

    /// The URL error codes that mean "the network is not there". Wider than Alamofire's
    /// (`.notConnectedToInternet` only): on Linux, libcurl reports a missing network as a host
    /// that cannot be found or reached, or a lost connection.
    public static let defaultURLErrorOfflineCodes: Set<URLError.Code> = [
        .notConnectedToInternet, .networkConnectionLost, .cannotConnectToHost, .cannotFindHost, .dnsLookupFailed,
    ]

    /// Whether an error (an `AFError` wrapping a `URLError`, or a `URLError`) is a connectivity one.
    public static let defaultIsOfflineError: @Sendable (_ error: any Error) -> Bool = { error in
        guard let urlError = urlError(in: error) else { return false }
        return defaultURLErrorOfflineCodes.contains(urlError.code)
    }

    private static func urlError(in error: any Error) -> URLError? {
        ((error as? AFError)?.underlyingError ?? error) as? URLError
    }

    /// A request waiting for the network.
    private struct Waiter {
        var request: UUID
        var completion: @Sendable (RetryResult) -> Void
        /// Whether it is retried at once when the network is there at its failure.
        var retriesAtOnce: Bool
    }

    /// The requests waiting for the network, with the monitor they share.
    private struct Burst {
        var monitor: NetworkReachabilityManager
        var watcher: Int
        var waiting: [Int: Waiter] = [:]
        /// The monitor's latest status (nil until its first).
        var status: NetworkReachabilityManager.NetworkReachabilityStatus?
    }

    private struct State {
        var nextWaiter = 0
        var burst: Burst?
        /// Requests sent again because the network came back, and when: a path that has just
        /// come back may still refuse the first connection (a neighbour not resolved yet, a link
        /// still settling), which then gets one more try.
        var released: [UUID: TimeInterval] = [:]
    }

    /// How long after the network came back a failure of the request sent then is still
    /// taken for the path settling.
    static let settling: TimeInterval = 2

    private let makeMonitor: () -> NetworkReachabilityManager?
    /// The network namespace of the thread that made the retrier, where its monitors are made
    /// (a manager watches the namespace it was made in); -1 when it could not be read.
    private let namespace: Int32 = afn_current_namespace()
    private let maximumWait: DispatchTimeInterval
    private let isOfflineError: @Sendable (any Error) -> Bool
    /// The burst is read and changed on `queue`; `released` also by `retry`, on the caller's side.
    private let state = Protected(State())
    private let queue = DispatchQueue(label: "org.alamofire.offlineRetrier")

    /// Creates a retrier that asks a monitor made by `monitor` (by default a new manager for any
    /// route) whether the network is back; one is made for each burst of failures, in the network
    /// namespace of the thread that made the retrier. Without a
    /// monitor (the kernel's routing information could not be read) it never retries.
    public init(monitor: @autoclosure @escaping () -> NetworkReachabilityManager? = NetworkReachabilityManager(),
                maximumWait: DispatchTimeInterval = OfflineRetrier.defaultWait,
                isOfflineError: @escaping @Sendable (_ error: any Error) -> Bool = OfflineRetrier.defaultIsOfflineError) {
        makeMonitor = monitor
        self.maximumWait = maximumWait
        self.isOfflineError = isOfflineError
    }

    deinit {
        if namespace >= 0 { close(namespace) }
    }

    /// A new monitor, made in the retrier's namespace.
    private func newMonitor() -> NetworkReachabilityManager? {
        guard namespace >= 0 else { return makeMonitor() }
        final class Making {
            let make: () -> NetworkReachabilityManager?
            var made: NetworkReachabilityManager?
            init(_ make: @escaping () -> NetworkReachabilityManager?) { self.make = make }
        }
        let making = Making(makeMonitor)
        let switched = withExtendedLifetime(making) {
            afn_run_in(namespace, { context in
                let making = Unmanaged<Making>.fromOpaque(context!).takeUnretainedValue()
                making.made = making.make()
            }, Unmanaged.passUnretained(making).toOpaque())
        }
        return switched == 0 ? making.made : nil
    }

    public func retry(_ request: Request, for session: Session, dueTo error: any Error,
                      completion: @escaping @Sendable (RetryResult) -> Void) {
        guard isOfflineError(error) else { return completion(.doNotRetry) }
        let urlError = Self.urlError(in: error)
        let now = ProcessInfo.processInfo.systemUptime
        let settling = state.withLock { state -> Bool in
            state.released = state.released.filter { now - $0.value < Self.settling }
            return state.released.removeValue(forKey: request.id) != nil
        }
        let pathCameBack = settling || urlError?.isCausedByNetworkChange == true || urlError?.code == .notConnectedToInternet
        let waiter = Waiter(request: request.id, completion: completion,
                            retriesAtOnce: pathCameBack && request.retryCount < Self.maximumImmediateRetries)
        queue.async { self.wait(waiter) }
    }

    /// On `queue`: joins the burst (or starts one, with a new monitor), or is answered at once
    /// when the burst's monitor says the network is there.
    private func wait(_ waiter: Waiter) {
        if state.withLock({ $0.burst == nil }) {
            guard let monitor = newMonitor(),
                  let watcher = monitor.watch(onQueue: queue, { [weak self] status in self?.heard(status) })
            else { return waiter.completion(.doNotRetry) }
            state.withLock { $0.burst = Burst(monitor: monitor, watcher: watcher) }
        }
        let answer = state.withLock { state -> RetryResult? in
            guard case .reachable = state.burst?.status else { return nil }
            return waiter.retriesAtOnce ? .retry : .doNotRetry
        }
        if let answer { return finishIfIdle(then: { waiter.completion(answer) }) }
        let id = state.withLock { state -> Int in
            state.nextWaiter += 1
            state.burst?.waiting[state.nextWaiter] = waiter
            return state.nextWaiter
        }
        queue.asyncAfter(deadline: .now() + maximumWait) { [weak self] in
            guard let self else { return }
            let timedOut = self.state.withLock { $0.burst?.waiting.removeValue(forKey: id) }
            self.finishIfIdle(then: { timedOut?.completion(.doNotRetry) })
        }
    }

    /// On `queue`: the burst's monitor reported `status`. Its first status is the network at the
    /// time of the failures; a later reachable one is the network coming back.
    private func heard(_ status: NetworkReachabilityManager.NetworkReachabilityStatus) {
        let answers = state.withLock { state -> [(Waiter, RetryResult)] in
            guard var burst = state.burst else { return [] }
            let first = burst.status == nil
            burst.status = status
            var answers: [(Waiter, RetryResult)] = []
            if case .reachable = status {
                answers = burst.waiting.values.map { ($0, !first || $0.retriesAtOnce ? .retry : .doNotRetry) }
                burst.waiting.removeAll()
                if !first {
                    let now = ProcessInfo.processInfo.systemUptime
                    answers.forEach { state.released[$0.0.request] = now }
                }
            }
            state.burst = burst
            return answers
        }
        finishIfIdle(then: { answers.forEach { $0.0.completion($0.1) } })
    }

    /// Lets the burst's monitor go when no request waits any more, then runs `answer`.
    private func finishIfIdle(then answer: () -> Void) {
        let ended = state.withLock { state -> Burst? in
            guard let burst = state.burst, burst.waiting.isEmpty else { return nil }
            state.burst = nil
            return burst
        }
        if let ended { ended.monitor.unwatch(ended.watcher) }
        answer()
    }
}

extension RequestInterceptor where Self == OfflineRetrier {
    /// An `OfflineRetrier` with the given monitor (by default a new one of its own for each burst
    /// of failures), wait and error predicate.
    public static func offlineRetrier(
        monitor: @autoclosure @escaping () -> NetworkReachabilityManager? = NetworkReachabilityManager(),
        maximumWait: DispatchTimeInterval = OfflineRetrier.defaultWait,
        isOfflineError: @escaping @Sendable (_ error: any Error) -> Bool = OfflineRetrier.defaultIsOfflineError
    ) -> OfflineRetrier {
        OfflineRetrier(monitor: monitor(), maximumWait: maximumWait, isOfflineError: isOfflineError)
    }
}
