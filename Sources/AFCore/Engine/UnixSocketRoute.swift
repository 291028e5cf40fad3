import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Requests to a local service over a Unix domain socket. Two ways, as with AsyncHTTPClient:
/// `http+unix://` and `https+unix://` URLs carry the socket's path, percent-encoded, as their host
/// (`http+unix://%2Fvar%2Frun%2Fdocker.sock/v1.41/info`), and a Session whose configuration names
/// a socket (`configuration.af.unixSocketPath`) sends its `http`/`https` requests there. On the
/// wire such a request goes to host `localhost` with the URL's path and query.
enum UnixSocketRoute {
    /// The key of `connectionProxyDictionary` that holds a Session's socket path.
    static let configurationKey = "AFUnixSocketPath"

    /// The host a socket URL's request is sent to, and the one its TLS verifies.
    static let wireHost = "localhost"

    /// Whether `scheme` is one of the socket schemes.
    static func isSocketScheme(_ scheme: String?) -> Bool {
        guard let scheme else { return false }
        return scheme.equalsIgnoringASCIICase("http+unix") || scheme.equalsIgnoringASCIICase("https+unix")
    }

    /// The host whose certificate a request to `url` verifies: an `https` URL's host, and
    /// `wireHost` for an `https+unix` URL (its host is the socket's path); nil without TLS.
    static func verifiedHost(for url: URL?) -> String? {
        guard let scheme = url?.scheme else { return nil }
        if scheme.equalsIgnoringASCIICase("https") { return url?.host }
        return scheme.equalsIgnoringASCIICase("https+unix") ? wireHost : nil
    }

    /// Where a request to `url` goes: the socket's path, the URL curl is given and its scheme;
    /// nil for a URL that names no socket and when the Session has none.
    /// `scheme`: `url`'s, as the caller read it (reading it again costs as much as the rest).
    static func route(for url: URL?, scheme: String?,
                      sessionSocket: String?) -> (socketPath: String, wireURL: String, wireScheme: String)? {
        // Every request passes here: scheme names are compared in place, nothing is allocated.
        guard let url, let scheme else { return nil }
        if isSocketScheme(scheme) {
            guard let socketPath = url.host, !socketPath.isEmpty,
                  var components = URLComponents(url: url, resolvingAgainstBaseURL: true) else { return nil }
            let wireScheme = scheme.equalsIgnoringASCIICase("https+unix") ? "https" : "http"
            components.scheme = wireScheme
            components.percentEncodedHost = wireHost
            components.port = nil
            if components.percentEncodedPath.isEmpty { components.percentEncodedPath = "/" }
            return components.string.map { (socketPath, $0, wireScheme) }
        }
        guard let sessionSocket, scheme.equalsIgnoringASCIICase("http") || scheme.equalsIgnoringASCIICase("https") else { return nil }
        return (sessionSocket, url.absoluteString, scheme)
    }
}

extension AlamofireExtension where ExtendedType: URLSessionConfiguration {
    /// The Unix domain socket every `http`/`https` request of a Session made with this
    /// configuration is sent to (nil: none, the default). `http+unix://` URLs name their own.
    public var unixSocketPath: String? {
        get { type.connectionProxyDictionary?[UnixSocketRoute.configurationKey] as? String }
        nonmutating set {
            var dictionary = type.connectionProxyDictionary ?? [:]
            dictionary[UnixSocketRoute.configurationKey] = newValue
            type.connectionProxyDictionary = dictionary
        }
    }
}
