import Foundation

/// How long a stored response stays fresh and how old it is (RFC 9111 §4.2), for a private cache.
/// Pure: the clock is an argument.
enum CacheFreshness {
    /// Status codes a cache may reuse with a heuristic lifetime (RFC 9110 §15.1).
    static let heuristicallyCacheable: Set<Int> = [200, 203, 204, 206, 300, 301, 308, 404, 405, 410, 414, 501]

    /// Heuristic freshness is this fraction of the time since Last-Modified (the usual 10%).
    static let heuristicFraction = 0.1

    /// The freshness lifetime: max-age, else Expires minus Date (an invalid Expires means
    /// already stale), else a heuristic from Last-Modified for heuristically cacheable codes.
    static func lifetime(of entry: HTTPCacheEntry) -> TimeInterval {
        let fields = entry.parsed
        if let maxAge = fields.control.maxAge { return maxAge }
        let date = dateValue(of: entry)
        switch fields.expires {
        case .invalid: return 0
        case let .at(expiry): return max(0, expiry.timeIntervalSince(date))
        case .absent: break
        }
        if heuristicallyCacheable.contains(entry.statusCode) || fields.control.isPublic, let lastModified = fields.lastModified {
            return max(0, date.timeIntervalSince(lastModified) * heuristicFraction)
        }
        return 0
    }

    /// The current age (RFC 9111 §4.2.3) at `now`.
    static func age(of entry: HTTPCacheEntry, now: Date) -> TimeInterval {
        let apparentAge = max(0, entry.responseDate.timeIntervalSince(dateValue(of: entry)))
        let ageValue = entry.parsed.ageValue
        let responseDelay = max(0, entry.responseDate.timeIntervalSince(entry.requestDate))
        let correctedInitialAge = max(apparentAge, ageValue + responseDelay)
        let residentTime = max(0, now.timeIntervalSince(entry.responseDate))
        return correctedInitialAge + residentTime
    }

    /// The response's Date, or when it arrived if it has none (or an invalid one).
    static func dateValue(of entry: HTTPCacheEntry) -> Date {
        entry.parsed.date ?? entry.responseDate
    }
}
