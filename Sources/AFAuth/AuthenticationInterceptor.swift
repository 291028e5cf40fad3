import AFCore
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Authenticates requests with one credential, refreshing it when it requires refresh or when a
/// request fails because of it: one refresh at a time, requests arriving meanwhile wait for it,
/// and a request refused with an outdated credential is retried with the new one. Without a
/// credential, one is fetched first when the authenticator can
/// (`CredentialFetchingAuthenticator`, as `OAuth2Authenticator`).
public final class AuthenticationInterceptor<AuthenticatorType: Authenticator>: RequestInterceptor, @unchecked Sendable {
    /// The credential the authenticator applies and refreshes.
    public typealias Credential = AuthenticatorType.Credential

    /// At most `maximumAttempts` refreshes within `interval` seconds; one more fails with
    /// `AuthenticationError.excessiveRefresh`.
    public struct RefreshWindow: Sendable {
        /// The window's length, in seconds.
        public let interval: TimeInterval
        /// Refreshes allowed within the window.
        public let maximumAttempts: Int

        /// A window of `maximumAttempts` refreshes per `interval` seconds.
        public init(interval: TimeInterval = 30.0, maximumAttempts: Int = 5) {
            self.interval = interval
            self.maximumAttempts = maximumAttempts
        }
    }

    /// A request waiting for the refresh before it is adapted.
    private struct PendingAdaptation {
        let urlRequest: URLRequest
        let completion: @Sendable (Result<URLRequest, any Error>) -> Void
    }

    private struct State {
        var credential: Credential? {
            didSet { credentialVersion += 1 }
        }
        /// Counts the credential's changes, so a retry decided outside the lock can tell.
        var credentialVersion = 0
        var isRefreshing = false
        var refreshTimestamps: [TimeInterval] = []
        var refreshWindow: RefreshWindow?
        var pendingAdaptations: [PendingAdaptation] = []
        var pendingRetries: [@Sendable (RetryResult) -> Void] = []
    }

    /// What to do once the lock is released.
    private enum Step {
        case none
        /// Refresh this credential; fetch a first one when nil.
        case refresh(Credential?)
        case fail(any Error, [PendingAdaptation], [@Sendable (RetryResult) -> Void])
    }

    /// What `adapt` does once the lock is released.
    private enum AdaptDecision {
        case apply(Credential)
        case missing
        case wait(Step)
    }

    /// Applies and refreshes the credential.
    public let authenticator: AuthenticatorType
    private let state: Protected<State>
    private let queue = DispatchQueue(label: "org.alamofire.authentication.inspector")

    /// The credential applied to requests; readable and settable from any thread.
    public var credential: Credential? {
        get { state.withLock { $0.credential } }
        set { state.withLock { $0.credential = newValue } }
    }

    /// Creates an interceptor. Without a credential, the first request fetches one when the
    /// authenticator can (`CredentialFetchingAuthenticator`); otherwise requests fail with
    /// `AuthenticationError.missingCredential` until one is set. A nil `refreshWindow` never
    /// counts refreshes (fetches included).
    public init(authenticator: AuthenticatorType, credential: Credential? = nil,
                refreshWindow: RefreshWindow? = RefreshWindow()) {
        self.authenticator = authenticator
        state = Protected(State(credential: credential, refreshWindow: refreshWindow))
    }

    // MARK: Adapting

    public func adapt(_ urlRequest: URLRequest, for session: Session,
                      completion: @escaping @Sendable (Result<URLRequest, any Error>) -> Void) {
        let fetches = authenticator is any CredentialFetchingAuthenticator
        let decision = state.withLock { state -> AdaptDecision in
            guard let credential = state.credential else {
                guard fetches else { return .missing }
                state.pendingAdaptations.append(PendingAdaptation(urlRequest: urlRequest, completion: completion))
                return .wait(startRefresh(of: nil, in: &state))
            }
            guard credential.requiresRefresh else { return .apply(credential) }
            state.pendingAdaptations.append(PendingAdaptation(urlRequest: urlRequest, completion: completion))
            return .wait(startRefresh(of: credential, in: &state))
        }
        switch decision {
        case let .apply(credential):
            var adapted = urlRequest
            authenticator.apply(credential, to: &adapted)
            completion(.success(adapted))
        case .missing:
            completion(.failure(AuthenticationError.missingCredential))
        case let .wait(step):
            perform(step, for: session)
        }
    }

    // MARK: Retrying

    public func retry(_ request: Request, for session: Session, dueTo error: any Error,
                      completion: @escaping @Sendable (RetryResult) -> Void) {
        // Only a request that reached the server, and failed because of its credential.
        guard let urlRequest = request.request, let response = request.response,
              authenticator.didRequest(urlRequest, with: response, failDueToAuthenticationError: error) else {
            return completion(.doNotRetry)
        }
        // The credential as of now, and which version of it: a refresh (or a new credential set)
        // may end while the authenticator looks at the request, outside the lock.
        guard let (credential, version) = state.withLock({ state in state.credential.map { ($0, state.credentialVersion) } }) else {
            return completion(.doNotRetryWithError(AuthenticationError.missingCredential))
        }
        // Sent with an older credential: the current one may well work.
        guard authenticator.isRequest(urlRequest, authenticatedWith: credential) else { return completion(.retry) }
        let step = state.withLock { state -> Step? in
            // Replaced meanwhile: the request was refused with a credential that is no longer
            // current, so it is retried with the new one rather than refreshing that.
            guard state.credentialVersion == version else { return nil }
            state.pendingRetries.append(completion)
            return startRefresh(of: credential, in: &state)
        }
        guard let step else { return completion(.retry) }
        perform(step, for: session)
    }

    // MARK: Refreshing

    /// Under the lock: starts a refresh unless one is running or too many ran recently.
    private func startRefresh(of credential: Credential?, in state: inout State) -> Step {
        guard !state.isRefreshing else { return .none }
        let now = ProcessInfo.processInfo.systemUptime
        if let window = state.refreshWindow {
            let recent = state.refreshTimestamps.filter { now - window.interval <= $0 }
            state.refreshTimestamps = recent
            if recent.count >= window.maximumAttempts {
                defer {
                    state.pendingAdaptations = []
                    state.pendingRetries = []
                }
                return .fail(AuthenticationError.excessiveRefresh, state.pendingAdaptations, state.pendingRetries)
            }
        }
        state.refreshTimestamps.append(now)
        state.isRefreshing = true
        return .refresh(credential)
    }

    private func perform(_ step: Step, for session: Session) {
        switch step {
        case .none:
            break
        case let .fail(error, adaptations, retries):
            finish(.failure(error), adaptations: adaptations, retries: retries, session: session)
        case let .refresh(credential?):
            queue.async {
                self.authenticator.refresh(credential, for: session) { result in self.refreshed(result, session: session) }
            }
        case .refresh(nil):
            queue.async {
                guard let fetching = self.authenticator as? any CredentialFetchingAuthenticator else {
                    return self.refreshed(.failure(AuthenticationError.missingCredential), session: session)
                }
                Self.fetch(with: fetching, for: session) { result in self.refreshed(result, session: session) }
            }
        }
    }

    /// Fetches a first credential with `fetching`, which is `authenticator` (so its credential
    /// is of this interceptor's type).
    private static func fetch<Fetching: CredentialFetchingAuthenticator>(
        with fetching: Fetching, for session: Session,
        completion: @escaping @Sendable (Result<Credential, any Error>) -> Void) {
        fetching.fetchCredential(for: session) { result in
            completion(result.flatMap { fetched in
                (fetched as? Credential).map { .success($0) } ?? .failure(AuthenticationError.missingCredential)
            })
        }
    }

    private func refreshed(_ result: Result<Credential, any Error>, session: Session) {
        let (adaptations, retries) = state.withLock { state in
            defer {
                state.pendingAdaptations = []
                state.pendingRetries = []
            }
            state.isRefreshing = false
            if case let .success(credential) = result { state.credential = credential }
            return (state.pendingAdaptations, state.pendingRetries)
        }
        finish(result, adaptations: adaptations, retries: retries, session: session)
    }

    /// Lets the waiting requests go: adapted again (with the new credential, unless it too
    /// requires refresh) and retried, or failed.
    private func finish(_ result: Result<Credential, any Error>, adaptations: [PendingAdaptation],
                        retries: [@Sendable (RetryResult) -> Void], session: Session) {
        switch result {
        case .success:
            for adaptation in adaptations {
                adapt(adaptation.urlRequest, for: session, completion: adaptation.completion)
            }
            retries.forEach { $0(.retry) }
        case let .failure(error):
            adaptations.forEach { $0.completion(.failure(error)) }
            retries.forEach { $0(.doNotRetryWithError(error)) }
        }
    }
}
