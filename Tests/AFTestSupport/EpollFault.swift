import CTestSpawn
import Foundation

/// Makes every later `epoll_ctl(EPOLL_CTL_ADD)` on the epoll set `epoll` fail with `error`, for
/// good (a seccomp filter): for a child process that plays a system out of epoll watches.
/// False when the kernel refused the filter.
package func refuseEpollAdds(to epoll: Int32, with error: Int32) -> Bool {
    afts_refuse_epoll_adds(epoll, error) == 0
}

/// A TCP socket listening on loopback that never accepts: the kernel completes connections to
/// it, and requests sent on them are never answered. Closed on `close()`.
package final class SilentListener: Sendable {
    package let port: Int
    private let descriptor: Int32

    package init() throws {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        self.descriptor = descriptor
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
                bind(descriptor, address, length) == 0 && listen(descriptor, 16) == 0
                    && getsockname(descriptor, address, &length) == 0
            }
        }
        guard descriptor >= 0, bound else { throw ProgramFailure.errno("listen") }
        port = Int(UInt16(bigEndian: address.sin_port))
    }

    package func close() { _ = Foundation.close(descriptor) }
}
