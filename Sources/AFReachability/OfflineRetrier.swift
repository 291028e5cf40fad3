import AFCore
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Retries a request that failed because the network was gone (not connected, connection lost,
/// cannot connect, host name not found) once `monitor` reports the network reachable again, or
/// gives up after `maximumWait`. When the monitor says the network is there at the time of the
/// failure, it does not retry (the failure has another cause). Other errors are left to the next retrier: compose it with a
/// `RetryPolicy` in an `Interceptor`.
public final class OfflineRetrier: RequestInterceptor, @unchecked Sendable {
    /// How long a request waits for the network by default: 5 seconds.
    public static let defaultWait: DispatchTimeInterval = .seconds(5)

    /// The URL error codes that mean "the network is not there". Wider than Alamofire's
    /// (`.notConnectedToInternet` only): on Linux, libcurl reports a missing network as a host
    /// that cannot be found or reached, or a lost connection.
    public static let defaultURLErrorOfflineCodes: Set<URLError.Code> = [
        .notConnectedToInternet, .networkConnectionLost, .cannotConnectToHost, .cannotFindHost, .dnsLookupFailed,
    ]

    /// Whether an error (an `AFError` wrapping a `URLError`, or a `URLError`) is a connectivity one.
    public static let defaultIsOfflineError: @Sendable (_ error: any Error) -> Bool = { error in
        let underlying = (error as? AFError)?.underlyingError ?? error
        guard let urlError = underlying as? URLError else { return false }
        return defaultURLErrorOfflineCodes.contains(urlError.code)
    }

    private struct Waiters {
        var next = 0
        var waiting: [Int: @Sendable (RetryResult) -> Void] = [:]
    }

    private let monitor: NetworkReachabilityManager?
    private let maximumWait: DispatchTimeInterval
    private let isOfflineError: @Sendable (any Error) -> Bool
    private let waiters = Protected(Waiters())
    private let queue = DispatchQueue(label: "org.alamofire.offlineRetrier")

    /// Creates a retrier that asks `monitor` (by default a new manager for any route, its own)
    /// whether the network is back. While requests wait it listens on `monitor`, which replaces
    /// any other listener of that manager: share one only with nothing else listening on it.
    /// Without a monitor (the kernel's routing information could not be read) it never retries.
    public init(monitor: NetworkReachabilityManager? = NetworkReachabilityManager(),
                maximumWait: DispatchTimeInterval = OfflineRetrier.defaultWait,
                isOfflineError: @escaping @Sendable (_ error: any Error) -> Bool = OfflineRetrier.defaultIsOfflineError) {
        self.monitor = monitor
        self.maximumWait = maximumWait
        self.isOfflineError = isOfflineError
    }

    public func retry(_ request: Request, for session: Session, dueTo error: any Error,
                      completion: @escaping @Sendable (RetryResult) -> Void) {
        guard let monitor, isOfflineError(error) else { return completion(.doNotRetry) }
        queue.async {
            // The network is there: the failure was not for want of it (a refused connection, a
            // name that does not exist), and waiting would only repeat it.
            if case .reachable = monitor.status { return completion(.doNotRetry) }
            let id = self.waiters.withLock { waiters -> Int in
                waiters.next += 1
                waiters.waiting[waiters.next] = completion
                return waiters.next
            }
            self.queue.asyncAfter(deadline: .now() + self.maximumWait) { [weak self] in self?.release([id], with: .doNotRetry) }
            self.listenWhileWaiting()
        }
    }

    /// On `queue`: listens while requests wait, and only then. `isListening` lives on `queue`.
    private var isListening = false

    private func listenWhileWaiting() {
        let waiting = waiters.withLock { !$0.waiting.isEmpty }
        guard let monitor else { return }
        if waiting, !isListening {
            // The listener hears the current status first: a network already back retries at once.
            isListening = monitor.startListening(onQueue: queue) { [weak self] status in
                guard let self, case .reachable = status else { return }
                self.release(nil, with: .retry)
            }
            if !isListening { release(nil, with: .doNotRetry) }
        } else if !waiting, isListening {
            monitor.stopListening()
            isListening = false
        }
    }

    /// Answers the waiters `ids` (all when nil); stops listening when none is left.
    private func release(_ ids: [Int]?, with result: RetryResult) {
        let (released, empty) = waiters.withLock { waiters -> ([@Sendable (RetryResult) -> Void], Bool) in
            let chosen = ids ?? Array(waiters.waiting.keys)
            let released = chosen.compactMap { waiters.waiting.removeValue(forKey: $0) }
            return (released, waiters.waiting.isEmpty && !released.isEmpty)
        }
        if empty { queue.async { self.listenWhileWaiting() } }
        released.forEach { $0(result) }
    }
}

extension RequestInterceptor where Self == OfflineRetrier {
    /// An `OfflineRetrier` with the given monitor (by default a new one of its own), wait and
    /// error predicate.
    public static func offlineRetrier(
        monitor: NetworkReachabilityManager? = NetworkReachabilityManager(),
        maximumWait: DispatchTimeInterval = OfflineRetrier.defaultWait,
        isOfflineError: @escaping @Sendable (_ error: any Error) -> Bool = OfflineRetrier.defaultIsOfflineError
    ) -> OfflineRetrier {
        OfflineRetrier(monitor: monitor, maximumWait: maximumWait, isOfflineError: isOfflineError)
    }
}
