import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A cache AF's engine stores responses in, for caches that are not a Foundation `URLCache`
/// (those are used as they are). AFCache's `SQLiteURLCache` adopts it, and so can any cache of yours.
public protocol ResponseCacheStorage: AnyObject, Sendable {
    /// Stores `cachedResponse` as the answer to `request`.
    func storeCachedResponse(_ cachedResponse: CachedURLResponse, for request: URLRequest)
}
