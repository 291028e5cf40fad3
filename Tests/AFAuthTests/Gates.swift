import AFAuth
import AFTestSupport
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// An OAuth2Authenticator whose refreshes wait at `gate` first, and are counted. `beforeDeciding`
/// runs before each `isRequest` answer (a test may hold a retry decision there).
final class GatedAuthenticator: Authenticator, @unchecked Sendable {
    let inner: OAuth2Authenticator
    let gate: Gate
    /// Fired when a refresh starts.
    let refreshStarted = OneShot()
    /// Opens once a refresh has ended (its completion returned).
    let refreshEnded = Gate(opensAfter: 1)
    private let beforeDeciding: @Sendable (GatedAuthenticator, URLRequest) -> Void
    private let lock = NSLock()
    private var refreshCount = 0

    init(_ inner: OAuth2Authenticator, gate: Gate,
         beforeDeciding: @escaping @Sendable (GatedAuthenticator, URLRequest) -> Void = { _, _ in }) {
        self.inner = inner
        self.gate = gate
        self.beforeDeciding = beforeDeciding
    }

    var refreshes: Int { lock.withLock { refreshCount } }

    func apply(_ credential: OAuth2Credential, to urlRequest: inout URLRequest) {
        inner.apply(credential, to: &urlRequest)
    }

    func refresh(_ credential: OAuth2Credential, for session: Session,
                 completion: @escaping @Sendable (Result<OAuth2Credential, any Error>) -> Void) {
        lock.withLock { refreshCount += 1 }
        refreshStarted.fire()
        DispatchQueue.global().async {
            self.gate.wait()
            self.inner.refresh(credential, for: session) { result in
                completion(result)
                self.refreshEnded.arrive()
            }
        }
    }

    func didRequest(_ urlRequest: URLRequest, with response: HTTPURLResponse, failDueToAuthenticationError error: any Error) -> Bool {
        inner.didRequest(urlRequest, with: response, failDueToAuthenticationError: error)
    }

    func isRequest(_ urlRequest: URLRequest, authenticatedWith credential: OAuth2Credential) -> Bool {
        beforeDeciding(self, urlRequest)
        return inner.isRequest(urlRequest, authenticatedWith: credential)
    }
}

/// An interceptor that tells `adapted` about each adaptation and `retried` about each retry
/// decision it is asked for, then lets `wrapped` decide.
struct Counting: RequestInterceptor {
    let wrapped: any RequestInterceptor
    var adapted: Gate?
    var retried: Gate?

    func adapt(_ urlRequest: URLRequest, for session: Session,
               completion: @escaping @Sendable (Result<URLRequest, any Error>) -> Void) {
        adapted?.arrive()
        wrapped.adapt(urlRequest, for: session, completion: completion)
    }

    func retry(_ request: Request, for session: Session, dueTo error: any Error,
               completion: @escaping @Sendable (RetryResult) -> Void) {
        retried?.arrive()
        wrapped.retry(request, for: session, dueTo: error, completion: completion)
    }
}

enum OAuthServer {
    static let token = URL(string: Server.faults("/oauth/token"))!

    static func resource(_ client: String) -> String { Server.faults("/oauth/resource/\(client)") }

    static func refreshes(_ client: String) async -> Int {
        let session = makeSession()
        defer { withExtendedLifetime(session) {} }
        return Int(await session.request(Server.faults("/oauth/refreshes/\(client)")).serializingString().response.value ?? "") ?? -1
    }
}
