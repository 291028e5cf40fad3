@testable import AFCore
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

/// The cache decision (RFC 9111 §4 and URLRequest's cache policies), by tables.
struct CacheLookupTests {
    typealias E = CacheTestEntries

    enum Outcome: String, CustomStringConvertible {
        case use, revalidate, fetch, fetchNoStore, unsatisfiable
        var description: String { rawValue }
    }

    private func outcome(_ request: URLRequest, _ entries: [HTTPCacheEntry], after seconds: TimeInterval,
                         policy: URLRequest.CachePolicy = .useProtocolCachePolicy) -> Outcome {
        switch CacheLookup.decide(CacheRequestFields(request), policy: policy, entries: entries, now: E.stored.addingTimeInterval(seconds)) {
        case .useStored: .use
        case .revalidate: .revalidate
        case .fetch(true): .fetch
        case .fetch(false): .fetchNoStore
        case .unsatisfiable: .unsatisfiable
        }
    }

    static let fresh60 = ["Cache-Control": "max-age=60", "ETag": "\"v1\""]

    @Test(arguments: [
        // (request headers, response headers, seconds after arrival, outcome)
        ([:], fresh60, 10, Outcome.use),
        ([:], fresh60, 100, .revalidate),
        ([:], ["Cache-Control": "max-age=60"], 100, .fetch),                          // stale, no validator
        ([:], ["Cache-Control": "max-age=60", "Last-Modified": "Mon, 22 Dec 2025 00:00:00 GMT"], 100, .revalidate),
        ([:], ["Cache-Control": "no-cache, max-age=600", "ETag": "\"v1\""], 10, .revalidate),
        (["Cache-Control": "no-cache"], fresh60, 10, .revalidate),
        (["Pragma": "no-cache"], fresh60, 10, .revalidate),
        (["Pragma": "no-cache", "Cache-Control": "max-stale"], fresh60, 10, .use),    // Cache-Control wins over Pragma
        (["Cache-Control": "no-store"], fresh60, 10, .fetchNoStore),
        (["Cache-Control": "max-age=5"], fresh60, 10, .revalidate),
        (["Cache-Control": "min-fresh=55"], fresh60, 10, .revalidate),
        (["Cache-Control": "min-fresh=40"], fresh60, 10, .use),
        (["Cache-Control": "max-stale"], fresh60, 1000, .use),
        (["Cache-Control": "max-stale=50"], fresh60, 100, .use),
        (["Cache-Control": "max-stale=10"], fresh60, 100, .revalidate),
        (["Cache-Control": "max-stale"], ["Cache-Control": "max-age=60, must-revalidate", "ETag": "\"v1\""], 100, .revalidate),
        (["Cache-Control": "only-if-cached"], fresh60, 10, .use),
        (["Cache-Control": "only-if-cached"], fresh60, 100, .unsatisfiable),
        (["Cache-Control": "only-if-cached, max-stale"], fresh60, 100, .use),
        ([:], ["Expires": "0", "ETag": "\"v1\""], 0, .revalidate),                     // invalid Expires: stale
    ] as [([String: String], [String: String], TimeInterval, Outcome)])
    func directives(request: [String: String], response: [String: String], after: TimeInterval, expected: Outcome) {
        #expect(outcome(E.request(request), [E.entry(response)], after: after) == expected)
    }

    @Test func anEmptyCacheFetchesOrFailsOnlyIfCached() {
        #expect(outcome(E.request(), [], after: 0) == .fetch)
        #expect(outcome(E.request(["Cache-Control": "only-if-cached"]), [], after: 0) == .unsatisfiable)
    }

    @Test(arguments: [
        // (policy, seconds after arrival, outcome with a stored entry, outcome with none)
        (URLRequest.CachePolicy.useProtocolCachePolicy, 100.0, Outcome.revalidate, Outcome.fetch),
        (.reloadIgnoringLocalCacheData, 10, .fetch, .fetch),
        (.returnCacheDataElseLoad, 100_000, .use, .fetch),
        (.returnCacheDataDontLoad, 100_000, .use, .unsatisfiable),
        (.reloadRevalidatingCacheData, 10, .revalidate, .fetch),
    ] as [(URLRequest.CachePolicy, TimeInterval, Outcome, Outcome)])
    func policies(policy: URLRequest.CachePolicy, after: TimeInterval, stored: Outcome, empty: Outcome) {
        #expect(outcome(E.request(), [E.entry(Self.fresh60)], after: after, policy: policy) == stored)
        #expect(outcome(E.request(), [], after: after, policy: policy) == empty)
    }

    @Test func onlyGETIsAnsweredFromTheCache() {
        #expect(outcome(E.request(method: "POST"), [E.entry(Self.fresh60)], after: 0) == .fetchNoStore)
        #expect(outcome(E.request(method: "HEAD"), [E.entry(Self.fresh60)], after: 0) == .fetchNoStore)
    }

    @Test func varyPicksTheMatchingVariantAndStarNeverMatches() throws {
        var english = E.entry(Self.fresh60.merging(["Vary": "Accept-Language"]) { $1 }, vary: ["accept-language": "en"])
        english.body = Data("en".utf8)
        var french = E.entry(Self.fresh60.merging(["Vary": "accept-language"]) { $1 }, vary: ["accept-language": "fr"])
        french.body = Data("fr".utf8)
        let bare = E.entry(Self.fresh60.merging(["Vary": "Accept-Language"]) { $1 })
        let entries = [english, french, bare]
        func served(_ headers: [String: String]) -> String? {
            guard case let .useStored(entry, _) = CacheLookup.decide(CacheRequestFields(E.request(headers)), policy: .useProtocolCachePolicy,
                                                                      entries: entries, now: E.stored) else { return nil }
            return String(decoding: entry.body, as: UTF8.self)
        }
        #expect(served(["Accept-Language": "fr"]) == "fr")
        #expect(served(["Accept-Language": "en"]) == "en")
        #expect(served([:]) == "body")                     // no Accept-Language matches the one stored without
        #expect(served(["Accept-Language": "de"]) == nil)
        let star = E.entry(Self.fresh60.merging(["Vary": "*"]) { $1 })
        #expect(outcome(E.request(), [star], after: 0) == .fetch)
    }

    @Test func theNewestMatchingVariantWins() {
        var older = E.entry(Self.fresh60)
        older.body = Data("old".utf8)
        var newer = E.entry(Self.fresh60)
        newer.responseDate = E.stored.addingTimeInterval(5)
        newer.body = Data("new".utf8)
        guard case let .useStored(entry, _) = CacheLookup.decide(CacheRequestFields(E.request()), policy: .useProtocolCachePolicy,
                                                                  entries: [older, newer], now: E.stored.addingTimeInterval(6)) else {
            Issue.record("expected a stored answer")
            return
        }
        #expect(entry.body == Data("new".utf8))
    }

    @Test func revalidationAsksWithBothValidators() {
        let entry = E.entry(["Cache-Control": "max-age=0", "ETag": "\"v1\"", "Last-Modified": "Mon, 22 Dec 2025 00:00:00 GMT"])
        guard case let .revalidate(_, conditions) = CacheLookup.decide(CacheRequestFields(E.request()), policy: .useProtocolCachePolicy,
                                                                        entries: [entry], now: E.stored) else {
            Issue.record("expected a revalidation")
            return
        }
        #expect(conditions.value(for: "If-None-Match") == "\"v1\"")
        #expect(conditions.value(for: "If-Modified-Since") == "Mon, 22 Dec 2025 00:00:00 GMT")
    }
}
