import AFCore
import CNetlink
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Watches whether a host (or any network) can be reached, from the kernel's routing and link
/// state (rtnetlink): Alamofire's `NetworkReachabilityManager` on Linux. Reachable means a route
/// to one of the host's addresses leaves through an interface that is up with carrier. The
/// manager works in the network namespace of the thread that created it.
open class NetworkReachabilityManager: @unchecked Sendable {
    /// Receives statuses on the queue given to `startListening`.
    public typealias Listener = @Sendable (NetworkReachabilityStatus) -> Void

    /// A manager for any route, created when first used.
    public static let `default` = NetworkReachabilityManager()

    /// How long changes are gathered into one update.
    static let debounce: DispatchTimeInterval = .milliseconds(50)

    /// Where statuses are worked out (name resolution and netlink questions).
    public let reachabilityQueue = DispatchQueue(label: "org.alamofire.reachabilityQueue")

    private struct Listening {
        var monitor: NetlinkMonitor?
        var listener: Listener?
        var listenerQueue: DispatchQueue?
        /// Increased by each start and stop: work for an older one is dropped.
        var generation = 0
        var updateScheduled = false
        var lastDelivered: NetworkReachabilityStatus?
    }

    private let target: Target
    /// The network namespace of the thread that created the manager: where its sockets live.
    private let namespace: Int32
    /// The last addresses the target resolved to.
    private let addresses: Protected<[IPAddress]?>
    private let listening: Protected<Listening>

    /// A manager for `host`, a name or an IP address; nil when netlink cannot be used.
    public convenience init?(host: String) {
        self.init(target: .host(host))
    }

    /// A manager for any route (a default route through a usable interface); nil when netlink
    /// cannot be used.
    public convenience init?() {
        self.init(target: .anyRoute)
    }

    init?(target: Target) {
        namespace = afn_current_namespace()
        guard namespace >= 0 else { return nil }
        guard NetlinkQueries(namespace: namespace) != nil else {
            close(namespace)
            return nil
        }
        self.target = target
        addresses = Protected(nil)
        listening = Protected(Listening())
    }

    deinit {
        stopListening()
        close(namespace)
    }

    // MARK: Status

    /// The status now, asked of the kernel (and the resolver, for a host name) on each read.
    open var status: NetworkReachabilityStatus {
        let resolved = target.addresses()
        // A name that no longer resolves (the resolver is offline too): its last addresses.
        let known = addresses.withLock { known -> [IPAddress]? in
            if let resolved { known = resolved }
            return known
        }
        guard let known else { return .notReachable }
        guard let queries = NetlinkQueries(namespace: namespace) else { return .unknown }
        return queries.routes(to: known).map(ReachabilityDecision.status) ?? .unknown
    }

    /// Whether the network is reachable by any interface.
    open var isReachable: Bool { isReachableOnEthernetOrWiFi || isReachableOnCellular }
    /// Whether the network is reachable over a cellular (WWAN) interface.
    open var isReachableOnCellular: Bool { status == .reachable(.cellular) }
    /// Whether the network is reachable over Ethernet or Wi-Fi.
    open var isReachableOnEthernetOrWiFi: Bool { status == .reachable(.ethernetOrWiFi) }

    // MARK: Listening

    /// Calls `listener` on `queue` with the current status, then with each change, until
    /// `stopListening()`. Replaces an earlier listener. False when the kernel's change
    /// notifications cannot be had.
    @discardableResult
    open func startListening(onQueue queue: DispatchQueue = .main,
                             onUpdatePerforming listener: @escaping Listener) -> Bool {
        let generation = listening.withLock { state -> Int? in
            if state.monitor == nil {
                // Started under the lock, so a stop never meets a half-started monitor.
                guard let monitor = NetlinkMonitor(namespace: namespace) else { return nil }
                monitor.start { [weak self] in self?.scheduleUpdate() }
                state.monitor = monitor
            }
            state.generation += 1
            state.listener = listener
            state.listenerQueue = queue
            state.lastDelivered = nil
            return state.generation
        }
        guard let generation else { return false }
        reachabilityQueue.async { self.update(generation: generation) }
        return true
    }

    /// The kernel's id of the listening thread, nil when not listening (for tests).
    var monitorThreadID: Int32? {
        listening.withLock { $0.monitor?.threadID }
    }

    /// Stops the updates: no listener call starts after this returns (one already running may
    /// finish). Closes the netlink socket and ends its thread.
    open func stopListening() {
        let monitor = listening.withLock { state -> NetlinkMonitor? in
            state.generation += 1
            state.listener = nil
            state.listenerQueue = nil
            defer { state.monitor = nil }
            return state.monitor
        }
        monitor?.stop()
    }

    /// A netlink batch arrived: one update after the debounce, however many batches follow.
    private func scheduleUpdate() {
        let generation = listening.withLock { state -> Int? in
            guard state.listener != nil, !state.updateScheduled else { return nil }
            state.updateScheduled = true
            return state.generation
        }
        guard let generation else { return }
        reachabilityQueue.asyncAfter(deadline: .now() + Self.debounce) { [weak self] in
            guard let self else { return }
            self.listening.withLock { $0.updateScheduled = false }
            self.update(generation: generation)
        }
    }

    /// Works the status out afresh and hands it to the listener when it changed.
    private func update(generation: Int) {
        let current = status
        let delivery = listening.withLock { state -> (Listener, DispatchQueue)? in
            guard state.generation == generation, let listener = state.listener, let queue = state.listenerQueue,
                  state.lastDelivered != current else { return nil }
            state.lastDelivered = current
            return (listener, queue)
        }
        guard let (listener, queue) = delivery else { return }
        queue.async { [weak self] in
            // Dropped if stopListening (or a new startListening) came in between.
            guard let self, self.listening.withLock({ $0.generation == generation }) else { return }
            listener(current)
        }
    }
}
