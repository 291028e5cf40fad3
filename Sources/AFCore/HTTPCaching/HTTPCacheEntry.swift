import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A response as AF's HTTP cache keeps it: what an `HTTPCacheStorage` stores and returns.
public struct HTTPCacheEntry: Sendable, Equatable {
    /// The request's URL, query included: with the method (GET), the cache key.
    public var url: URL
    /// The response's status code.
    public var statusCode: Int
    /// The response's header fields, without hop-by-hop ones.
    public var headers: HTTPHeaders {
        didSet { parsed = StoredResponseFields(headers) }
    }
    /// The response's body, decoded as the client received it.
    public var body: Data
    /// The request's values of the header fields the response's `Vary` names, by lower-cased
    /// name; a field the request did not have is absent.
    public var varyingRequestHeaders: [String: String]
    /// When the request was sent and when its response arrived (RFC 9111 §4.2.3).
    public var requestDate: Date
    /// When the response arrived (RFC 9111 §4.2.3).
    public var responseDate: Date
    /// What the cache rules read from `headers`, parsed.
    private(set) var parsed: StoredResponseFields
    /// Bytes the parsed fields hold beyond `headers` (the served head's buffer).
    package var parsedSize: Int { parsed.headWithoutAge?.storageSize ?? 0 }

    /// An entry with every field given.
    public init(url: URL, statusCode: Int, headers: HTTPHeaders, body: Data, varyingRequestHeaders: [String: String],
                requestDate: Date, responseDate: Date) {
        self.url = url
        self.statusCode = statusCode
        self.headers = headers
        self.body = body
        self.varyingRequestHeaders = varyingRequestHeaders
        self.requestDate = requestDate
        self.responseDate = responseDate
        parsed = StoredResponseFields(headers)
    }

    /// Equal when every field is (what is parsed from them follows).
    public static func == (lhs: Self, rhs: Self) -> Bool {
        (lhs.url, lhs.statusCode, lhs.headers, lhs.body) == (rhs.url, rhs.statusCode, rhs.headers, rhs.body)
            && (lhs.varyingRequestHeaders, lhs.requestDate, lhs.responseDate)
            == (rhs.varyingRequestHeaders, rhs.requestDate, rhs.responseDate)
    }
}

/// A cache AF's engine consults before sending a request and fills after, with the semantics of
/// a private HTTP cache (RFC 9111): freshness, validation, Vary, invalidation. Entries are kept
/// apart by the credentials of the request they answered: a lookup sees only the entries stored
/// for the same credentials (anonymous requests only anonymous ones). AFCache's `SQLiteURLCache`
/// adopts it; AF uses any other `URLCache` set as `configuration.urlCache` through it as well.
public protocol HTTPCacheStorage: ResponseCacheStorage {
    /// Every variant for `url` (query included) stored for requests with `credentials`.
    func cachedEntries(for url: URL, credentials: CacheCredentials) -> [HTTPCacheEntry]
    /// Stores `entry` for requests with `credentials`, replacing the variant of its URL with the
    /// same credentials and varying request headers.
    func storeEntry(_ entry: HTTPCacheEntry, credentials: CacheCredentials)
    /// Removes every variant for `url`, whatever the credentials.
    func removeEntries(for url: URL)
}

extension HTTPCacheStorage {
    /// The variants for `url` stored for requests without credentials.
    public func cachedEntries(for url: URL) -> [HTTPCacheEntry] {
        cachedEntries(for: url, credentials: .anonymous)
    }

    /// Stores `entry` for requests without credentials.
    public func storeEntry(_ entry: HTTPCacheEntry) {
        storeEntry(entry, credentials: .anonymous)
    }
}
