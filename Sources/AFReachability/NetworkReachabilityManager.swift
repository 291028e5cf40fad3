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

    /// A party that hears statuses: the public listener, or a watcher (`watch`).
    private struct Audience {
        var handler: Listener
        var queue: DispatchQueue
        var lastDelivered: NetworkReachabilityStatus?
    }

    private struct Listening {
        var monitor: NetlinkMonitor?
        /// The listener `startListening` set.
        var listener: Audience?
        /// Parties that listen besides it, by the id `watch` returned.
        var watchers: [Int: Audience] = [:]
        var nextWatcher = 0
        /// Increased by each start and stop: work for an older one is dropped.
        var generation = 0
        var updateScheduled = false

        var isEmpty: Bool { listener == nil && watchers.isEmpty }
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
    /// `stopListening()`. Replaces an earlier listener (AF's own watchers, such as an
    /// `OfflineRetrier`'s, are not listeners and stay). False when the kernel's change
    /// notifications cannot be had.
    @discardableResult
    open func startListening(onQueue queue: DispatchQueue = .main,
                             onUpdatePerforming listener: @escaping Listener) -> Bool {
        let generation = listening.withLock { state -> Int? in
            guard startMonitor(&state) else { return nil }
            state.generation += 1
            state.listener = Audience(handler: listener, queue: queue)
            return state.generation
        }
        guard let generation else { return false }
        reachabilityQueue.async { self.update(generation: generation) }
        return true
    }

    /// Starts the monitor unless it runs; false when netlink refused. Under the lock, so a stop
    /// never meets a half-started monitor.
    private func startMonitor(_ state: inout Listening) -> Bool {
        guard state.monitor == nil else { return true }
        guard let monitor = NetlinkMonitor(namespace: namespace) else { return false }
        monitor.start { [weak self] in self?.scheduleUpdate() }
        state.monitor = monitor
        return true
    }

    /// The kernel's id of the listening thread, nil when not listening (for tests).
    var monitorThreadID: Int32? {
        listening.withLock { $0.monitor?.threadID }
    }

    /// Stops the updates to the listener: no listener call starts after this returns (one
    /// already running may finish). Once no watcher is left either, closes the netlink socket and
    /// ends its thread.
    open func stopListening() {
        let monitor = listening.withLock { state -> NetlinkMonitor? in
            state.generation += 1
            state.listener = nil
            return stopMonitorIfUnheard(&state)
        }
        monitor?.stop()
    }

    /// Calls `handler` on `queue` with the current status, then with each change, until
    /// `unwatch` with the id returned; beside the listener, which it leaves alone. Nil when the
    /// kernel's change notifications cannot be had.
    func watch(onQueue queue: DispatchQueue, _ handler: @escaping Listener) -> Int? {
        let id = listening.withLock { state -> Int? in
            guard startMonitor(&state) else { return nil }
            state.nextWatcher += 1
            state.watchers[state.nextWatcher] = Audience(handler: handler, queue: queue)
            return state.nextWatcher
        }
        guard let id else { return nil }
        let generation = listening.withLock { $0.generation }
        reachabilityQueue.async { self.update(generation: generation) }
        return id
    }

    /// Ends the watcher `id`: no call of its handler starts after this returns.
    func unwatch(_ id: Int) {
        let monitor = listening.withLock { state -> NetlinkMonitor? in
            state.watchers[id] = nil
            return stopMonitorIfUnheard(&state)
        }
        monitor?.stop()
    }

    /// Takes the monitor out of the state when nobody listens any more (stopped outside the lock).
    private func stopMonitorIfUnheard(_ state: inout Listening) -> NetlinkMonitor? {
        guard state.isEmpty else { return nil }
        defer { state.monitor = nil }
        return state.monitor
    }

    /// A netlink batch arrived: one update after the debounce, however many batches follow.
    private func scheduleUpdate() {
        let generation = listening.withLock { state -> Int? in
            guard !state.isEmpty, !state.updateScheduled else { return nil }
            state.updateScheduled = true
            return state.generation
        }
        guard generation != nil else { return }
        reachabilityQueue.asyncAfter(deadline: .now() + Self.debounce) { [weak self] in
            guard let self else { return }
            let generation = self.listening.withLock { state -> Int in
                state.updateScheduled = false
                return state.generation
            }
            self.update(generation: generation)
        }
    }

    /// Works the status out afresh and hands it to each party that has not heard it yet.
    private func update(generation: Int) {
        let current = status
        typealias Delivery = (handler: Listener, queue: DispatchQueue, watcher: Int?)
        let deliveries = listening.withLock { state -> [Delivery] in
            var deliveries: [Delivery] = []
            if state.generation == generation, let listener = state.listener, listener.lastDelivered != current {
                state.listener?.lastDelivered = current
                deliveries.append((listener.handler, listener.queue, nil))
            }
            for (id, watcher) in state.watchers where watcher.lastDelivered != current {
                state.watchers[id]?.lastDelivered = current
                deliveries.append((watcher.handler, watcher.queue, id))
            }
            return deliveries
        }
        for delivery in deliveries {
            delivery.queue.async { [weak self] in
                // Dropped if the party stopped (or a new startListening came) in between.
                guard let self, self.listening.withLock({ state in
                    delivery.watcher.map { state.watchers[$0] != nil } ?? (state.generation == generation && state.listener != nil)
                }) else { return }
                delivery.handler(current)
            }
        }
    }
}
