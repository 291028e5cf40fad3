import AFCore
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A credential an `Authenticator` applies to requests (a token, a key pair, ...).
public protocol AuthenticationCredential: Sendable {
    /// Whether the credential must be refreshed before it is applied again (say, it expires
    /// within the next minute).
    var requiresRefresh: Bool { get }
}

/// Applies and refreshes credentials of one kind for an `AuthenticationInterceptor`.
public protocol Authenticator: AnyObject, Sendable {
    /// The credential this authenticator works with.
    associatedtype Credential: AuthenticationCredential

    /// Puts `credential` on `urlRequest` (typically an `Authorization` header).
    func apply(_ credential: Credential, to urlRequest: inout URLRequest)

    /// Gets a new credential from `credential`, calling `completion` once with it or the error.
    /// Must not send its own request through an interceptor that uses this authenticator.
    func refresh(_ credential: Credential, for session: Session,
                 completion: @escaping @Sendable (Result<Credential, any Error>) -> Void)

    /// Whether `urlRequest` failed because its credential was refused (typically a 401).
    func didRequest(_ urlRequest: URLRequest, with response: HTTPURLResponse,
                    failDueToAuthenticationError error: any Error) -> Bool

    /// Whether `urlRequest` carries `credential` (if not, it was sent with an older one and can
    /// simply be retried with the current one).
    func isRequest(_ urlRequest: URLRequest, authenticatedWith credential: Credential) -> Bool
}

/// An authenticator that can get a first credential with none to refresh (an AF addition):
/// OAuth 2.0's client credentials grant, say. An `AuthenticationInterceptor` without a credential
/// fetches one with it before the first request, where it would otherwise fail with
/// `AuthenticationError.missingCredential`.
public protocol CredentialFetchingAuthenticator: Authenticator {
    /// Gets a new credential from nothing, calling `completion` once with it or the error.
    /// Must not send its own request through an interceptor that uses this authenticator.
    func fetchCredential(for session: Session, completion: @escaping @Sendable (Result<Credential, any Error>) -> Void)
}

/// Why an `AuthenticationInterceptor` could not authenticate a request.
public enum AuthenticationError: Error, Sendable {
    /// The interceptor has no credential.
    case missingCredential
    /// More refreshes than the refresh window allows: the server keeps refusing new credentials.
    case excessiveRefresh
}
