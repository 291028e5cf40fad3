import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What to do with a request given what the cache holds (RFC 9111 §4 and the URLRequest cache
/// policies), for a private cache. Pure: the clock is an argument.
package enum CacheLookup: Equatable {
    /// Answer from the cache without the network; `age` goes in the served Age header.
    case useStored(HTTPCacheEntry, age: TimeInterval)
    /// Ask the origin with these conditional headers; a 304 means `entry` may be used.
    case revalidate(HTTPCacheEntry, conditions: HTTPHeaders)
    /// Go to the network; `mayStore` says whether the response may then be stored.
    case fetch(mayStore: Bool)
    /// The request may only be answered from the cache, which cannot answer it.
    case unsatisfiable

    /// The decision for `request` under `policy`, with `entries` the stored variants of its URL.
    package static func decide(_ request: CacheRequestFields, policy: URLRequest.CachePolicy, entries: [HTTPCacheEntry],
                       now: Date) -> CacheLookup {
        guard request.method == "GET" else { return .fetch(mayStore: false) }
        let requestCacheControl = request.value(for: "Cache-Control")
        let requestControl = CacheControl(requestCacheControl)
        let mayStore = !requestControl.noStore
        // The newest matching variant (the first of equally new ones), found without copying entries.
        var newest: Int?
        for index in entries.indices where matchesVary(entries[index], request: request) {
            if newest.map({ entries[$0].responseDate < entries[index].responseDate }) ?? true { newest = index }
        }
        let entry = newest.map { entries[$0] }

        switch policy {
        case .reloadIgnoringLocalCacheData, .reloadIgnoringLocalAndRemoteCacheData:
            return .fetch(mayStore: mayStore)
        case .returnCacheDataElseLoad:
            return entry.map { .useStored($0, age: CacheFreshness.age(of: $0, now: now)) } ?? .fetch(mayStore: mayStore)
        case .returnCacheDataDontLoad:
            return entry.map { .useStored($0, age: CacheFreshness.age(of: $0, now: now)) } ?? .unsatisfiable
        case .reloadRevalidatingCacheData:
            guard let entry else { return .fetch(mayStore: mayStore) }
            return revalidation(of: entry) ?? .fetch(mayStore: mayStore)
        default:
            break
        }

        guard let entry, !requestControl.noStore else {
            return requestControl.onlyIfCached ? .unsatisfiable : .fetch(mayStore: mayStore)
        }
        let responseControl = entry.parsed.control
        let pragmaNoCache = requestCacheControl == nil
            && request.value(for: "Pragma")?.lowercased().contains("no-cache") == true
        let age = CacheFreshness.age(of: entry, now: now)
        if !(requestControl.noCache || pragmaNoCache || responseControl.noCache) {
            let lifetime = CacheFreshness.lifetime(of: entry)
            if isAcceptable(age: age, lifetime: lifetime, request: requestControl, response: responseControl) {
                return .useStored(entry, age: age)
            }
        }
        if requestControl.onlyIfCached { return .unsatisfiable }
        return revalidation(of: entry) ?? .fetch(mayStore: mayStore)
    }

    /// Whether a response of `age` and `lifetime` may be used without asking the origin.
    private static func isAcceptable(age: TimeInterval, lifetime: TimeInterval, request: CacheControl,
                                     response: CacheControl) -> Bool {
        if let maxAge = request.maxAge, age > maxAge { return false }
        if let minFresh = request.minFresh, lifetime - age < minFresh { return false }
        if age < lifetime { return true }
        // Stale: only when the request accepts that much staleness and the response allows it.
        guard let maxStale = request.maxStale, !response.mustRevalidate else { return false }
        return age - lifetime <= maxStale
    }

    /// A conditional request for `entry`, when it has a validator.
    private static func revalidation(of entry: HTTPCacheEntry) -> CacheLookup? {
        var conditions = HTTPHeaders()
        if let etag = entry.headers.value(for: "ETag") { conditions.add(name: "If-None-Match", value: etag) }
        if let lastModified = entry.headers.value(for: "Last-Modified") {
            conditions.add(name: "If-Modified-Since", value: lastModified)
        }
        return conditions.isEmpty ? nil : .revalidate(entry, conditions: conditions)
    }

    /// Whether `entry` was stored for a request with the same values of the fields its Vary names.
    package static func matchesVary(_ entry: HTTPCacheEntry, request: CacheRequestFields) -> Bool {
        let names = entry.parsed.varyNames
        if names.contains("*") { return false }
        return names.allSatisfy { name in
            normalized(request.value(for: name)) == normalized(entry.varyingRequestHeaders[name])
        }
    }

    /// The lower-cased field names a response's Vary lists.
    package static func varyNames(_ headers: HTTPHeaders) -> [String] {
        guard let vary = headers.value(for: "Vary") else { return [] }
        return vary.split(separator: ",").map { $0.trimmingASCIISpaces().lowercased() }.filter { !$0.isEmpty }
    }

    private static func normalized(_ value: String?) -> String? {
        value.map { $0.split(separator: ",").map { $0.trimmingASCIISpaces() }.joined(separator: ",") }
    }
}
