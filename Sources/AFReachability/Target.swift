import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// What a manager watches: a host (name or address), or any route at all.
enum Target: Sendable {
    case host(String)
    case anyRoute

    /// Addresses standing for "anywhere": documentation addresses, which only a default (or
    /// covering) route reaches. Looking a route up sends nothing.
    static let anywhere: [IPAddress] = [IPAddress("198.51.100.1")!, IPAddress("2001:db8::1")!]

    /// The addresses to look routes up for; resolving a name may block (never on the netlink
    /// thread). Nil when a name does not resolve.
    func addresses() -> [IPAddress]? {
        switch self {
        case .anyRoute:
            return Self.anywhere
        case let .host(host):
            if let literal = IPAddress(host.trimmingCharacters(in: CharacterSet(charactersIn: "[]"))) { return [literal] }
            return IPAddress.resolve(host)
        }
    }
}

/// An IPv4 or IPv6 address in network byte order.
struct IPAddress: Hashable, Sendable {
    let family: Int32
    let bytes: [UInt8]

    init?(_ text: String) {
        var v4 = in_addr(), v6 = in6_addr()
        if inet_pton(AF_INET, text, &v4) == 1 {
            family = AF_INET
            bytes = withUnsafeBytes(of: &v4) { Array($0) }
        } else if inet_pton(AF_INET6, text, &v6) == 1 {
            family = AF_INET6
            bytes = withUnsafeBytes(of: &v6) { Array($0) }
        } else {
            return nil
        }
    }

    private init(family: Int32, bytes: [UInt8]) {
        self.family = family
        self.bytes = bytes
    }

    /// The host's addresses by getaddrinfo; nil when it does not resolve.
    static func resolve(_ host: String) -> [IPAddress]? {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, nil, &hints, &list) == 0, let first = list else { return nil }
        defer { freeaddrinfo(first) }
        var addresses: [IPAddress] = []
        for entry in sequence(first: first, next: { $0.pointee.ai_next }) {
            guard let address = entry.pointee.ai_addr else { continue }
            switch entry.pointee.ai_family {
            case AF_INET:
                address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { v4 in
                    var raw = v4.pointee.sin_addr
                    addresses.append(IPAddress(family: AF_INET, bytes: withUnsafeBytes(of: &raw) { Array($0) }))
                }
            case AF_INET6:
                address.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { v6 in
                    var raw = v6.pointee.sin6_addr
                    addresses.append(IPAddress(family: AF_INET6, bytes: withUnsafeBytes(of: &raw) { Array($0) }))
                }
            default:
                continue
            }
        }
        var seen = Set<IPAddress>()
        return addresses.filter { seen.insert($0).inserted }
    }
}
