import CCurlShim

/// Where the engine thread waits while no transfer runs: an epoll set, outside curl, so that
/// the multi handle is free for a thread that starts a transfer meanwhile. It wakes for its
/// eventfd (a command), its timerfd (a deadline another thread set), or the one socket a
/// driven transfer waits on.
struct EngineParking: @unchecked Sendable {
    private let epoll: Int32
    private let event: Int32
    private let timer: Int32
    /// Where curl's socket callback writes (only its holder of the engine's lock calls curl).
    private let note: UnsafeMutablePointer<afc_socket_note>

    /// Nil when the descriptors could not be made (the engine then always waits in curl).
    init?() {
        var epoll: Int32 = -1, event: Int32 = -1, timer: Int32 = -1
        guard afc_park_open(&epoll, &event, &timer) == 0 else { return nil }
        (self.epoll, self.event, self.timer) = (epoll, event, timer)
        note = .allocate(capacity: 1)
        note.initialize(to: afc_socket_note())
    }

    /// Waits for a signal, the timer, a watched socket, or `milliseconds`; true when `flagged`
    /// (a descriptor given to `watchInput`) was ready.
    func wait(milliseconds: Int32, flagging flagged: Int32 = -1) -> Bool {
        afc_park_wait(epoll, milliseconds, flagged) == 1
    }

    /// Makes the wait wake whenever `fd` has input (`watched`), or no longer.
    func watchInput(_ fd: Int32, _ watched: Bool) {
        if watched { _ = afc_park_add(epoll, fd) } else { afc_park_unwatch(epoll, fd) }
    }

    /// Wakes the waiting engine.
    func signal() { afc_park_signal(event) }

    /// Clears a signal, so it does not wake a later wait.
    func clearSignal() { afc_park_clear_signal(event) }

    /// Disarms the timer, so it does not wake a later wait.
    func disarm() { afc_park_disarm(timer) }

    /// Makes the wait end `milliseconds` from now at the latest.
    func arm(milliseconds: Int) { afc_park_arm(timer, milliseconds) }

    /// Makes `multi` report its sockets to this parking (see `perform`).
    func noteSockets(of multi: UnsafeMutableRawPointer) { afc_park_note_sockets(multi, note) }

    /// `curl_multi_perform`, noting the sockets curl then waits on; returns how many transfers
    /// still run.
    func perform(_ multi: UnsafeMutableRawPointer) -> Int32 {
        var running: Int32 = 0
        afc_park_perform(multi, note, &running)
        return running
    }

    /// Watches, once, the one socket curl waits on after `perform`; returns it, or nil when curl
    /// waits on several (its own wait must watch them).
    func watchNotedSocket() -> Int32? {
        let socket = afc_park_watch(note, epoll)
        return socket >= 0 ? socket : nil
    }

    /// Stops watching `socket`.
    func unwatch(_ socket: Int32) { afc_park_unwatch(epoll, socket) }

    /// Closes the descriptors; after the multi handle is gone.
    func close() {
        afc_park_close(epoll, event, timer)
        note.deallocate()
    }
}
