/// Which HTTP versions a `Session`'s requests may speak.
public enum HTTPVersionPolicy: Sendable, Hashable {
    /// HTTP/2 over TLS when the server agrees during the handshake (ALPN), HTTP/1.1 otherwise.
    case automatic
    /// HTTP/1.1 only, on `http` and `https` URLs alike.
    case http1Only
    /// HTTP/2 from the first byte on `http` URLs, for servers known to speak cleartext HTTP/2
    /// (h2c with prior knowledge, RFC 9113 §3.3); a server that does not fails the request.
    /// `https` URLs negotiate as with `automatic`.
    case http2PriorKnowledge
}

extension HTTPVersionPolicy {
    /// Whether requests to a URL with `scheme` start HTTP/2 without negotiating it (h2c).
    func speaksHTTP2WithoutNegotiation(scheme: String?) -> Bool {
        self == .http2PriorKnowledge && scheme?.equalsIgnoringASCIICase("http") == true
    }
}
