@testable import AFReachability
import Foundation
import Testing

extension InProcessMonitors {
    /// NetworkReachabilityManager in network namespaces the tests make and delete: link, carrier,
    /// address and default route changes, as the listener hears them. Serialized: they count the
    /// process's netlink sockets.
    @Suite(.serialized, .timeLimit(.minutes(1)),
           .enabled(if: NetworkNamespace.isPermitted, "needs root and `ip netns` (network namespaces); skipped here"))
    struct ReachabilityNamespaceTests {
        typealias Status = NetworkReachabilityManager.NetworkReachabilityStatus

        /// What a listener heard, and a way to wait for the next status.
        final class Heard: @unchecked Sendable {
            private let condition = NSCondition()
            private var statuses: [Status] = []

            func record(_ status: Status) {
                condition.lock()
                statuses.append(status)
                condition.broadcast()
                condition.unlock()
            }

            var all: [Status] {
                condition.lock()
                defer { condition.unlock() }
                return statuses
            }

            /// Waits up to `seconds` for the latest status to be `status`.
            func waitFor(_ status: Status, within seconds: TimeInterval) -> Bool {
                condition.lock()
                defer { condition.unlock() }
                let deadline = Date().addingTimeInterval(seconds)
                while statuses.last != status {
                    if !condition.wait(until: deadline) { return statuses.last == status }
                }
                return true
            }
        }

        /// The bound the issue sets for a change to be heard.
        static let bound: TimeInterval = 0.5

        private func listen(_ manager: NetworkReachabilityManager) -> Heard {
            let heard = Heard()
            #expect(manager.startListening(onQueue: DispatchQueue(label: "test.reachability")) { heard.record($0) })
            return heard
        }

        @Test func linkDownAndUpAndCarrierLoss() throws {
            let namespace = try NetworkNamespace()
            defer { namespace.remove() }
            let manager = try #require(namespace.enter { NetworkReachabilityManager(host: namespace.outerAddress) })
            let heard = listen(manager)
            #expect(heard.waitFor(.reachable(.ethernetOrWiFi), within: Self.bound), "the current status first")

            try namespace.inside(["link", "set", namespace.inner, "down"])
            #expect(heard.waitFor(.notReachable, within: Self.bound))
            try namespace.inside(["link", "set", namespace.inner, "up"])
            #expect(heard.waitFor(.reachable(.ethernetOrWiFi), within: Self.bound))

            // The peer goes down: the inner end loses carrier while its routes stay.
            try NetworkNamespace.run(["link", "set", namespace.outer, "down"])
            #expect(heard.waitFor(.notReachable, within: Self.bound))
            #expect(manager.status == .notReachable && !manager.isReachable)
            try NetworkNamespace.run(["link", "set", namespace.outer, "up"])
            #expect(heard.waitFor(.reachable(.ethernetOrWiFi), within: Self.bound))
            #expect(manager.isReachableOnEthernetOrWiFi && !manager.isReachableOnCellular)
            manager.stopListening()
        }

        @Test func addressRemovedAndRestored() throws {
            let namespace = try NetworkNamespace()
            defer { namespace.remove() }
            let manager = try #require(namespace.enter { NetworkReachabilityManager(host: namespace.outerAddress) })
            let heard = listen(manager)
            #expect(heard.waitFor(.reachable(.ethernetOrWiFi), within: Self.bound))
            try namespace.inside(["addr", "del", "\(namespace.innerAddress)/29", "dev", namespace.inner])
            #expect(heard.waitFor(.notReachable, within: Self.bound))
            try namespace.inside(["addr", "add", "\(namespace.innerAddress)/29", "dev", namespace.inner])
            #expect(heard.waitFor(.reachable(.ethernetOrWiFi), within: Self.bound))
            manager.stopListening()
        }

        @Test func defaultRouteRemovedAndRestored() throws {
            let namespace = try NetworkNamespace()
            defer { namespace.remove() }
            // A host beyond the link, and "any route": both need the default route.
            let beyond = try #require(namespace.enter { NetworkReachabilityManager(host: "192.0.2.10") })
            let any = try #require(namespace.enter { NetworkReachabilityManager() })
            let heardBeyond = listen(beyond), heardAny = listen(any)
            #expect(heardBeyond.waitFor(.reachable(.ethernetOrWiFi), within: Self.bound))
            #expect(heardAny.waitFor(.reachable(.ethernetOrWiFi), within: Self.bound))
            try namespace.inside(["route", "del", "default"])
            #expect(heardBeyond.waitFor(.notReachable, within: Self.bound))
            #expect(heardAny.waitFor(.notReachable, within: Self.bound))
            try namespace.inside(["route", "add", "default", "via", namespace.outerAddress])
            #expect(heardBeyond.waitFor(.reachable(.ethernetOrWiFi), within: Self.bound))
            #expect(heardAny.waitFor(.reachable(.ethernetOrWiFi), within: Self.bound))
            beyond.stopListening()
            any.stopListening()
        }

        @Test func nothingIsHeardAfterStopListeningAndNothingIsLeftBehind() throws {
            let namespace = try NetworkNamespace()
            defer { namespace.remove() }
            let stopped = try #require(namespace.enter { NetworkReachabilityManager(host: namespace.outerAddress) })
            let witness = try #require(namespace.enter { NetworkReachabilityManager(host: namespace.outerAddress) })
            let heardStopped = listen(stopped), heardWitness = listen(witness)
            #expect(heardStopped.waitFor(.reachable(.ethernetOrWiFi), within: Self.bound))
            #expect(heardWitness.waitFor(.reachable(.ethernetOrWiFi), within: Self.bound))
            // The threads themselves, by kernel id: a count by name would also take in threads
            // they started (Dispatch's workers), which inherit the name and idle on.
            let stoppedThread = try #require(stopped.monitorThreadID)
            let witnessThread = try #require(witness.monitorThreadID)
            #expect(NetworkNamespace.isMonitorThread(stoppedThread))
            #expect(NetworkNamespace.isMonitorThread(witnessThread))
            #expect(namespace.ourNetlinkSockets() == 2)

            stopped.stopListening()
            #expect(NetworkNamespace.threadEnds(stoppedThread, within: Self.bound))
            #expect(NetworkNamespace.isMonitorThread(witnessThread))
            #expect(namespace.ourNetlinkSockets() == 1)
            let before = heardStopped.all.count
            try namespace.inside(["link", "set", namespace.inner, "down"])
            // The witness hears the change; the stopped manager, debounced alike, would have by then.
            #expect(heardWitness.waitFor(.notReachable, within: Self.bound))
            witness.stopListening()
            #expect(heardStopped.all.count == before)
            #expect(NetworkNamespace.threadEnds(witnessThread, within: Self.bound))
            #expect(stopped.monitorThreadID == nil && witness.monitorThreadID == nil)
            #expect(namespace.ourNetlinkSockets() == 0)
        }
    }
}
