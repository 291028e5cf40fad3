import CNetlink
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Route and link questions to the kernel over one netlink socket, in the network namespace
/// `namespace` refers to. Not thread-safe: one per status read.
final class NetlinkQueries {
    private let fd: Int32

    init?(namespace: Int32) {
        fd = afn_open_in(namespace, 0)
        guard fd >= 0 else { return nil }
    }

    deinit {
        close(fd)
    }

    /// The route facts for each address; nil when the kernel could not be asked.
    func routes(to addresses: [IPAddress]) -> [RouteFacts]? {
        var facts: [RouteFacts] = []
        for address in addresses {
            let index = address.bytes.withUnsafeBufferPointer { afn_route_interface(fd, address.family, $0.baseAddress!) }
            guard index >= 0 else { return nil }
            guard index > 0 else {
                facts.append(.none)
                continue
            }
            var link = afn_link()
            let found = afn_link_info(fd, index, &link)
            guard found >= 0 else { return nil }
            guard found == 1 else {
                facts.append(.none)  // the interface went away between the two questions
                continue
            }
            let name = withUnsafeBytes(of: &link.name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            facts.append(.through(InterfaceFacts(name: name, flags: link.flags, hardwareType: link.type,
                                                 deviceType: Self.deviceType(name: name, index: index))))
        }
        return facts
    }

    /// DEVTYPE from sysfs, when sysfs shows this very interface (it shows the namespace it was
    /// mounted in, which may not be ours).
    private static func deviceType(name: String, index: Int32) -> String? {
        let directory = "/sys/class/net/\(name)"
        guard let indexText = try? String(contentsOfFile: directory + "/ifindex", encoding: .utf8),
              Int32(indexText.trimmingCharacters(in: .whitespacesAndNewlines)) == index,
              let uevent = try? String(contentsOfFile: directory + "/uevent", encoding: .utf8) else { return nil }
        return uevent.split(separator: "\n").first { $0.hasPrefix("DEVTYPE=") }.map { String($0.dropFirst("DEVTYPE=".count)) }
    }
}
