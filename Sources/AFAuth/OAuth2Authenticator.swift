import AFCore
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Refreshes `OAuth2Credential`s at a token endpoint (RFC 6749): with the refresh_token grant
/// when the credential has a refresh token, else with client_credentials. Applies the token as
/// `Authorization: Bearer`. Use it in an `AuthenticationInterceptor`.
public final class OAuth2Authenticator: Authenticator, @unchecked Sendable {
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

    /// Creates an authenticator for `tokenEndpoint`. `tokenSession` sends the token requests (by
    /// default a Session of its own, so they never pass through the interceptor they serve);
    /// `didRefresh` gets each new credential before requests use it, to persist it.
    public init(tokenEndpoint: URL, clientID: String, clientSecret: String? = nil, scope: String? = nil,
                clientAuthentication: ClientAuthentication = .basic, tokenSession: Session? = nil,
                didRefresh: (@Sendable (OAuth2Credential) -> Void)? = nil) {
        self.tokenEndpoint = tokenEndpoint
        self.clientID = clientID
        self.clientSecret = clientSecret
        self.scope = scope
        self.clientAuthentication = clientAuthentication
        self.tokenSession = tokenSession ?? Session(configuration: URLSessionConfiguration.af.default)
        self.didRefresh = didRefresh
    }

    public func apply(_ credential: OAuth2Credential, to urlRequest: inout URLRequest) {
        urlRequest.headers.update(.authorization(bearerToken: credential.accessToken))
    }

    public func refresh(_ credential: OAuth2Credential, for session: Session,
                        completion: @escaping @Sendable (Result<OAuth2Credential, any Error>) -> Void) {
        var form: [String: String]
        if let refreshToken = credential.refreshToken {
            form = ["grant_type": "refresh_token", "refresh_token": refreshToken]
        } else if clientSecret != nil {
            form = ["grant_type": "client_credentials"]
        } else {
            return completion(.failure(OAuth2Error(code: .noGrant, errorDescription:
                "the credential has no refresh token and the client no secret")))
        }
        if let scope = scope ?? credential.scope { form["scope"] = scope }
        var headers: HTTPHeaders = [.accept("application/json")]
        switch clientAuthentication {
        case .basic:
            headers.add(.authorization(username: Self.formEncoded(clientID), password: Self.formEncoded(clientSecret ?? "")))
        case .body:
            form["client_id"] = clientID
            if let clientSecret { form["client_secret"] = clientSecret }
        }
        let previous = credential
        tokenSession.request(tokenEndpoint, method: .post, parameters: form, encoder: URLEncodedFormParameterEncoder.default,
                             headers: headers)
            .responseData(queue: .global(), emptyResponseCodes: []) { [didRefresh] response in
                let result = Self.credential(from: response, previous: previous)
                if case let .success(credential) = result { didRefresh?(credential) }
                completion(result)
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
