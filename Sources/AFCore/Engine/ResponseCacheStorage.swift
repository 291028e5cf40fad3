import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A `URLCache` that AF's engine stores responses in. Foundation's own `URLCache` is not used by
/// AF; AFCache's `SQLiteURLCache` adopts this protocol, and so can any cache of yours.
public protocol ResponseCacheStorage: AnyObject, Sendable {
    /// Stores `cachedResponse` as the answer to `request`.
    func storeCachedResponse(_ cachedResponse: CachedURLResponse, for request: URLRequest)
}
