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

/// Which exchanges may be offered to the cache at all (RFC 9111 §3, for a private cache).
enum ResponseCacheRules {
    /// Status codes cacheable by default (RFC 9110 §15.1).
    static let heuristicallyCacheable: Set<Int> = [200, 203, 204, 206, 300, 301, 308, 404, 405, 410, 414, 501]

    static func mayStore(request: URLRequest, response: HTTPURLResponse) -> Bool {
        guard request.httpMethod ?? "GET" == "GET",
              heuristicallyCacheable.contains(response.statusCode) || hasExplicitFreshness(response) else { return false }
        let directives = [request.value(forHTTPHeaderField: "Cache-Control"),
                          response.value(forHTTPHeaderField: "Cache-Control")]
            .compactMap { $0?.lowercased() }
        return !directives.contains { $0.contains("no-store") }
    }

    private static func hasExplicitFreshness(_ response: HTTPURLResponse) -> Bool {
        response.value(forHTTPHeaderField: "Expires") != nil
            || (response.value(forHTTPHeaderField: "Cache-Control")?.lowercased().contains("max-age") ?? false)
    }
}
