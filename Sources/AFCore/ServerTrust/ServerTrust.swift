import Foundation

/// The certificate chain a server presented in a TLS handshake, with OpenSSL's own verdict on
/// it: AF's counterpart of `SecTrust`, handed to the trust evaluators.
public struct ServerTrust: Sendable {
    /// The DER encodings of the chain, leaf first: the verified chain (up to the trusted root)
    /// when OpenSSL trusted it, else the chain built from the server's leaf through the
    /// certificates it sent, each one's signature verified by the next (dates and trust not
    /// checked). Certificates the server sent off that path are not included.
    public let certificateData: [Data]
    /// The host the connection is for.
    public let host: String
    /// Whether OpenSSL verified the chain against the session's CAs (`SSL_CERT_FILE`,
    /// `SSL_CERT_DIR` or the system bundle). The host name is not part of this verdict.
    public let defaultEvaluationSucceeded: Bool
    /// OpenSSL's reason when it did not verify the chain.
    public let defaultEvaluationError: String?
    /// The DER OCSP response the server stapled to the handshake for its certificate, if any.
    public let stapledOCSPResponse: Data?

    /// A chain as a handshake presented it to `host`, with OpenSSL's verdict.
    public init(certificateData: [Data], host: String, defaultEvaluationSucceeded: Bool, defaultEvaluationError: String?,
                stapledOCSPResponse: Data? = nil) {
        self.certificateData = certificateData
        self.host = host
        self.defaultEvaluationSucceeded = defaultEvaluationSucceeded
        self.defaultEvaluationError = defaultEvaluationError
        self.stapledOCSPResponse = stapledOCSPResponse
    }
}

/// Thrown by an evaluator that cannot decide before fetching something (a CRL, an OCSP answer),
/// which it must not do on the engine thread. The connection is closed before any request byte
/// is sent, `fetch` runs on a background queue, and the exchange starts once more on a new
/// connection, where the evaluator decides with what it fetched. Thrown again there, it fails the
/// request with `AFError.serverTrustEvaluationFailed(reason: .customEvaluationFailed)`.
public struct ServerTrustEvaluationPending: Error, Sendable {
    /// Fetches what the evaluator needs; may block (it runs on a background queue).
    public let fetch: @Sendable () -> Void

    /// An evaluation that can decide once `fetch` ran.
    public init(fetch: @escaping @Sendable () -> Void) {
        self.fetch = fetch
    }
}

/// Decides whether a server is trusted; throwing rejects the connection before any request
/// byte is sent. Runs on the engine thread during the handshake: it must not block (throw
/// `ServerTrustEvaluationPending` to fetch something first).
public protocol ServerTrustEvaluating: Sendable {
    /// Throws (preferably `AFError.serverTrustEvaluationFailed`) when `trust` is not acceptable.
    func evaluate(_ trust: ServerTrust, forHost host: String) throws
}
