import Foundation

/// What a session works out once for a URL its requests go to, and keeps for the next request to
/// it (see `KnownURLCache`): its scheme, the Unix domain socket route it takes, the URL curl is
/// given, whether that URL may go on the wire, what it leads to, and curl's parse of it.
final class KnownURL: Sendable {
    /// The request URL's scheme, as Foundation reads it.
    let scheme: String?
    /// Where the request goes when a Unix domain socket carries it (see `UnixSocketRoute`).
    let socketRoute: (socketPath: String, wireURL: String, wireScheme: String)?
    /// The URL handed to curl.
    let wireURL: String
    /// Whether `wireURL` has no byte that would change the request line (see `WireRules`).
    let isClean: Bool
    let target: URLTarget
    /// `wireURL` parsed by curl; nil when curl refuses it (curl then reports why).
    let parsed: ParsedURL?

    /// `sessionSocket`: the socket a Session sends its `http`/`https` requests to, if any.
    init(_ url: URL?, sessionSocket: String?) {
        // Read once: each read of a URL's scheme parses it again.
        let scheme = url?.scheme
        let socketRoute = UnixSocketRoute.route(for: url, scheme: scheme, sessionSocket: sessionSocket)
        let wireURL = socketRoute?.wireURL ?? url?.absoluteString ?? ""
        self.scheme = scheme
        self.socketRoute = socketRoute
        self.wireURL = wireURL
        isClean = WireRules.isCleanURL(wireURL)
        target = socketRoute == nil ? URLTarget(scheme: scheme, url: wireURL) : .http
        parsed = ParsedURL(wireURL)
    }
}
