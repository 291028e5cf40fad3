import CCurlShim

/// Where the engine thread waits: an epoll set holding every socket curl wants watched in the
/// engine's multi handles (see `CurlShard`), an eventfd that commands signal, a timerfd that a
/// thread driving a start sets, and the network monitor while it is watched. Threads other than
/// the engine's only signal it, arm its timer, and (while driving a start) let curl change the
/// sockets in it.
struct EngineWaitSet: @unchecked Sendable {
    /// One ready descriptor (`afc_ready`): its multi handle's index, or `own` for the engine's.
    typealias Ready = afc_ready
    static let own = UInt32.max

    private let descriptors: afc_wait_set
    var epoll: Int32 { descriptors.epoll_fd }

    /// Nil, with errno set, when the descriptors could not be made.
    init?() {
        var set = afc_wait_set()
        guard afc_wait_open(&set) == 0 else { return nil }
        descriptors = set
    }

    /// Waits until a descriptor is ready or `milliseconds` passed (0: not at all); fills `ready`
    /// and returns how many are.
    func wait(milliseconds: Int32, into ready: UnsafeMutableBufferPointer<Ready>) -> Int {
        Int(afc_wait(descriptors.epoll_fd, milliseconds, ready.baseAddress!, Int32(ready.count)))
    }

    /// Whether `ready` is the eventfd's signal.
    func isSignal(_ ready: Ready) -> Bool { ready.multi == Self.own && ready.fd == descriptors.event_fd }

    /// Makes the wait wake whenever `fd` has input (`watched`), or no longer.
    func watchInput(_ fd: Int32, _ watched: Bool) { afc_wait_watch_input(descriptors.epoll_fd, fd, watched ? 1 : 0) }

    /// Wakes the waiting engine.
    func signal() { afc_wait_signal(descriptors.event_fd) }

    /// Clears a signal, so it does not wake a later wait.
    func clearSignal() { afc_wait_clear_signal(descriptors.event_fd) }

    /// Makes the wait end `milliseconds` from now at the latest.
    func arm(milliseconds: Int) { afc_wait_arm(descriptors.timer_fd, milliseconds) }

    /// Disarms the timer, so it does not wake a later wait.
    func disarm() { afc_wait_disarm(descriptors.timer_fd) }

    /// Closes the descriptors; after every multi handle is gone.
    func close() { withUnsafePointer(to: descriptors) { afc_wait_close($0) } }
}
