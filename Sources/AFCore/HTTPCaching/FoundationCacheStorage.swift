import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A Foundation `URLCache` set as a configuration's `urlCache`, used with the semantics of a
/// private HTTP cache (RFC 9111) as URLSession uses it: the engine answers from it, revalidates
/// through it and stores into it, and the app reads it with `cachedResponse(for:)`.
///
/// A `URLCache` keeps one response per URL and no notion of credentials, so only requests
/// without credentials use it: a response to an authorized request is never stored where a
/// request without those credentials could be served it. AFCache's `SQLiteURLCache` partitions
/// by credentials and keeps every `Vary` variant.
///
/// Foundation's `URLCache` on Linux keys a response by host, port and path only: `/a?x=1` and
/// `/a?x=2` (and `http` and `https`) share one slot. The engine therefore stores and looks up each
/// response under a key of its own that names the whole URL, and stores it under its request as
/// well, for the app's own `cachedResponse(for:)` (which returns the last response stored for the
/// path). A memory or disk capacity is shared by both copies.
final class FoundationCacheStorage: HTTPCacheStorage, @unchecked Sendable {
    /// The wrapped cache; `URLCache` is thread-safe.
    let cache: URLCache

    init(_ cache: URLCache) {
        self.cache = cache
    }

    /// The cache a configuration's `urlCache` gives AF's engine: the cache itself when it is an
    /// AF storage, a wrapper around any other `URLCache`, and none for Foundation's process-wide
    /// `URLCache.shared`, which every default configuration carries: on Linux it writes each
    /// stored response to disk before returning (milliseconds per response), which a daemon
    /// should not pay, nor find its responses under `~/.cache`, without asking for it.
    static func storage(for cache: URLCache?) -> (any ResponseCacheStorage)? {
        guard let cache else { return nil }
        if let storage = cache as? any ResponseCacheStorage { return storage }
        if cache === URLCache.shared { return nil }
        return FoundationCacheStorage(cache)
    }

    /// The keys AF adds to a stored response's `userInfo`, beside the app's own.
    private enum Key {
        static let requestDate = "AFCacheRequestDate"
        static let responseDate = "AFCacheResponseDate"
        static let varying = "AFCacheVaryingRequestHeaders"
    }

    func cachedEntries(for url: URL, credentials: CacheCredentials) -> [HTTPCacheEntry] {
        guard credentials.isAnonymous, let key = Self.key(for: url), let stored = cache.cachedResponse(for: key),
              let response = stored.response as? HTTPURLResponse, response.url == url else { return [] }
        let info = stored.userInfo ?? [:]
        // A response stored by someone else carries no dates of AF's: its Date field stands in.
        let dated = response.value(forHTTPHeaderField: "Date").flatMap(HTTPDate.parse) ?? .distantPast
        let requestDate = (info[Key.requestDate] as? Double).map(Date.init(timeIntervalSince1970:)) ?? dated
        let responseDate = (info[Key.responseDate] as? Double).map(Date.init(timeIntervalSince1970:)) ?? dated
        return [HTTPCacheEntry(url: url, statusCode: response.statusCode, headers: response.headers, body: stored.data,
                               varyingRequestHeaders: info[Key.varying] as? [String: String] ?? [:],
                               requestDate: requestDate, responseDate: responseDate)]
    }

    func storeEntry(_ entry: HTTPCacheEntry, credentials: CacheCredentials) {
        store(entry, credentials: credentials, userInfo: nil)
    }

    /// Stores `entry` with the app's `userInfo` (a cached-response handler's choice) kept.
    func store(_ entry: HTTPCacheEntry, credentials: CacheCredentials, userInfo: [AnyHashable: Any]?) {
        guard credentials.isAnonymous else { return }
        var fields: [String: String] = [:]
        for header in entry.headers {
            fields[header.name] = fields[header.name].map { "\($0), \(header.value)" } ?? header.value
        }
        guard let response = HTTPURLResponse(url: entry.url, statusCode: entry.statusCode, httpVersion: "HTTP/1.1",
                                             headerFields: fields) else { return }
        var info = userInfo ?? [:]
        info[Key.requestDate] = entry.requestDate.timeIntervalSince1970
        info[Key.responseDate] = entry.responseDate.timeIntervalSince1970
        info[Key.varying] = entry.varyingRequestHeaders
        guard let key = Self.key(for: entry.url) else { return }
        let stored = CachedURLResponse(response: response, data: entry.body, userInfo: info, storagePolicy: .allowed)
        cache.storeCachedResponse(stored, for: key)
        cache.storeCachedResponse(stored, for: URLRequest(url: entry.url))
    }

    func removeEntries(for url: URL) {
        if let key = Self.key(for: url) { cache.removeCachedResponse(for: key) }
        cache.removeCachedResponse(for: URLRequest(url: url))
    }

    /// The request `url`'s response is kept under: same scheme, host and port, and a path that
    /// is the whole URL percent-encoded, so no two URLs share it.
    private static func key(for url: URL) -> URLRequest? {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: true),
              let whole = url.absoluteString.addingPercentEncoding(withAllowedCharacters: .alphanumerics) else { return nil }
        components.user = nil
        components.password = nil
        components.query = nil
        components.fragment = nil
        components.percentEncodedPath = "/" + whole
        return components.url.map { URLRequest(url: $0) }
    }

    func storeCachedResponse(_ cachedResponse: CachedURLResponse, for request: URLRequest) {
        cache.storeCachedResponse(cachedResponse, for: request)
    }
}
