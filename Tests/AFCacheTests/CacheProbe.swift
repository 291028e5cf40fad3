import AFCache
import AFTestSupport
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

/// A Session whose configuration caches in a fresh SQLite file, and requests through it.
final class CacheProbe: @unchecked Sendable {
    let scratch = SQLiteURLCacheTests.Scratch()
    let cache: SQLiteURLCache
    let session: Session

    /// A probe on a new file, or on `file` when given.
    init(policy: URLRequest.CachePolicy = .useProtocolCachePolicy,
         cachedResponseHandler: (any CachedResponseHandler)? = nil, file: URL? = nil,
         onFailure: (@Sendable (SQLiteURLCache.Failure) -> Void)? = nil,
         configure: (URLSessionConfiguration) -> Void = { _ in }) throws {
        cache = try SQLiteURLCache(fileURL: file ?? scratch.file)
        cache.onFailure = onFailure
        let configuration = URLSessionConfiguration.af.default
        configuration.urlCache = cache
        configuration.requestCachePolicy = policy
        configure(configuration)
        session = makeSession(configuration: configuration, cachedResponseHandler: cachedResponseHandler)
    }

    struct Answer {
        var status: Int?
        var body: String
        var headers: [String: String]
        var fetchType: TransactionMetrics.ResourceFetchType?
        var error: AFError?

        /// The fault server's counter in a /cacheable body.
        var served: Int? {
            (try? JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any])?["served"] as? Int
        }
    }

    func get(_ url: String, headers: HTTPHeaders = [:], method: HTTPMethod = .get,
             policy: URLRequest.CachePolicy? = nil) async -> Answer {
        let response = await session.request(url, method: method, headers: headers) { request in
            if let policy { request.cachePolicy = policy }
        }.serializingString(emptyResponseCodes: [200, 204, 205]).response
        return Answer(status: response.response?.statusCode, body: response.value ?? "",
                      headers: (response.response?.headers.dictionary) ?? [:],
                      fetchType: response.metrics?.transactionMetrics.last?.resourceFetchType, error: response.error)
    }

    /// How many requests the fault server's /cacheable/KEY received.
    func count(_ key: String) async -> Int {
        Int(await session.request(Server.faults("/count/\(key)")).serializingString().response.value ?? "") ?? -1
    }

    /// `/cacheable/KEY` answering with `fields` (name:value) and the given validators.
    static func url(_ key: String, _ fields: [String], etag: String? = nil, lastModified: String? = nil,
                    extra: String = "") -> String {
        var query = fields.map { "h=" + ($0.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? $0) }
        if let etag { query.append("etag=" + (etag.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? etag)) }
        if let lastModified {
            query.append("last-modified=" + (lastModified.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""))
        }
        if !extra.isEmpty { query.append(extra) }
        return Server.faults("/cacheable/\(key)?" + query.joined(separator: "&"))
    }
}
