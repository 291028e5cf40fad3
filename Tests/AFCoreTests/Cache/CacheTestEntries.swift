@testable import AFCore
import AFTestSupport
import Foundation

/// Entries for the cache rule tables: a response stored at `stored`, with `headers`.
enum CacheTestEntries {
    static let url = URL(string: "http://example.test/a?q=1")!
    /// 2026-01-01 00:00:00 GMT.
    static let stored = Date(timeIntervalSince1970: 1_767_225_600)

    /// An entry received at `stored` (requested one second before), with a Date of `stored`
    /// unless `headers` gives one.
    static func entry(_ headers: [String: String], status: Int = 200, vary: [String: String] = [:]) -> HTTPCacheEntry {
        var all = HTTPHeaders(headers)
        if headers["Date"] == nil, headers["date"] == nil { all.add(name: "Date", value: httpDate(stored)) }
        return HTTPCacheEntry(url: url, statusCode: status, headers: all, body: Data("body".utf8),
                              varyingRequestHeaders: vary, requestDate: stored.addingTimeInterval(-1),
                              responseDate: stored)
    }

    static func request(_ headers: [String: String] = [:], method: String = "GET") -> URLRequest {
        var request = URLRequest(url: url)
        request.httpMethod = method
        headers.forEach { request.setValue($0.value, forHTTPHeaderField: $0.key) }
        return request
    }
}
