import CCurlShim
import CNetlink
#if canImport(Glibc)
import Glibc
#endif

/// How an engine's connections follow the host's network: CNetlink's monitor socket, which hears
/// link, address and route changes, and the set of sockets curl opened through the engine. After a
/// change, every connection whose path is gone is reset, so a transfer on it fails at once
/// (`URLError.networkConnectionLost`) and a pooled one is never reused; a new connection is
/// refused when no usable path leads to its peer (`URLError.notConnectedToInternet`). Loopback
/// connections are never touched, and nothing here runs per request unless a connection leads
/// off the host. Used only by the holder of the engine's lock (so its state goes without the
/// runtime's exclusivity checks).
final class NetworkPathWatch {
    /// The netlink socket; -1 when the session does not follow the network or netlink is refused.
    let monitor: Int32
    /// The sockets of the engine's connections; nil when it could not be made (curl then opens
    /// and closes sockets itself).
    let sockets: OpaquePointer?

    init(follows: Bool, keepAlive: TCPKeepAlive?) {
        monitor = follows ? afn_open_monitor() : -1
        sockets = follows || keepAlive != nil
            ? afc_path_sockets_new(follows ? 1 : 0, keepAlive?.socketSettings ?? afc_keepalive()) : nil
    }

    /// Whether the engine's wait set holds the monitor (see `syncWatch`).
    @exclusivity(unchecked) private(set) var isWatched = false
    /// How many times the monitor heard a change.
    @exclusivity(unchecked) private(set) var generation: UInt64 = 0
    /// Tasks waiting for connectivity, run at the next change.
    @exclusivity(unchecked) private var changeWaiters: [@Sendable () -> Void] = []

    /// Makes the engine's wait set wake for the network's changes only while some connection
    /// leads off the host: otherwise (loopback only, or no connection) a change cannot matter,
    /// and its messages wait in the socket. What the monitor heard before the watch starts is
    /// taken in first. Returns whether the wait set watches the monitor now.
    @discardableResult
    func syncWatch(_ waitSet: EngineWaitSet) -> Bool {
        let needed = monitor >= 0 && (hasExposedConnections || !changeWaiters.isEmpty)
        guard needed != isWatched else { return needed }
        if needed { monitorIsReady() }
        waitSet.watchInput(monitor, needed)
        isWatched = needed
        return needed
    }

    /// Whether a change could matter now: some connection leads off the host.
    private var hasExposedConnections: Bool {
        guard let sockets else { return false }
        return afc_path_sockets_exposed(sockets) > 0
    }

    /// The monitor socket was ready: reads what it heard and resets the connections whose path
    /// is gone.
    func monitorIsReady() {
        guard afn_drain(monitor) != 0 else { return }
        generation &+= 1
        if let sockets { afc_path_sockets_drop_dead(sockets) }
        let waiters = changeWaiters
        changeWaiters = []
        waiters.forEach { $0() }
    }

    /// Runs `body` (which must only hand work to another queue) at the first change heard after
    /// `generation`: at once when one was heard already, or when the engine cannot hear them.
    func awaitChange(since generation: UInt64, _ body: @escaping @Sendable () -> Void) {
        guard monitor >= 0 else { return body() }
        // What the monitor heard while unwatched has not been read yet.
        if !isWatched { monitorIsReady() }
        guard self.generation == generation else { return body() }
        changeWaiters.append(body)
    }

    /// Before a transfer starts: takes in a change the engine has not read yet, so the transfer
    /// does not go out on a connection whose path just went. One non-blocking read, and only
    /// while a connection leads off the host.
    func catchUp() {
        guard monitor >= 0, hasExposedConnections || !changeWaiters.isEmpty else { return }
        monitorIsReady()
    }

    /// Closes the monitor and frees the socket set; after the multi handle is cleaned up (its
    /// connections close through the set).
    func close() {
        if monitor >= 0 { Glibc.close(monitor) }
        if let sockets { afc_path_sockets_free(sockets) }
    }
}

extension TCPKeepAlive {
    /// The settings in the shim's form (whole seconds, at least one).
    var socketSettings: afc_keepalive {
        func seconds(_ value: TimeInterval) -> Int32 {
            guard value.isFinite, value > 0 else { return 1 }
            return Int32(min(value.rounded(.up), 86_400 * 24))
        }
        return afc_keepalive(idle: seconds(idle), interval: seconds(interval), count: Int32(max(1, min(count, 127))))
    }
}
