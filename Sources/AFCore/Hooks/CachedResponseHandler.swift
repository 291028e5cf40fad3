import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Decides whether, and in what form, a response goes into the session's response cache.
public protocol CachedResponseHandler: Sendable {
    /// Calls `completion` with the response to store, a changed one, or nil to store nothing.
    /// The request waits until `completion` is called; only its first call counts.
    func dataTask(_ task: URLSessionDataTask, willCacheResponse response: CachedURLResponse,
                  completion: @escaping (CachedURLResponse?) -> Void)
}

/// A `CachedResponseHandler` with one fixed behaviour.
public struct ResponseCacher: Sendable {
    /// What to do with a response about to be cached.
    public enum Behavior: Sendable {
        /// Store it as it is.
        case cache
        /// Store nothing.
        case doNotCache
        /// Store what the closure returns (nil stores nothing).
        case modify(@Sendable (URLSessionDataTask, CachedURLResponse) -> CachedURLResponse?)
    }

    /// Stores every response.
    public static let cache = ResponseCacher(behavior: .cache)
    /// Stores nothing.
    public static let doNotCache = ResponseCacher(behavior: .doNotCache)

    /// What the cacher does with each response offered to the cache.
    public let behavior: Behavior

    /// A cacher that acts as `behavior` says.
    public init(behavior: Behavior) {
        self.behavior = behavior
    }
}

extension ResponseCacher: CachedResponseHandler {
    public func dataTask(_ task: URLSessionDataTask, willCacheResponse response: CachedURLResponse,
                         completion: @escaping (CachedURLResponse?) -> Void) {
        switch behavior {
        case .cache: completion(response)
        case .doNotCache: completion(nil)
        case let .modify(closure): completion(closure(task, response))
        }
    }
}

extension CachedResponseHandler where Self == ResponseCacher {
    /// Stores every response.
    public static var cache: ResponseCacher { .cache }
    /// Stores nothing.
    public static var doNotCache: ResponseCacher { .doNotCache }
    /// Stores what `closure` returns (nil stores nothing).
    public static func modify(using closure: @escaping @Sendable (URLSessionDataTask, CachedURLResponse) -> CachedURLResponse?) -> ResponseCacher {
        ResponseCacher(behavior: .modify(closure))
    }
}
