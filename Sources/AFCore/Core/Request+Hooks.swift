import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// Per-request additions to the session's hooks. Set them before the request starts; they apply
// to the attempts that start after the call.
extension Request {
    /// This request's redirect handler; it takes priority over the session's.
    public var redirectHandler: (any RedirectHandler)? { mutableState.withLock { $0.redirectHandler } }
    /// This request's cached response handler; it takes priority over the session's.
    public var cachedResponseHandler: (any CachedResponseHandler)? { mutableState.withLock { $0.cachedResponseHandler } }
    /// The credential answering Basic and Digest challenges of the request's origin.
    public var credential: URLCredential? { mutableState.withLock { $0.credential } }

    /// Answers Basic and Digest challenges with `username` and `password`. They are sent only
    /// to the origin of the request, never after a redirect to another one; a wrong credential
    /// ends the exchange with the server's 401.
    @discardableResult
    public func authenticate(username: String, password: String,
                             persistence: URLCredential.Persistence = .forSession) -> Self {
        authenticate(with: URLCredential(user: username, password: password, persistence: persistence))
    }

    /// Answers Basic and Digest challenges with `credential` (user and password).
    @discardableResult
    public func authenticate(with credential: URLCredential) -> Self {
        mutableState.withLock { $0.credential = credential }
        return self
    }

    /// Decides this request's redirects with `handler`; a later call replaces an earlier one.
    @discardableResult
    public func redirect(using handler: any RedirectHandler) -> Self {
        mutableState.withLock { $0.redirectHandler = handler }
        return self
    }

    /// Decides this request's caching with `handler`; a later call replaces an earlier one.
    @discardableResult
    public func cacheResponse(using handler: any CachedResponseHandler) -> Self {
        mutableState.withLock { $0.cachedResponseHandler = handler }
        return self
    }

    /// Adds `interceptor` after the session's and the request's own.
    @discardableResult
    public func interceptor(_ interceptor: any RequestInterceptor) -> Self {
        mutableState.withLock { state in
            state.adapters.append(interceptor)
            state.retriers.append(interceptor)
        }
        return self
    }

    /// Adds `adapter` after the session's and the request's own.
    @discardableResult
    public func adapt(using adapter: any RequestAdapter) -> Self {
        mutableState.withLock { $0.adapters.append(adapter) }
        return self
    }

    /// Adds `retrier` after the session's and the request's own.
    @discardableResult
    public func retry(using retrier: any RequestRetrier) -> Self {
        mutableState.withLock { $0.retriers.append(retrier) }
        return self
    }

    /// Adds `monitor` for this request's events (engine events go to the session's monitors only).
    @discardableResult
    public func eventMonitor(_ monitor: any EventMonitor) -> Self {
        mutableState.withLock { state in
            state.eventMonitors.append(monitor)
            ownMonitorsAdded.store(true, ordering: .releasing)
        }
        return self
    }
}
