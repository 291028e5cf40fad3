@testable import AFCore
import Foundation
import Testing

/// Freshness lifetime and age (RFC 9111 §4.2), by tables.
struct CacheFreshnessTests {
    typealias E = CacheTestEntries

    @Test(arguments: [
        (["Cache-Control": "max-age=60"], 200, 60.0),
        (["Cache-Control": "max-age=60", "Expires": "Thu, 01 Jan 2026 01:00:00 GMT"], 200, 60),   // max-age wins
        (["Cache-Control": "s-maxage=90"], 200, 0),                                                // shared caches only
        (["Cache-Control": "MAX-AGE=\"30\""], 200, 30),
        (["Expires": "Thu, 01 Jan 2026 01:00:00 GMT"], 200, 3600),
        (["Expires": "0"], 200, 0),                                                                // invalid: stale
        (["Expires": "Wed, 31 Dec 2025 00:00:00 GMT"], 200, 0),                                    // in the past
        (["Last-Modified": "Mon, 22 Dec 2025 00:00:00 GMT"], 200, 86400),                          // 10% of 10 days
        (["Last-Modified": "Mon, 22 Dec 2025 00:00:00 GMT"], 404, 86400),
        (["Last-Modified": "Mon, 22 Dec 2025 00:00:00 GMT"], 302, 0),                              // not heuristically cacheable
        (["Last-Modified": "Mon, 22 Dec 2025 00:00:00 GMT", "Cache-Control": "public"], 302, 86400),
        ([:], 200, 0),
    ] as [([String: String], Int, TimeInterval)])
    func lifetime(headers: [String: String], status: Int, expected: TimeInterval) {
        #expect(CacheFreshness.lifetime(of: E.entry(headers, status: status)) == expected)
    }

    @Test func expiresIsMeasuredFromTheDateHeader() {
        let entry = E.entry(["Date": "Thu, 01 Jan 2026 00:30:00 GMT", "Expires": "Thu, 01 Jan 2026 01:00:00 GMT"])
        #expect(CacheFreshness.lifetime(of: entry) == 1800)
    }

    @Test(arguments: [
        // (headers, seconds after arrival, expected age)
        ([:] as [String: String], 0.0, 1.0),                          // the request took 1 s: response delay
        ([:], 100, 101),                                               // + resident time
        (["Age": "50"], 10, 61),                                       // Age + delay + resident
        (["Date": "Wed, 31 Dec 2025 23:59:00 GMT"], 0, 60),            // apparent age from a clock behind
        (["Date": "Thu, 01 Jan 2026 00:10:00 GMT"], 0, 1),             // a Date in the future counts as 0
        (["Age": "junk"], 0, 1),
    ] as [([String: String], TimeInterval, TimeInterval)])
    func age(headers: [String: String], after: TimeInterval, expected: TimeInterval) {
        #expect(CacheFreshness.age(of: E.entry(headers), now: E.stored.addingTimeInterval(after)) == expected)
    }

    /// The rules read an entry's fields parsed once: changing the fields must change what they read.
    @Test func changedFieldsAreWhatTheRulesRead() {
        var entry = E.entry(["Cache-Control": "max-age=60"])
        entry.headers.update(name: "Cache-Control", value: "max-age=5")
        entry.headers.add(name: "Age", value: "50")
        entry.headers.add(name: "Vary", value: "Accept")
        #expect(CacheFreshness.lifetime(of: entry) == 5)
        #expect(CacheFreshness.age(of: entry, now: E.stored) == 51)
        var request = URLRequest(url: entry.url)
        request.setValue("text/plain", forHTTPHeaderField: "Accept")
        #expect(!CacheLookup.matchesVary(entry, request: CacheRequestFields(request)))
        entry.headers.remove(name: "Age")
        let served = entry.servedResponse(age: 3)
        #expect(Array(served.headers).last == HTTPHeader(name: "Age", value: "3"))
        #expect(served.value(for: "Cache-Control") == "max-age=5")
    }
}
