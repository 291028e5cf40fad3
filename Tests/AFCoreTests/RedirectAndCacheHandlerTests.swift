@testable import AFCore
import AFTestSupport
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

/// Redirect handlers, cached response handlers and challenge credentials.
@Suite(.timeLimit(.minutes(1))) struct RedirectHandlerTests {
    private func redirect(to path: String, status: Int = 302) -> String {
        let target = Server.httpbin(path).addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
        return Server.httpbin("/redirect-to?url=\(target)&status_code=\(status)")
    }

    @Test func doNotFollowDeliversTheRedirect() async {
        let session = makeSession(redirectHandler: Redirector.doNotFollow)
        let response = await session.request(redirect(to: "/get")).serializingData(emptyResponseCodes: [200, 302]).response
        #expect(response.response?.statusCode == 302)
        #expect(response.metrics?.transactionMetrics.count == 1)
    }

    /// A redirect's body is kept (up to 1 MiB) for when it is not followed: delivered whole
    /// below that, an error above it rather than a cut body; a followed redirect's size does not
    /// matter, and a download or stream never holds more of it in memory.
    @Test(arguments: [(5_000, false), (3 << 20, false), (5_000, true), (3 << 20, true)])
    func aRedirectsBodyIsBounded(size: Int, follows: Bool) async throws {
        let session = makeSession(redirectHandler: follows ? Redirector.follow : Redirector.doNotFollow)
        let response = await session.request(Server.faults("/redirect-body?size=\(size)"))
            .serializingData(emptyResponseCodes: [200, 302]).response
        if follows {
            #expect(response.response?.statusCode == 200)
            #expect(response.data?.count == 3)
        } else if size <= 1 << 20 {
            #expect(response.response?.statusCode == 302)
            #expect(response.data?.count == size)
        } else {
            #expect(response.response?.statusCode == 302)
            let error = response.error?.underlyingError as? URLError
            #expect(error?.code == .dataLengthExceedsMaximum)
        }
    }

    @Test func theRequestHandlerWinsOverTheSessionHandler() async {
        let session = makeSession(redirectHandler: Redirector.doNotFollow)
        let response = await session.request(redirect(to: "/get")).redirect(using: Redirector.follow)
            .serializingData().response
        #expect(response.response?.statusCode == 200)
        #expect(response.response?.url?.path == "/get")
    }

    @Test func modifyChangesTheNextRequest() async throws {
        let redirector = Redirector(behavior: .modify { _, request, response in
            var request = request
            request.setValue("\(response.statusCode)", forHTTPHeaderField: "X-Redirected-By")
            return request
        })
        let session = makeSession()
        let echo = try await session.request(redirect(to: "/headers")).redirect(using: redirector)
            .serializingDecodable(HTTPBinResponse.self).value
        #expect(echo.headers["X-Redirected-By"] == "302")
    }

    @Test func status307ResendsTheBodyThroughAHandler() async throws {
        let session = makeSession(redirectHandler: Redirector.follow)
        let echo = try await session.request(redirect(to: "/anything", status: 307), method: .post,
                                             parameters: ["k": "v"], encoding: JSONEncoding.default)
            .serializingDecodable(HTTPBinResponse.self).value
        #expect(echo.method == "POST")
        #expect(echo.json?["k"]?.description == "v")
    }

    @Test func aRedirectLoopEndsWithAnError() async {
        let session = makeSession(redirectHandler: Redirector.follow)
        let error = await session.request(Server.httpbin("/redirect/30")).serializingData().response.error
        #expect(error?.urlErrorCode == .httpTooManyRedirects)
    }
}

@Suite(.timeLimit(.minutes(1))) struct CachedResponseHandlerTests {
    /// A cache AF may store into, recording what it was given.
    final class RecordingCache: URLCache, ResponseCacheStorage, @unchecked Sendable {
        let stored = Protected<[(URLRequest, CachedURLResponse)]>([])

        override func storeCachedResponse(_ cachedResponse: CachedURLResponse, for request: URLRequest) {
            stored.withLock { $0.append((request, cachedResponse)) }
        }
    }

    private func session(_ handler: (any CachedResponseHandler)? = nil) -> (Session, RecordingCache) {
        let cache = RecordingCache(memoryCapacity: 0, diskCapacity: 0, diskPath: nil)
        let configuration = URLSessionConfiguration.af.default
        configuration.urlCache = cache
        return (makeSession(configuration: configuration, cachedResponseHandler: handler), cache)
    }

    @Test func responsesAreOfferedToTheCache() async throws {
        let (session, cache) = session()
        let data = try await session.request(Server.httpbin("/get")).serializingData().value
        let stored = cache.stored.value
        #expect(stored.count == 1)
        #expect(stored.first?.1.data == data)
        #expect(stored.first?.0.url?.path == "/get")
    }

    @Test func doNotCacheStoresNothing() async throws {
        let (session, cache) = session(ResponseCacher.doNotCache)
        _ = try await session.request(Server.httpbin("/get")).serializingData().value
        #expect(cache.stored.value.isEmpty)
    }

    @Test func modifyStoresTheChangedResponse() async throws {
        let (session, cache) = session()
        let cacher = ResponseCacher(behavior: .modify { _, response in
            CachedURLResponse(response: response.response, data: Data("changed".utf8), userInfo: nil,
                              storagePolicy: .allowedInMemoryOnly)
        })
        _ = try await session.request(Server.httpbin("/get")).cacheResponse(using: cacher).serializingData().value
        #expect(cache.stored.value.first.map { String(decoding: $0.1.data, as: UTF8.self) } == "changed")
    }

    @Test func unsafeMethodsAndNoStoreAreNotOffered() async throws {
        let (session, cache) = session()
        _ = try await session.request(Server.httpbin("/post"), method: .post).serializingData().value
        _ = try await session.request(Server.httpbin("/response-headers?Cache-Control=no-store")).serializingData().value
        #expect(cache.stored.value.isEmpty)
    }

    @Test func foundationsSharedCacheIsNotUsed() async throws {
        let configuration = URLSessionConfiguration.af.default
        configuration.urlCache = URLCache.shared
        let offered = Protected(0)
        let session = makeSession(configuration: configuration,
                                  cachedResponseHandler: ResponseCacher(behavior: .modify { _, response in
                                      offered.withLock { $0 += 1 }
                                      return response
                                  }))
        _ = try await session.request(Server.httpbin("/get")).serializingData().value
        #expect(offered.value == 0)
    }
}

@Suite(.timeLimit(.minutes(1))) struct AuthenticationTests {
    @Test func basicChallenge() async throws {
        let session = makeSession()
        let response = await session.request(Server.httpbin("/basic-auth/user/secret"))
            .authenticate(username: "user", password: "secret").serializingData().response
        #expect(response.response?.statusCode == 200)
    }

    /// A session's `urlCredentialStorage` answers a Basic challenge as URLSession does.
    @Test func storedCredentialAnswersTheChallenge() async throws {
        let storage = URLCredentialStorage()
        let url = try #require(URL(string: Server.httpbin("/basic-auth/user/stored")))
        let space = URLProtectionSpace(host: try #require(url.host), port: try #require(url.port), protocol: "http",
                                       realm: "Fake Realm", authenticationMethod: NSURLAuthenticationMethodHTTPBasic)
        let configuration = URLSessionConfiguration.af.default
        configuration.urlCredentialStorage = storage
        let session = makeSession(configuration: configuration)
        let refused = await session.request(url).serializingData().response
        #expect(refused.response?.statusCode == 401)

        storage.setDefaultCredential(URLCredential(user: "user", password: "stored", persistence: .forSession), for: space)
        let answered = await session.request(url).serializingData().response
        #expect(answered.response?.statusCode == 200)
        let ownHeader = await session.request(url, headers: [.authorization(username: "user", password: "wrong")])
            .serializingData().response
        #expect(ownHeader.response?.statusCode == 401)
    }

    @Test func digestChallenge() async throws {
        let session = makeSession(configuration: .af.ephemeral)  // httpbin sets a cookie here
        let response = await session.request(Server.httpbin("/digest-auth/auth/user/secret"))
            .authenticate(with: URLCredential(user: "user", password: "secret", persistence: .none))
            .serializingData().response
        #expect(response.response?.statusCode == 200)
    }

    @Test func aWrongPasswordEndsWithTheChallenge() async throws {
        let session = makeSession()
        let response = await session.request(Server.httpbin("/basic-auth/user/secret"))
            .authenticate(username: "user", password: "wrong").serializingData(emptyResponseCodes: [200, 401]).response
        #expect(response.response?.statusCode == 401)
    }

    @Test func theCredentialAnswersItsOwnOriginOnly() async throws {
        let session = makeSession()
        let direct = try await session.request(Server.faults("/basic-challenge"))
            .authenticate(username: "user", password: "secret").serializingString().value
        #expect(direct == "Basic " + Data("user:secret".utf8).base64EncodedString())

        let target = Server.faults("/basic-challenge").addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
        let redirected = await session.request(Server.httpbin("/redirect-to?url=\(target)"))
            .authenticate(username: "user", password: "secret").serializingString().response
        #expect(redirected.response?.statusCode == 401)
        #expect(redirected.response?.url?.path == "/basic-challenge")
    }
}
