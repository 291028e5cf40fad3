import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Decides what happens when a response redirects: follow, follow a changed request, or stop.
public protocol RedirectHandler: Sendable {
    /// Calls `completion` with the request to send next, or nil to stop and deliver the 3xx
    /// response as the result. The request waits until `completion` is called; only its first
    /// call counts.
    func task(_ task: URLSessionTask, willBeRedirectedTo request: URLRequest, for response: HTTPURLResponse,
              completion: @escaping (URLRequest?) -> Void)
}

/// A `RedirectHandler` with one fixed behaviour.
public struct Redirector: Sendable {
    /// What to do with a redirect.
    public enum Behavior: Sendable {
        /// Follow it as AF would (method rules, credentials dropped across origins).
        case follow
        /// Stop; the 3xx response is the result.
        case doNotFollow
        /// Send what the closure returns instead (nil stops).
        case modify(@Sendable (URLSessionTask, URLRequest, HTTPURLResponse) -> URLRequest?)
    }

    /// Follows every redirect.
    public static let follow = Redirector(behavior: .follow)
    /// Follows no redirect.
    public static let doNotFollow = Redirector(behavior: .doNotFollow)

    /// What the redirector does with each redirect.
    public let behavior: Behavior

    /// A redirector that acts as `behavior` says.
    public init(behavior: Behavior) {
        self.behavior = behavior
    }
}

extension Redirector: RedirectHandler {
    public func task(_ task: URLSessionTask, willBeRedirectedTo request: URLRequest, for response: HTTPURLResponse,
                     completion: @escaping (URLRequest?) -> Void) {
        switch behavior {
        case .follow: completion(request)
        case .doNotFollow: completion(nil)
        case let .modify(closure): completion(closure(task, request, response))
        }
    }
}

extension RedirectHandler where Self == Redirector {
    /// Follows every redirect.
    public static var follow: Redirector { .follow }
    /// Follows no redirect.
    public static var doNotFollow: Redirector { .doNotFollow }
    /// Sends what `closure` returns instead (nil stops).
    public static func modify(using closure: @escaping @Sendable (URLSessionTask, URLRequest, HTTPURLResponse) -> URLRequest?) -> Redirector {
        Redirector(behavior: .modify(closure))
    }
}
