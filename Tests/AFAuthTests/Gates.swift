import AFAuth
import AFTestSupport
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// An OAuth2Authenticator whose refreshes wait at `gate` first, and are counted.
final class GatedAuthenticator: Authenticator, @unchecked Sendable {
    let inner: OAuth2Authenticator
    let gate: Gate
    private let lock = NSLock()
    private var refreshCount = 0

    init(_ inner: OAuth2Authenticator, gate: Gate) {
        self.inner = inner
        self.gate = gate
    }

    var refreshes: Int { lock.withLock { refreshCount } }

    func apply(_ credential: OAuth2Credential, to urlRequest: inout URLRequest) {
        inner.apply(credential, to: &urlRequest)
    }

    func refresh(_ credential: OAuth2Credential, for session: Session,
                 completion: @escaping @Sendable (Result<OAuth2Credential, any Error>) -> Void) {
        lock.withLock { refreshCount += 1 }
        DispatchQueue.global().async {
            self.gate.wait()
            self.inner.refresh(credential, for: session, completion: completion)
        }
    }

    func didRequest(_ urlRequest: URLRequest, with response: HTTPURLResponse, failDueToAuthenticationError error: any Error) -> Bool {
        inner.didRequest(urlRequest, with: response, failDueToAuthenticationError: error)
    }

    func isRequest(_ urlRequest: URLRequest, authenticatedWith credential: OAuth2Credential) -> Bool {
        inner.isRequest(urlRequest, authenticatedWith: credential)
    }
}

/// An OAuth2Authenticator that makes a refresh end while the retry of a request marked `late`
/// is being decided: its first refresh waits until that decision asks `isRequest`, which then
/// waits for the refresh to end (at most 20 s, should the interceptor hold a lock meanwhile).
final class RefreshEndingMidDecision: Authenticator, @unchecked Sendable {
    static let lateHeader = "X-Late-Request"
    let inner: OAuth2Authenticator
    /// Fired when the first refresh starts.
    let refreshStarted = OneShot()
    private let deciding = DispatchSemaphore(value: 0)
    private let refreshEnded = DispatchSemaphore(value: 0)
    private let lock = NSLock()
    private var refreshCount = 0
    private var lateDecisions = 0

    init(_ inner: OAuth2Authenticator) {
        self.inner = inner
    }

    var refreshes: Int { lock.withLock { refreshCount } }

    func apply(_ credential: OAuth2Credential, to urlRequest: inout URLRequest) {
        inner.apply(credential, to: &urlRequest)
    }

    func refresh(_ credential: OAuth2Credential, for session: Session,
                 completion: @escaping @Sendable (Result<OAuth2Credential, any Error>) -> Void) {
        let isFirst = lock.withLock { refreshCount += 1; return refreshCount == 1 }
        guard isFirst else { return inner.refresh(credential, for: session, completion: completion) }
        refreshStarted.fire()
        DispatchQueue.global().async {
            _ = self.deciding.wait(timeout: .now() + 20)
            self.inner.refresh(credential, for: session) { result in
                completion(result)
                self.refreshEnded.signal()
            }
        }
    }

    func didRequest(_ urlRequest: URLRequest, with response: HTTPURLResponse, failDueToAuthenticationError error: any Error) -> Bool {
        inner.didRequest(urlRequest, with: response, failDueToAuthenticationError: error)
    }

    func isRequest(_ urlRequest: URLRequest, authenticatedWith credential: OAuth2Credential) -> Bool {
        let isFirstLateDecision = urlRequest.value(forHTTPHeaderField: Self.lateHeader) != nil
            && lock.withLock { lateDecisions += 1; return lateDecisions == 1 }
        if isFirstLateDecision {
            deciding.signal()
            _ = refreshEnded.wait(timeout: .now() + 20)
        }
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
