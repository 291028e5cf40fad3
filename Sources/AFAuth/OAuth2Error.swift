import Foundation

/// A refusal or an unusable answer from an OAuth 2.0 token endpoint.
public struct OAuth2Error: Error, Sendable, CustomStringConvertible {
    /// The `error` code of RFC 6749 §5.2 (`invalid_grant`, ...), or AF's own for answers that
    /// are not a token response.
    public struct Code: RawRepresentable, Hashable, Sendable {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }

        /// The request to the endpoint was malformed.
        public static let invalidRequest = Code(rawValue: "invalid_request")
        /// The client failed to authenticate.
        public static let invalidClient = Code(rawValue: "invalid_client")
        /// The grant (refresh token, credentials) is invalid, expired or revoked.
        public static let invalidGrant = Code(rawValue: "invalid_grant")
        /// The client may not use this grant type.
        public static let unauthorizedClient = Code(rawValue: "unauthorized_client")
        /// The server does not support this grant type.
        public static let unsupportedGrantType = Code(rawValue: "unsupported_grant_type")
        /// The requested scope is invalid or exceeds what was granted.
        public static let invalidScope = Code(rawValue: "invalid_scope")
        /// The endpoint answered something that is neither a token nor an error response.
        public static let invalidResponse = Code(rawValue: "af_invalid_response")
        /// There is nothing to refresh with: no refresh token and no client secret.
        public static let noGrant = Code(rawValue: "af_no_grant")
    }

    /// What went wrong.
    public let code: Code
    /// The server's `error_description`, or AF's explanation.
    public let errorDescription: String?
    /// The server's `error_uri`.
    public let errorURI: String?
    /// The HTTP status of the answer, when there was one.
    public let statusCode: Int?

    /// An error with the endpoint's fields.
    public init(code: Code, errorDescription: String? = nil, errorURI: String? = nil, statusCode: Int? = nil) {
        self.code = code
        self.errorDescription = errorDescription
        self.errorURI = errorURI
        self.statusCode = statusCode
    }

    public var description: String {
        var text = "OAuth 2.0 token endpoint error \(code.rawValue)"
        if let statusCode { text += " (HTTP \(statusCode))" }
        if let errorDescription { text += ": \(errorDescription)" }
        return text
    }
}
