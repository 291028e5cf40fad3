import AFCore
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Gets and refreshes `OAuth2Credential`s at a token endpoint (RFC 6749): refreshes with the
/// refresh_token grant when the credential has a refresh token, else with client_credentials;
/// fetches a first credential with client_credentials. When the endpoint refuses a refresh token
/// for good (`invalid_grant`: revoked, expired, or forgotten by a restarted server), it starts
/// over with client_credentials if it has a client secret; without one, the credential is dead:
/// `didReject` hears it. Applies the token as `Authorization: Bearer`. Use it in an
/// `AuthenticationInterceptor`.
public final class OAuth2Authenticator: CredentialFetchingAuthenticator, @unchecked Sendable {
    /// How the client proves who it is to the token endpoint (RFC 6749 §2.3.1).
    public enum ClientAuthentication: Sendable {
        /// HTTP Basic with the client id and secret (what servers must support).
        case basic
        /// `client_id` and `client_secret` in the form body.
        case body
    }

    private let tokenEndpoint: URL
    private let clientID: String
    private let clientSecret: String?
    private let scope: String?
    private let clientAuthentication: ClientAuthentication
    private let tokenSession: Session
    private let didRefresh: (@Sendable (OAuth2Credential) -> Void)?
    private let didReject: (@Sendable (OAuth2Error) -> Void)?

    /// Creates an authenticator for `tokenEndpoint`. `tokenSession` sends the token requests (by
    /// default a Session of its own, so they never pass through the interceptor they serve);
    /// `didRefresh` gets each new credential before requests use it, to persist it; `didReject`
    /// gets the endpoint's `invalid_grant` when a refresh token was refused and no client secret
    /// could replace it, so that a stored credential that will never work again is dropped.
    public init(tokenEndpoint: URL, clientID: String, clientSecret: String? = nil, scope: String? = nil,
                clientAuthentication: ClientAuthentication = .basic, tokenSession: Session? = nil,
                didRefresh: (@Sendable (OAuth2Credential) -> Void)? = nil,
                didReject: (@Sendable (OAuth2Error) -> Void)? = nil) {
        self.tokenEndpoint = tokenEndpoint
        self.clientID = clientID
        self.clientSecret = clientSecret
        self.scope = scope
        self.clientAuthentication = clientAuthentication
        self.tokenSession = tokenSession ?? Session(configuration: URLSessionConfiguration.af.default)
        self.didRefresh = didRefresh
        self.didReject = didReject
    }

    public func apply(_ credential: OAuth2Credential, to urlRequest: inout URLRequest) {
        urlRequest.headers.update(.authorization(bearerToken: credential.accessToken))
    }

    public func refresh(_ credential: OAuth2Credential, for session: Session,
                        completion: @escaping @Sendable (Result<OAuth2Credential, any Error>) -> Void) {
        guard let refreshToken = credential.refreshToken else {
            return fetch(previous: credential, completion: completion)
        }
        requestToken(["grant_type": "refresh_token", "refresh_token": refreshToken], previous: credential) { result in
            guard case let .failure(error as OAuth2Error) = result, error.code == .invalidGrant else {
                return self.deliver(result, completion: completion)
            }
            guard self.clientSecret != nil else {
                self.didReject?(error)
                return completion(result)
            }
            // The refresh token is dead; the client's own credentials are not.
            var fresh = credential
            fresh.refreshToken = nil
            self.fetch(previous: fresh, completion: completion)
        }
    }

    public func fetchCredential(for session: Session,
                                completion: @escaping @Sendable (Result<OAuth2Credential, any Error>) -> Void) {
        fetch(previous: OAuth2Credential(accessToken: ""), completion: completion)
    }

    /// A new credential with the client_credentials grant, if the client has a secret.
    private func fetch(previous: OAuth2Credential, completion: @escaping @Sendable (Result<OAuth2Credential, any Error>) -> Void) {
        guard clientSecret != nil else {
            return completion(.failure(OAuth2Error(code: .noGrant, errorDescription:
                "the credential has no refresh token and the client no secret")))
        }
        requestToken(["grant_type": "client_credentials"], previous: previous) { self.deliver($0, completion: completion) }
    }

    /// Tells `didRefresh` about a new credential, then `completion`.
    private func deliver(_ result: Result<OAuth2Credential, any Error>,
                         completion: @escaping @Sendable (Result<OAuth2Credential, any Error>) -> Void) {
        if case let .success(credential) = result { didRefresh?(credential) }
        completion(result)
    }

    /// Posts `grant` (with the scope and the client's authentication) to the token endpoint.
    private func requestToken(_ grant: [String: String], previous: OAuth2Credential,
                              completion: @escaping @Sendable (Result<OAuth2Credential, any Error>) -> Void) {
        var form = grant
        if let scope = scope ?? previous.scope { form["scope"] = scope }
        var headers: HTTPHeaders = [.accept("application/json")]
        switch clientAuthentication {
        case .basic:
            headers.add(.authorization(username: Self.formEncoded(clientID), password: Self.formEncoded(clientSecret ?? "")))
        case .body:
            form["client_id"] = clientID
            if let clientSecret { form["client_secret"] = clientSecret }
        }
        tokenSession.request(tokenEndpoint, method: .post, parameters: form, encoder: URLEncodedFormParameterEncoder.default,
                             headers: headers)
            .responseData(queue: .global(), emptyResponseCodes: []) { response in
                completion(Self.credential(from: response, previous: previous))
            }
    }

    public func didRequest(_ urlRequest: URLRequest, with response: HTTPURLResponse,
                           failDueToAuthenticationError error: any Error) -> Bool {
        response.statusCode == 401
    }

    public func isRequest(_ urlRequest: URLRequest, authenticatedWith credential: OAuth2Credential) -> Bool {
        urlRequest.headers["Authorization"] == HTTPHeader.authorization(bearerToken: credential.accessToken).value
    }

    /// The credential in a token response, or the endpoint's error.
    static func credential(from response: AFDataResponse<Data>, previous: OAuth2Credential)
        -> Result<OAuth2Credential, any Error> {
        let status = response.response?.statusCode
        guard let data = response.data, let status else {
            return .failure(response.error ?? OAuth2Error(code: .invalidResponse, errorDescription: "no answer"))
        }
        let fields = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any]
        guard (200..<300).contains(status) else {
            guard let code = fields?["error"] as? String else {
                return .failure(OAuth2Error(code: .invalidResponse, errorDescription: "HTTP \(status) without an OAuth error",
                                            statusCode: status))
            }
            return .failure(OAuth2Error(code: OAuth2Error.Code(rawValue: code),
                                        errorDescription: fields?["error_description"] as? String,
                                        errorURI: fields?["error_uri"] as? String, statusCode: status))
        }
        guard let fields, let token = fields["access_token"] as? String, let type = fields["token_type"] as? String else {
            return .failure(OAuth2Error(code: .invalidResponse, errorDescription: "no access_token or token_type",
                                        statusCode: status))
        }
        let lifetime = (fields["expires_in"] as? NSNumber)?.doubleValue
            ?? (fields["expires_in"] as? String).flatMap(Double.init)
        return .success(OAuth2Credential(
            accessToken: token, tokenType: type,
            // A server that sends no new refresh token keeps the old one valid (RFC 6749 §6).
            refreshToken: fields["refresh_token"] as? String ?? previous.refreshToken,
            expiration: lifetime.map { Date().addingTimeInterval($0) },
            scope: fields["scope"] as? String ?? previous.scope,
            refreshLeeway: previous.refreshLeeway))
    }

    /// Client ids and secrets are form-encoded before Basic encoding (RFC 6749 §2.3.1).
    private static func formEncoded(_ text: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text
    }
}
