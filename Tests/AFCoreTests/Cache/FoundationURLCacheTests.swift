import AFCore
import AFTestSupport
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

/// A Foundation `URLCache` set as the configuration's `urlCache` is used as URLSession uses it.
@Suite(.timeLimit(.minutes(1))) struct FoundationURLCacheTests {
    private func session(_ cache: URLCache, handler: (any CachedResponseHandler)? = nil) -> Session {
        let configuration = URLSessionConfiguration.af.default
        configuration.urlCache = cache
        return makeSession(configuration: configuration, cachedResponseHandler: handler)
    }

    private func memoryCache() -> URLCache {
        URLCache(memoryCapacity: 1 << 20, diskCapacity: 0, diskPath: nil)
    }

    @Test func aFreshStoredResponseAnswersTheNextRequest() async throws {
        let cache = memoryCache()
        let session = session(cache)
        let url = Server.httpbin("/response-headers?Cache-Control=max-age%3D3600")
        let first = await session.request(url).serializingData().response
        #expect(first.metrics?.transactionMetrics.last?.resourceFetchType == .networkLoad)
        let stored = cache.cachedResponse(for: URLRequest(url: URL(string: url)!))
        #expect(stored?.data == first.data)
        #expect((stored?.response as? HTTPURLResponse)?.statusCode == 200)

        let second = await session.request(url).serializingData().response
        #expect(second.metrics?.transactionMetrics.last?.resourceFetchType == .localCache)
        #expect(second.data == first.data)
    }

    @Test func aStaleResponseIsFetchedAgain() async throws {
        let cache = memoryCache()
        let session = session(cache)
        let url = Server.httpbin("/response-headers?Cache-Control=max-age%3D0")
        _ = await session.request(url).serializingData().response
        #expect(cache.cachedResponse(for: URLRequest(url: URL(string: url)!)) != nil)
        let second = await session.request(url).serializingData().response
        #expect(second.metrics?.transactionMetrics.last?.resourceFetchType == .networkLoad)
    }

    @Test func theHandlersUserInfoIsStored() async throws {
        let cache = memoryCache()
        let cacher = ResponseCacher(behavior: .modify { _, response in
            CachedURLResponse(response: response.response, data: response.data, userInfo: ["key": "value"],
                              storagePolicy: .allowed)
        })
        let session = session(cache, handler: cacher)
        let url = Server.httpbin("/get")
        _ = try await session.request(url).serializingData().value
        let stored = cache.cachedResponse(for: URLRequest(url: URL(string: url)!))
        #expect(stored?.userInfo?["key"] as? String == "value")
    }

    @Test func responsesToAuthorizedRequestsAreNotStored() async throws {
        let cache = memoryCache()
        let session = session(cache)
        let url = Server.httpbin("/response-headers?Cache-Control=max-age%3D3600")
        _ = try await session.request(url, headers: [.authorization(bearerToken: "secret")]).serializingData().value
        #expect(cache.cachedResponse(for: URLRequest(url: URL(string: url)!)) == nil)
    }

    @Test func noStoreIsNotStored() async throws {
        let cache = memoryCache()
        let session = session(cache)
        let url = Server.httpbin("/response-headers?Cache-Control=no-store")
        _ = try await session.request(url).serializingData().value
        #expect(cache.cachedResponse(for: URLRequest(url: URL(string: url)!)) == nil)
    }
}

extension FoundationURLCacheTests {
    /// Foundation's URLCache on Linux gives URLs that differ only in their query one slot; the
    /// engine keeps each of them apart.
    @Test func urlsThatDifferInTheirQueryAreKeptApart() async throws {
        let cache = memoryCache()
        let session = session(cache)
        let urls = ["a", "b"].map { Server.httpbin("/response-headers?Cache-Control=max-age%3D3600&x=\($0)") }
        var first: [Data?] = []
        for url in urls { first.append(await session.request(url).serializingData().response.data) }
        for (url, data) in zip(urls, first) {
            let again = await session.request(url).serializingData().response
            #expect(again.metrics?.transactionMetrics.last?.resourceFetchType == .localCache)
            #expect(again.data == data)
        }
    }
}
