import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What a private cache may store, how a stored response is updated by a 304, and which
/// exchanges invalidate what (RFC 9111 §3, §4.3.4, §4.4). Pure.
package enum CacheStoreRules {
    /// Fields that describe one connection, never stored (RFC 9110 §7.6.1).
    static let hopByHop: Set<String> = ["connection", "keep-alive", "proxy-connection", "te", "transfer-encoding",
                                        "upgrade", "trailer", "proxy-authenticate", "proxy-authorization"]
    /// Fields that hand state to one client, never replayed from the cache: a stored Set-Cookie
    /// would set one user's cookies for whoever is served the entry next.
    static let clientState: Set<String> = ["set-cookie", "set-cookie2"]

    /// Whether the response to `request` may be stored at all.
    package static func mayStore(request: URLRequest, statusCode: Int, headers: HTTPHeaders) -> Bool {
        guard (request.httpMethod ?? "GET").uppercased() == "GET", request.value(forHTTPHeaderField: "Range") == nil,
              statusCode != 206 else { return false }
        let requestControl = CacheControl(request.value(forHTTPHeaderField: "Cache-Control"))
        let responseControl = CacheControl(headers.value(for: "Cache-Control"))
        guard !requestControl.noStore, !responseControl.noStore else { return false }
        if CacheLookup.varyNames(headers).contains("*") { return false }
        return CacheFreshness.heuristicallyCacheable.contains(statusCode) || responseControl.maxAge != nil
            || headers.value(for: "Expires") != nil || responseControl.isPublic || responseControl.isPrivate
    }

    /// `headers` without hop-by-hop fields, those the Connection field names, and Set-Cookie.
    package static func storable(_ headers: HTTPHeaders) -> HTTPHeaders {
        let named = Set((headers.value(for: "Connection") ?? "").split(separator: ",")
            .map { $0.trimmingASCIISpaces().lowercased() })
        return HTTPHeaders(headers.filter { header in
            let name = header.name.lowercased()
            return !hopByHop.contains(name) && !clientState.contains(name) && !named.contains(name)
        })
    }

    /// The entry to store for `request`'s response.
    package static func entry(for request: CacheRequestFields, url: URL, statusCode: Int, headers: HTTPHeaders, body: Data,
                      requestDate: Date, responseDate: Date) -> HTTPCacheEntry {
        let stored = storable(headers)
        var varying: [String: String] = [:]
        for name in CacheLookup.varyNames(stored) {
            if let value = request.value(for: name) { varying[name] = value }
        }
        return HTTPCacheEntry(url: url, statusCode: statusCode, headers: stored, body: body,
                              varyingRequestHeaders: varying, requestDate: requestDate, responseDate: responseDate)
    }

    /// `entry` updated by a 304's header fields (RFC 9111 §3.2): each replaces the stored one of
    /// its name, except hop-by-hop fields, Content-Length and Content-Encoding, which describe the
    /// stored body.
    static func refreshed(_ entry: HTTPCacheEntry, by notModified: HTTPHeaders, requestDate: Date,
                          responseDate: Date) -> HTTPCacheEntry {
        var updated = entry
        let kept: Set<String> = ["content-length", "content-encoding"]
        // Changed apart and set once: the entry parses its fields again on each change.
        var headers = entry.headers
        for header in storable(notModified) where !kept.contains(header.name.lowercased()) {
            headers.update(header)
        }
        updated.headers = headers
        updated.requestDate = requestDate
        updated.responseDate = responseDate
        return updated
    }

    /// The Age field value to serve a stored response with when it is `age` seconds old
    /// (§4.2.3): whole seconds, 2147483648 (2^31) for anything larger or not a number (§5.1).
    /// Date is left as the origin sent it.
    static func servedAge(_ age: TimeInterval) -> String {
        let limit: TimeInterval = 2_147_483_648
        guard age.isFinite, age < limit else { return "2147483648" }
        return String(Int(max(0, age).rounded(.down)))
    }

    /// Whether a response to `method` with `statusCode` invalidates what the cache holds for the
    /// URL (and same-origin Location / Content-Location): an unsafe method that did not fail.
    static func invalidates(method: String, statusCode: Int) -> Bool {
        !["GET", "HEAD", "OPTIONS", "TRACE"].contains(method.uppercased()) && (200..<400).contains(statusCode)
    }
}
