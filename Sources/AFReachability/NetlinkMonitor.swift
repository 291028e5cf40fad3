import CNetlink
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A thread that waits on a netlink socket subscribed to link, address and route changes and
/// calls `onChange` after each batch of messages (which are only triggers). Stops, and closes
/// everything it opened, on `stop()`.
final class NetlinkMonitor: @unchecked Sendable {
    private let fd: Int32
    private let wake: [Int32]
    /// Set by `start`, joined by `stop` (both on the owner's side, never concurrently).
    private var thread: UInt?
    /// The kernel's id of the thread while it runs (set by `start`, cleared by `stop`).
    private(set) var threadID: Int32?
    /// The monitor thread's name (the kernel keeps 15 bytes).
    static let threadName = "af-reachability"

    /// Opens the socket in the network namespace `namespace` refers to; nil when netlink is refused.
    init?(namespace: Int32) {
        fd = afn_open_in(namespace, 1)
        guard fd >= 0 else { return nil }
        var pipeFDs: [Int32] = [-1, -1]
        guard afn_wake_pipe(&pipeFDs) == 0 else {
            close(fd)
            return nil
        }
        wake = pipeFDs
    }

    /// Starts the thread; `onChange` runs on it.
    func start(onChange: @escaping @Sendable () -> Void) {
        let body = Body(fd: fd, wake: wake[0], onChange: onChange)
        var created: UInt = 0
        var tid: Int32 = 0
        let context = Unmanaged.passRetained(body).toOpaque()
        let result = afn_start_thread(&created, &tid, Self.threadName, { context in
            let body = Unmanaged<Body>.fromOpaque(context!).takeRetainedValue()
            while afn_wait(body.fd, body.wake) == 1 {
                if afn_drain(body.fd) != 0 { body.onChange() }
            }
            return nil
        }, context)
        if result == 0 {
            thread = created
            threadID = tid
        } else {
            Unmanaged<Body>.fromOpaque(context).release()
        }
    }

    /// What the thread needs, handed over at its start.
    private final class Body {
        let fd: Int32
        let wake: Int32
        let onChange: @Sendable () -> Void

        init(fd: Int32, wake: Int32, onChange: @escaping @Sendable () -> Void) {
            self.fd = fd
            self.wake = wake
            self.onChange = onChange
        }
    }

    /// Wakes the thread, waits until it ended, closes the socket and the pipe.
    func stop() {
        if let thread {
            var byte: UInt8 = 1
            _ = write(wake[1], &byte, 1)
            afn_join_thread(thread)
            self.thread = nil
            threadID = nil
        }
        close(fd)
        close(wake[0])
        close(wake[1])
    }
}
