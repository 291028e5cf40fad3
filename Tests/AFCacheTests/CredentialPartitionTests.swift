@testable import AFCache
import AFTestSupport
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

/// The cache keeps users apart: a response stored for one set of credentials (Authorization,
/// Proxy-Authorization, Cookie) is served only to requests with the same set, in any Session on
/// the file; anonymous requests never see authenticated entries; no Set-Cookie is replayed.
@Suite(.timeLimit(.minutes(1))) struct CredentialPartitionTests {
    private static let alice: HTTPHeaders = [.authorization(bearerToken: "ALICE-secret-token")]
    private static let bob: HTTPHeaders = [.authorization(bearerToken: "BOB-secret-token")]

    @Test(arguments: ["Cache-Control:max-age=600", "Cache-Control:private, max-age=600"])
    func aResponseForOneTokenIsServedOnlyToThatToken(cacheControl: String) async throws {
        let probe = try CacheProbe(), key = uniqueKey()
        let url = CacheProbe.url(key, [cacheControl])
        #expect(await probe.get(url, headers: Self.alice).served == 1)
        let again = await probe.get(url, headers: Self.alice)
        #expect(again.fetchType == .localCache && again.served == 1)
        #expect(await probe.get(url, headers: Self.bob).served == 2, "another token reached Alice's entry")
        #expect(await probe.get(url).served == 3, "an anonymous request reached Alice's entry")
        #expect(await probe.get(url, headers: Self.bob).fetchType == .localCache)
        #expect(await probe.get(url, headers: Self.alice).served == 1)
    }

    @Test func anAnonymousEntryIsNotServedToAnAuthenticatedRequest() async throws {
        let probe = try CacheProbe(), key = uniqueKey()
        let url = CacheProbe.url(key, ["Cache-Control:max-age=600"])
        #expect(await probe.get(url).served == 1)
        #expect(await probe.get(url, headers: Self.alice).served == 2)
        #expect(await probe.get(url).fetchType == .localCache)
    }

    @Test func cookiesAndProxyCredentialsPartitionToo() async throws {
        let probe = try CacheProbe(configure: { $0.httpCookieStorage = nil })
        let key = uniqueKey()
        let url = CacheProbe.url(key, ["Cache-Control:max-age=600"])
        #expect(await probe.get(url, headers: ["Cookie": "session=alice; theme=dark"]).served == 1)
        #expect(await probe.get(url, headers: ["Cookie": "theme=dark; session=alice"]).fetchType == .localCache,
                "the same cookies in another order are the same user")
        #expect(await probe.get(url, headers: ["Cookie": "session=bob; theme=dark"]).served == 2)
        #expect(await probe.get(url, headers: ["Proxy-Authorization": "Basic YWxpY2U6cHc="]).served == 3)
        #expect(await probe.get(url).served == 4)
    }

    @Test func anotherSessionOnTheSameFileKeepsUsersApart() async throws {
        let first = try CacheProbe(), key = uniqueKey()
        let url = CacheProbe.url(key, ["Cache-Control:max-age=600"])
        #expect(await first.get(url, headers: Self.alice).served == 1)
        let second = try CacheProbe(file: first.scratch.file)
        #expect(await second.get(url, headers: Self.bob).served == 2)
        #expect(await second.get(url).served == 3)
        let alice = await second.get(url, headers: Self.alice)
        #expect(alice.fetchType == .localCache && alice.served == 1, "the same token shares the file's entry")
    }

    @Test func aSetCookieIsNeverStoredNorReplayed() async throws {
        let first = try CacheProbe(configure: { $0.httpCookieStorage = nil })
        let key = uniqueKey()
        let url = CacheProbe.url(key, ["Cache-Control:max-age=600", "Set-Cookie:session=\(key)"])
        let fetched = await first.get(url)
        #expect(fetched.headers["Set-Cookie"] != nil, "the network answer carries it")
        let stored = try #require(first.cache.cachedEntries(for: URL(string: url)!).first)
        #expect(stored.headers.value(for: "Set-Cookie") == nil)
        let second = try CacheProbe(file: first.scratch.file, configure: { $0.httpCookieStorage = nil })
        let served = await second.get(url)
        #expect(served.fetchType == .localCache && served.headers["Set-Cookie"] == nil)
    }

    @Test func theFileHoldsAKeyedHashNeverTheCredentials() throws {
        let scratch = SQLiteURLCacheTests.Scratch()
        let cache = try SQLiteURLCache(fileURL: scratch.file)
        var request = URLRequest(url: URL(string: "http://example.test/private")!)
        request.setValue("Bearer ALICE-secret-token", forHTTPHeaderField: "Authorization")
        request.setValue("sid=ALICE-cookie-value", forHTTPHeaderField: "Cookie")
        let credentials = CacheCredentials(request: request)
        cache.storeEntry(SQLiteURLCacheTests.entry("http://example.test/private", body: "alice's"), credentials: credentials)
        #expect(cache.cachedEntries(for: request.url!, credentials: credentials).count == 1)
        #expect(cache.cachedEntries(for: request.url!).isEmpty)
        #expect(SQLiteURLCacheTests.cached(cache, "http://example.test/private") == nil)
        #expect(SQLiteURLCacheTests.cached(cache, "http://example.test/private",
                                           headers: ["Authorization": "Bearer ALICE-secret-token",
                                                     "Cookie": "sid=ALICE-cookie-value"]) == "alice's")
        for suffix in ["", "-wal"] {
            let bytes = FileManager.default.contents(atPath: scratch.file.path + suffix) ?? Data()
            #expect(bytes.range(of: Data("ALICE-secret-token".utf8)) == nil, "cache\(suffix) holds the token")
            #expect(bytes.range(of: Data("ALICE-cookie-value".utf8)) == nil, "cache\(suffix) holds the cookie")
        }
    }

    @Test func partitionsDependOnTheFilesKey() {
        let credentials = CacheCredentials(request: {
            var request = URLRequest(url: URL(string: "http://example.test/")!)
            request.setValue("Bearer t", forHTTPHeaderField: "Authorization")
            return request
        }())
        #expect(CacheCredentials.anonymous.partition(key: Array("k".utf8)) == "")
        #expect(credentials.partition(key: Array("k1".utf8)) != credentials.partition(key: Array("k2".utf8)))
        #expect(credentials.partition(key: Array("k1".utf8)) == credentials.partition(key: Array("k1".utf8)))
        #expect(credentials.partition(key: Array("k1".utf8)).count == 64)
    }
}
