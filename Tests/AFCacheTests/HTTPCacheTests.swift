import AFCache
import AFTestSupport
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

/// The engine caching through SQLiteURLCache against real servers: the fault server's
/// /cacheable (chosen headers, a request counter), httpbin's cache endpoints and nginx's files.
@Suite(.timeLimit(.minutes(1))) struct HTTPCacheTests {
    @Test func aFreshResponseIsServedWithoutTheNetworkWithItsAge() async throws {
        let probe = try CacheProbe(), key = uniqueKey()
        let url = CacheProbe.url(key, ["Cache-Control:max-age=600"])
        let first = await probe.get(url)
        let second = await probe.get(url)
        #expect(first.fetchType == .networkLoad && second.fetchType == .localCache)
        #expect(second.status == 200 && second.body == first.body && second.served == 1)
        #expect(second.headers["Age"] != nil && first.headers["Date"] == second.headers["Date"])
        #expect(await probe.count(key) == 1)
        #expect(await probe.get(url + "&other=1").served == 2, "the query is part of the key")
    }

    @Test func aStaleResponseIsRevalidatedByETagAndLastModified() async throws {
        let probe = try CacheProbe()
        for (etag, lastModified) in [("\"v1\"", nil), (nil, "Mon, 22 Dec 2025 00:00:00 GMT")] as [(String?, String?)] {
            let key = uniqueKey()
            let url = CacheProbe.url(key, ["Cache-Control:max-age=0"], etag: etag, lastModified: lastModified)
            let first = await probe.get(url)
            let second = await probe.get(url)
            #expect(second.fetchType == .revalidatedCache, "\(String(describing: etag ?? lastModified))")
            #expect(second.status == 200 && second.body == first.body && second.served == 1)
            #expect(await probe.count(key) == 2)
        }
    }

    @Test func noStoreIsNeverStoredAndNoCacheAlwaysRevalidates() async throws {
        let probe = try CacheProbe()
        let stored = uniqueKey(), revalidated = uniqueKey(), requested = uniqueKey()
        for _ in 0..<2 { _ = await probe.get(CacheProbe.url(stored, ["Cache-Control:no-store, max-age=600"])) }
        #expect(await probe.count(stored) == 2)
        let noCache = CacheProbe.url(revalidated, ["Cache-Control:no-cache, max-age=600"], etag: "\"n\"")
        _ = await probe.get(noCache)
        #expect(await probe.get(noCache).fetchType == .revalidatedCache)
        let fresh = CacheProbe.url(requested, ["Cache-Control:max-age=600"])
        _ = await probe.get(fresh, headers: ["Cache-Control": "no-store"])
        #expect(await probe.get(fresh).served == 2, "a no-store request stores nothing")
    }

    @Test func requestDirectivesTightenOrLoosenFreshness() async throws {
        let probe = try CacheProbe(), key = uniqueKey()
        let url = CacheProbe.url(key, ["Cache-Control:max-age=600"], etag: "\"d\"")
        _ = await probe.get(url)
        #expect(await probe.get(url, headers: ["Cache-Control": "no-cache"]).fetchType == .revalidatedCache)
        #expect(await probe.get(url, headers: ["Cache-Control": "max-age=0"]).fetchType == .revalidatedCache)
        #expect(await probe.get(url, headers: ["Cache-Control": "min-fresh=1000"]).fetchType == .revalidatedCache)
        #expect(await probe.get(url, headers: ["Cache-Control": "min-fresh=10"]).fetchType == .localCache)
        #expect(await probe.get(url, headers: ["Pragma": "no-cache"]).fetchType == .revalidatedCache)

        let stale = CacheProbe.url(uniqueKey(), ["Cache-Control:max-age=0"])  // no validator
        _ = await probe.get(stale)
        #expect(await probe.get(stale, headers: ["Cache-Control": "max-stale"]).fetchType == .localCache)
        let strict = CacheProbe.url(uniqueKey(), ["Cache-Control:max-age=0, must-revalidate"], etag: "\"m\"")
        _ = await probe.get(strict)
        #expect(await probe.get(strict, headers: ["Cache-Control": "max-stale"]).fetchType == .revalidatedCache)
    }

    @Test func onlyIfCachedNeverTouchesTheNetwork() async throws {
        let probe = try CacheProbe(), key = uniqueKey()
        let url = CacheProbe.url(key, ["Cache-Control:max-age=600"])
        let missing = await probe.get(url, headers: ["Cache-Control": "only-if-cached"])
        #expect(missing.error?.underlyingError.flatMap { $0 as? URLError }?.code == .resourceUnavailable)
        _ = await probe.get(url)
        #expect(await probe.get(url, headers: ["Cache-Control": "only-if-cached"]).fetchType == .localCache)
        #expect(await probe.count(key) == 1)
    }

    @Test func invalidExpiresMeansStaleAndHeuristicFreshnessUsesLastModified() async throws {
        let probe = try CacheProbe()
        let expires = CacheProbe.url(uniqueKey(), ["Expires:0"], etag: "\"e\"")
        _ = await probe.get(expires)
        #expect(await probe.get(expires).fetchType == .revalidatedCache)
        // Last-Modified ten days before Date: a day of heuristic freshness.
        let old = httpDate(Date().addingTimeInterval(-10 * 86400))
        let heuristic = CacheProbe.url(uniqueKey(), [], lastModified: old)
        _ = await probe.get(heuristic)
        #expect(await probe.get(heuristic).fetchType == .localCache)
    }

    @Test func varyKeepsOneVariantPerLanguageAndStarIsNeverReused() async throws {
        let probe = try CacheProbe(), key = uniqueKey()
        let url = CacheProbe.url(key, ["Cache-Control:max-age=600", "Vary:Accept-Language"])
        let french = await probe.get(url, headers: ["Accept-Language": "fr"])
        let english = await probe.get(url, headers: ["Accept-Language": "en"])
        #expect(french.served == 1 && english.served == 2)
        #expect(await probe.get(url, headers: ["Accept-Language": "fr"]).body == french.body)
        #expect(await probe.get(url, headers: ["Accept-Language": "en"]).body == english.body)
        #expect(await probe.count(key) == 2)

        let star = CacheProbe.url(uniqueKey(), ["Cache-Control:max-age=600", "Vary:*"])
        _ = await probe.get(star)
        #expect(await probe.get(star).served == 2)
    }

    @Test func varyMatchesTheFieldsAsSentConfigurationHeadersIncluded() async throws {
        let probe = try CacheProbe(configure: { $0.httpAdditionalHeaders = ["Accept-Language": "fr", "X-Tier": "gold"] })
        let key = uniqueKey()
        let url = CacheProbe.url(key, ["Cache-Control:max-age=600", "Vary:accept-language, x-tier"])
        let french = await probe.get(url)
        #expect(french.served == 1)
        #expect(await probe.get(url).fetchType == .localCache, "the configuration's fields were sent both times")
        #expect(await probe.get(url, headers: ["Accept-Language": "fr"]).fetchType == .localCache)
        #expect(await probe.get(url, headers: ["Accept-Language": "en"]).served == 2, "the request's own field wins")
        #expect(await probe.get(url, headers: ["x-tier": "silver"]).served == 3)
        #expect(await probe.count(key) == 3)
    }

    @Test func policiesFromTheRequestAndTheConfiguration() async throws {
        let probe = try CacheProbe(), key = uniqueKey()
        let url = CacheProbe.url(key, ["Cache-Control:max-age=0"], etag: "\"p\"")
        #expect(await probe.get(url, policy: .returnCacheDataDontLoad).error != nil, "nothing stored yet")
        _ = await probe.get(url)
        #expect(await probe.get(url, policy: .returnCacheDataElseLoad).fetchType == .localCache, "stale but allowed")
        #expect(await probe.get(url, policy: .returnCacheDataDontLoad).fetchType == .localCache)
        #expect(await probe.get(url, policy: .reloadIgnoringLocalCacheData).fetchType == .networkLoad)
        #expect(await probe.get(url, policy: .reloadRevalidatingCacheData).fetchType == .revalidatedCache)
        #expect(await probe.count(key) == 3)

        let configured = try CacheProbe(policy: .returnCacheDataElseLoad)
        _ = await configured.get(url)
        #expect(await configured.get(url).fetchType == .localCache)
    }

    /// A stored Age past any integer (`1e19`, which parses as a number) makes the response
    /// stale, and serving it anyway says Age 2147483648 (RFC 9111 §5.1) instead of failing.
    @Test func aHugeStoredAgeIsServedAsTwoToTheThirtyFirst() async throws {
        let probe = try CacheProbe(), key = uniqueKey()
        let url = CacheProbe.url(key, ["Cache-Control:max-age=600", "Age:1e19"])
        _ = await probe.get(url)
        let served = await probe.get(url, policy: .returnCacheDataElseLoad)
        #expect(served.fetchType == .localCache && served.status == 200)
        #expect(served.headers["Age"] == "2147483648")
        #expect(await probe.get(url).served == 2, "stale: fetched again")
    }

    @Test func anUnsafeMethodInvalidatesTheURL() async throws {
        let probe = try CacheProbe(), key = uniqueKey()
        let url = CacheProbe.url(key, ["Cache-Control:max-age=600"])
        _ = await probe.get(url)
        #expect(await probe.get(url).fetchType == .localCache)
        #expect(await probe.get(url, method: .post).status == 200)
        #expect(await probe.get(url).fetchType == .networkLoad)
    }

    @Test func theCachedResponseHandlerDecides() async throws {
        let refusing = try CacheProbe(cachedResponseHandler: ResponseCacher.doNotCache)
        let url = CacheProbe.url(uniqueKey(), ["Cache-Control:max-age=600"])
        _ = await refusing.get(url)
        #expect(await refusing.get(url).fetchType == .networkLoad)
    }

    @Test func httpbinsCacheEndpoints() async throws {
        let probe = try CacheProbe()
        _ = await probe.get(Server.httpbin("/cache/600"))
        #expect(await probe.get(Server.httpbin("/cache/600")).fetchType == .localCache)
        _ = await probe.get(Server.httpbin("/cache"))  // Last-Modified and ETag: revalidated, httpbin says 304
        #expect(await probe.get(Server.httpbin("/cache")).fetchType == .revalidatedCache)
        _ = await probe.get(Server.httpbin("/etag/abc"))
        let etag = await probe.get(Server.httpbin("/etag/abc"))
        #expect(etag.fetchType == .revalidatedCache && etag.status == 200)
        let headers = Server.httpbin("/response-headers?Cache-Control=max-age%3D600")
        _ = await probe.get(headers)
        #expect(await probe.get(headers).fetchType == .localCache)
    }

    @Test func nginxFilesRevalidateWith304() async throws {
        let probe = try CacheProbe()
        let first = await probe.get(Server.http("/static/small.json"))
        let second = await probe.get(Server.http("/static/small.json"), headers: ["Cache-Control": "no-cache"])
        #expect(second.fetchType == .revalidatedCache && second.body == first.body && second.status == 200)
    }
}
