@testable import AFCore
import AFTestSupport
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

/// What may be stored, what is stored, and how a 304 refreshes it, by tables.
struct CacheStoreRulesTests {
    typealias E = CacheTestEntries

    @Test(arguments: [
        // (request headers, method, status, response headers, storable)
        ([:] as [String: String], "GET", 200, [:] as [String: String], true),
        ([:], "GET", 404, [:], true),
        ([:], "GET", 302, [:], false),                                    // not heuristically cacheable
        ([:], "GET", 302, ["Cache-Control": "max-age=60"], true),
        ([:], "GET", 307, ["Expires": "Thu, 01 Jan 2026 01:00:00 GMT"], true),
        ([:], "GET", 200, ["Cache-Control": "no-store"], false),
        (["Cache-Control": "no-store"], "GET", 200, [:], false),
        ([:], "GET", 200, ["Cache-Control": "no-cache"], true),           // stored, revalidated on use
        ([:], "GET", 200, ["Vary": "*"], false),
        ([:], "GET", 206, ["Cache-Control": "max-age=60"], false),
        (["Range": "bytes=0-1"], "GET", 200, [:], false),
        ([:], "POST", 200, ["Cache-Control": "max-age=60"], false),
    ] as [([String: String], String, Int, [String: String], Bool)])
    func mayStore(request: [String: String], method: String, status: Int, response: [String: String], storable: Bool) {
        #expect(CacheStoreRules.mayStore(request: E.request(request, method: method), statusCode: status,
                                         headers: HTTPHeaders(response)) == storable)
    }

    @Test func hopByHopAndConnectionNamedFieldsAreNotStored() {
        let headers: HTTPHeaders = ["Connection": "close, X-Secret", "Keep-Alive": "timeout=5", "X-Secret": "s",
                                    "Transfer-Encoding": "chunked", "Content-Type": "text/plain", "ETag": "\"1\""]
        let entry = CacheStoreRules.entry(for: CacheRequestFields(E.request()), url: E.url, statusCode: 200, headers: headers, body: Data(),
                                          requestDate: E.stored, responseDate: E.stored)
        #expect(entry.headers.map(\.name).sorted() == ["Content-Type", "ETag"])
    }

    @Test func theVaryingRequestHeadersAreKept() {
        let request = E.request(["Accept-Language": "fr", "Accept": "text/html", "X-Other": "o"])
        let entry = CacheStoreRules.entry(for: CacheRequestFields(request), url: E.url, statusCode: 200,
                                          headers: ["Vary": "Accept-Language, Accept-Encoding, Accept"], body: Data(),
                                          requestDate: E.stored, responseDate: E.stored)
        #expect(entry.varyingRequestHeaders == ["accept-language": "fr", "accept": "text/html"])
    }

    @Test func a304RefreshesHeadersButNotTheBodysDescription() {
        let stored = E.entry(["Content-Length": "4", "Content-Encoding": "gzip", "ETag": "\"v1\"",
                              "Cache-Control": "max-age=60", "X-Old": "kept"])
        let later = E.stored.addingTimeInterval(100)
        let refreshed = CacheStoreRules.refreshed(stored, by: ["Content-Length": "0", "Content-Encoding": "identity",
                                                               "Cache-Control": "max-age=120", "ETag": "\"v1\"",
                                                               "Date": httpDate(later), "Connection": "close"],
                                                  requestDate: later, responseDate: later)
        #expect(refreshed.headers.value(for: "Content-Length") == "4")
        #expect(refreshed.headers.value(for: "Content-Encoding") == "gzip")
        #expect(refreshed.headers.value(for: "Cache-Control") == "max-age=120")
        #expect(refreshed.headers.value(for: "Date") == httpDate(later))
        #expect(refreshed.headers.value(for: "X-Old") == "kept")
        #expect(refreshed.headers.value(for: "Connection") == nil)
        #expect(refreshed.body == stored.body)
        #expect(refreshed.responseDate == later)
    }

    @Test func servedResponsesCarryTheirAgeAndTheOriginalDate() {
        let entry = E.entry(["Cache-Control": "max-age=60"])
        let served = entry.servedResponse(age: 12.7)
        #expect(served.statusCode == entry.statusCode)
        #expect(served.value(for: "Age") == "12")
        #expect(served.value(for: "Date") == httpDate(E.stored))
        // Every stored field, in order, then the Age.
        #expect(Array(served.headers) == Array(entry.headers) + [HTTPHeader(name: "Age", value: "12")])
    }

    /// A stored Age (a response that came through another cache) is replaced where it stood, as
    /// `HTTPHeaders.update` would, whatever its spelling; later fields keep their places.
    @Test func aStoredAgeIsReplacedInPlace() {
        var entry = E.entry(["Cache-Control": "max-age=60"])
        entry.headers = ["X-First": "1", "age": "100", "X-Last": "2"]
        let served = entry.servedResponse(age: 3)
        #expect(Array(served.headers) == [HTTPHeader(name: "X-First", value: "1"), HTTPHeader(name: "Age", value: "3"),
                                          HTTPHeader(name: "X-Last", value: "2")])
        var expected = entry.headers
        expected.update(name: "Age", value: "3")
        #expect(Array(served.headers) == Array(expected))
    }

    /// An age past what an Age field may carry, or not a number (a stored `Age: 1e19` makes one),
    /// is served as 2^31 (RFC 9111 §5.1) instead of failing.
    @Test(arguments: [TimeInterval.infinity, 1e19, 2_147_483_648, .nan])
    func agesTooLargeAreServedAsTwoToTheThirtyFirst(age: TimeInterval) {
        #expect(CacheStoreRules.servedAge(age) == "2147483648")
    }

    @Test func agesAreServedInWholeSeconds() {
        #expect(CacheStoreRules.servedAge(-5) == "0")
        #expect(CacheStoreRules.servedAge(0.9) == "0")
        #expect(CacheStoreRules.servedAge(2_147_483_647.5) == "2147483647")
    }

    @Test(arguments: [("POST", 200, true), ("PUT", 204, true), ("DELETE", 302, true), ("PATCH", 500, false),
                      ("POST", 404, false), ("GET", 200, false), ("HEAD", 200, false), ("OPTIONS", 200, false)])
    func unsafeMethodsThatSucceedInvalidate(method: String, status: Int, invalidates: Bool) {
        #expect(CacheStoreRules.invalidates(method: method, statusCode: status) == invalidates)
    }
}
