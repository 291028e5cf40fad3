import Foundation

/// An OAuth 2.0 access token with what is needed to renew it (RFC 6749 §5.1). Codable, so a
/// daemon can keep it on disk between runs.
public struct OAuth2Credential: AuthenticationCredential, Codable, Equatable {
    /// The token sent in the `Authorization` header.
    public var accessToken: String
    /// The token type the server gave (`Bearer`).
    public var tokenType: String
    /// For the refresh_token grant; nil when the server issued none (client credentials).
    public var refreshToken: String?
    /// When the access token expires (from `expires_in`); nil when the server did not say.
    public var expiration: Date?
    /// The scope the server granted, when it said.
    public var scope: String?
    /// How long before `expiration` the credential counts as requiring refresh.
    public var refreshLeeway: TimeInterval

    /// A credential as a token endpoint issued it.
    public init(accessToken: String, tokenType: String = "Bearer", refreshToken: String? = nil,
                expiration: Date? = nil, scope: String? = nil, refreshLeeway: TimeInterval = 60) {
        self.accessToken = accessToken
        self.tokenType = tokenType
        self.refreshToken = refreshToken
        self.expiration = expiration
        self.scope = scope
        self.refreshLeeway = refreshLeeway
    }

    /// True from `refreshLeeway` seconds before expiration on.
    public var requiresRefresh: Bool {
        guard let expiration else { return false }
        return Date() >= expiration.addingTimeInterval(-refreshLeeway)
    }
}
