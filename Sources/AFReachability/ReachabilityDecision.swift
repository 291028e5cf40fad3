import CNetlink

/// What the kernel said of one interface a route leaves through.
struct InterfaceFacts: Equatable {
    var name: String
    var flags: UInt32
    var hardwareType: UInt16
    /// The DEVTYPE of its sysfs uevent (`wlan`, `wwan`, ...), when known.
    var deviceType: String?
}

/// The route to one of the target's addresses.
enum RouteFacts: Equatable {
    /// No route (none, or unreachable / prohibited).
    case none
    case through(InterfaceFacts)
}

/// From netlink facts to a status. Pure.
enum ReachabilityDecision {
    typealias Status = NetworkReachabilityManager.NetworkReachabilityStatus

    /// Reachable when a route to one of the addresses leaves through an interface that is up
    /// with carrier; the first such route gives the kind. No addresses (unresolved): not reachable.
    static func status(_ routes: [RouteFacts]) -> Status {
        for case let .through(interface) in routes where isUsable(interface) {
            return .reachable(kind(of: interface))
        }
        return .notReachable
    }

    /// Administratively up, and the link has carrier (a cable, an association, a peer).
    static func isUsable(_ interface: InterfaceFacts) -> Bool {
        let required = UInt32(AFN_IFF_UP) | UInt32(AFN_IFF_RUNNING) | UInt32(AFN_IFF_LOWER_UP)
        return interface.flags & required == required
    }

    static func kind(of interface: InterfaceFacts) -> Status.ConnectionType {
        if interface.hardwareType == UInt16(AFN_ARPHRD_PPP) || interface.deviceType == "wwan" { return .cellular }
        return .ethernetOrWiFi
    }
}
