import CCurl
import CCurlShim
import Foundation

/// One of the engine's curl multi handles, driven through curl's socket interface: its sockets
/// are in the engine's wait set, and the engine hands it only what is ready (a socket, or its
/// timer once due), so a pass costs what is active, not every transfer. Used only by the holder
/// of the engine's lock (so its counts go without the runtime's exclusivity checks).
///
/// Most sessions have one. libcurl (up to 8.x) walks all of a multi handle's connections to one
/// host for each new transfer and again as each one leaves, so with thousands of transfers at
/// once every one costs a walk over thousands; a session allowed that many connections per host
/// spreads its transfers over several multi handles (see `CurlEngine.Limits.shards`), each with
/// its own share of the connections and of the limits.
final class CurlShard {
    let multi: UnsafeMutableRawPointer
    /// Its place among the engine's multi handles (the tag of its sockets in the wait set).
    let index: Int
    /// Transfers added and not removed yet.
    @exclusivity(unchecked) private(set) var running = 0
    /// When curl next wants its timer called (uptime nanoseconds); `UInt64.max` for never.
    @exclusivity(unchecked) private(set) var deadline = UInt64.max
    private let route: UnsafeMutablePointer<afc_socket_route>

    init(index: Int, waitSet: EngineWaitSet, maximumConnectionsPerHost: Int, maximumCachedConnections: Int) {
        multi = curl_multi_init()
        self.index = index
        afc_multi_setopt_long(multi, CURLMOPT_PIPELINING, Int(CURLPIPE_MULTIPLEX))
        afc_multi_setopt_long(multi, CURLMOPT_MAX_HOST_CONNECTIONS, maximumConnectionsPerHost)
        afc_multi_setopt_long(multi, CURLMOPT_MAXCONNECTS, maximumCachedConnections)
        route = .allocate(capacity: 1)
        route.initialize(to: afc_socket_route(multi: multi, epoll_fd: waitSet.epoll, index: UInt32(index), unwatched: nil,
                                              unwatched_count: 0, unwatched_capacity: 0, unwatched_errno: 0))
        afc_wait_route_sockets(route)
    }

    func add(_ handle: EasyHandle) {
        curl_multi_add_handle(multi, handle.raw)
        running += 1
    }

    func remove(_ handle: EasyHandle) {
        curl_multi_remove_handle(multi, handle.raw)
        afc_wait_forget_unwatched(route, handle.raw)
        running -= 1
    }

    /// Lets curl act on `socket`, ready for `what` (`CURL_CSELECT_*`); returns how many of this
    /// multi handle's transfers curl still runs.
    @discardableResult
    func act(on socket: Int32, what: Int32) -> Int32 {
        var stillRunning: Int32 = 0
        curl_multi_socket_action(multi, socket, what, &stillRunning)
        return stillRunning
    }

    /// Lets curl run what is due by its timer (new transfers, unpaused ones, timeouts); returns
    /// how many transfers curl still runs.
    @discardableResult
    func runTimers() -> Int32 { act(on: CURL_SOCKET_TIMEOUT, what: 0) }

    /// Reads when curl next wants its timer called. Asked after every pass rather than taken
    /// from curl's timer callback: curl calls that only when the time changes, so a deadline
    /// the engine cleared on firing early (its clock rounds to milliseconds) would be lost.
    func refreshDeadline(now: UInt64) {
        var milliseconds = -1
        curl_multi_timeout(multi, &milliseconds)
        deadline = milliseconds < 0 ? .max : CurlEngine.deadline(now: now, milliseconds: milliseconds)
    }

    /// Calls `body` with each transfer that ended since the last call: its easy handle and result.
    func takeFinished(_ body: (UnsafeMutableRawPointer, CURLcode) -> Void) {
        var remaining: Int32 = 0
        while let message = curl_multi_info_read(multi, &remaining) {
            var easy: UnsafeMutableRawPointer?
            var result = CURLE_OK
            guard afc_multi_message_done(message, &easy, &result) != 0, let easy else { continue }
            body(easy, result)
        }
    }

    /// Calls `body` with each transfer whose new socket the wait set refused since the last
    /// call, and the reason (an errno); curl goes on waiting for such a socket, so the transfer
    /// must be ended.
    func takeUnwatched(_ body: (UnsafeMutableRawPointer, Int32) -> Void) {
        let reason = route.pointee.unwatched_errno
        while let easy = afc_wait_take_unwatched(route) { body(easy, reason) }
    }

    /// Frees the multi handle (closing its connections) and its route; the last call.
    func close() {
        curl_multi_cleanup(multi)
        afc_wait_route_free(route)
        route.deallocate()
    }
}
