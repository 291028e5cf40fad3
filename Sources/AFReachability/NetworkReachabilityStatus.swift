extension NetworkReachabilityManager {
    /// Whether the target can be reached, and through what kind of interface.
    public enum NetworkReachabilityStatus: Equatable, Sendable {
        /// Not known yet (or the kernel could not be asked).
        case unknown
        /// No route leaves through an interface that is up with carrier.
        case notReachable
        /// A route leaves through an interface that is up with carrier, of this kind.
        case reachable(ConnectionType)

        /// The kind of interface a reachable route leaves through.
        public enum ConnectionType: Equatable, Sendable {
            /// Wired or wireless LAN (and loopback).
            case ethernetOrWiFi
            /// Mobile broadband (wwan) or a point-to-point link (ppp).
            case cellular
        }
    }
}
