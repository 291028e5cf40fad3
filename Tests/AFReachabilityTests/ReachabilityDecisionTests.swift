@testable import AFReachability
import Testing

/// Netlink facts to status, by table.
struct ReachabilityDecisionTests {
    static let up: UInt32 = 0x1 | 0x40 | 0x10000  // IFF_UP | IFF_RUNNING | IFF_LOWER_UP

    static func interface(_ flags: UInt32, type: UInt16 = 1, deviceType: String? = nil, name: String = "eth0") -> RouteFacts {
        .through(InterfaceFacts(name: name, flags: flags, hardwareType: type, deviceType: deviceType))
    }

    @Test(arguments: [
        ([interface(up)], NetworkReachabilityManager.NetworkReachabilityStatus.reachable(.ethernetOrWiFi)),
        ([interface(up, deviceType: "wlan")], .reachable(.ethernetOrWiFi)),
        ([interface(up, type: 772, name: "lo")], .reachable(.ethernetOrWiFi)),        // loopback
        ([interface(up, type: 512, name: "ppp0")], .reachable(.cellular)),            // ARPHRD_PPP
        ([interface(up, type: 65534, deviceType: "wwan", name: "wwan0")], .reachable(.cellular)),
        ([interface(0x1 | 0x40)], .notReachable),                                    // no carrier
        ([interface(0x40 | 0x10000)], .notReachable),                                // administratively down
        ([interface(0x1 | 0x10000)], .notReachable),                                 // not running (dormant)
        ([RouteFacts.none], .notReachable),
        ([], .notReachable),                                                         // nothing resolved
        ([RouteFacts.none, interface(up, type: 512)], .reachable(.cellular)),        // the IPv6 route works
        ([interface(0x1), interface(up)], .reachable(.ethernetOrWiFi)),
    ] as [([RouteFacts], NetworkReachabilityManager.NetworkReachabilityStatus)])
    func status(routes: [RouteFacts], expected: NetworkReachabilityManager.NetworkReachabilityStatus) {
        #expect(ReachabilityDecision.status(routes) == expected)
    }

    @Test func addressesParseAndAnyRouteUsesDocumentationAddresses() {
        #expect(IPAddress("10.1.2.3")?.bytes == [10, 1, 2, 3])
        #expect(IPAddress("::1")?.bytes.count == 16)
        #expect(IPAddress("example") == nil)
        #expect(Target.host("[::1]").addresses() == [IPAddress("::1")!])
        #expect(Target.anyRoute.addresses()?.count == 2)
        #expect(Target.host("name.invalid").addresses() == nil)
    }
}
