@testable import AFCore
import AFTestSupport
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

/// A transfer's URL is parsed before it reaches the engine (`ParsedURL`) and handed to curl
/// beside the string: what goes on the wire must be what curl made of the string itself.
@Suite(.timeLimit(.minutes(1))) struct ParsedURLTests {
    @Test func aURLCurlRefusesIsLeftToCurl() {
        #expect(ParsedURL("http://[::1/") == nil)
        #expect(ParsedURL("http://127.0.0.1:8080/a?b=c") != nil)
    }

    /// A session works each URL out once while it is in its cache, which starts again when
    /// full; a URL curl refuses is known without a parse.
    @Test func theCacheHandsOutOneParsePerURLAndStaysBounded() throws {
        let cache = KnownURLCache(capacity: 2)
        let first = try #require(cache.known(URL(string: "http://127.0.0.1:8080/a")).parsed)
        #expect(cache.known(URL(string: "http://127.0.0.1:8080/a")).parsed === first)
        #expect(cache.known(URL(string: "http://127.0.0.1:8080/b")).parsed !== first)
        // Full with two: the third starts it again, so the first is parsed anew.
        _ = cache.known(URL(string: "http://127.0.0.1:8080/c"))
        #expect(cache.known(URL(string: "http://127.0.0.1:8080/a")).parsed !== first)
        #expect(cache.known(nil).parsed == nil)
    }

    /// What a URL leads to is worked out as each request's spec once did it: the scheme as
    /// Foundation reads it, the URL curl is given (a socket URL's wire form), whether it may go
    /// on the wire, and its target.
    @Test func aKnownURLCarriesWhatTheSpecNeeds() throws {
        let plain = KnownURLCache().known(URL(string: "HTTP://127.0.0.1:8080/a?b=c"))
        #expect(plain.scheme == "HTTP" && plain.wireURL == "HTTP://127.0.0.1:8080/a?b=c" && plain.socketRoute == nil)
        #expect(plain.isClean && plain.target == .http && plain.parsed != nil)

        let socket = KnownURLCache().known(URL(string: "http+unix://%2Ftmp%2Fs.sock/v1/info"))
        #expect(socket.socketRoute?.socketPath == "/tmp/s.sock" && socket.wireURL == "http://localhost/v1/info")
        #expect(socket.target == .http)

        let viaSessionSocket = KnownURLCache(sessionSocket: "/tmp/s.sock").known(URL(string: "https://example.com/x"))
        #expect(viaSessionSocket.socketRoute?.socketPath == "/tmp/s.sock" && viaSessionSocket.socketRoute?.wireScheme == "https")

        #expect(KnownURLCache().known(URL(string: "ftp://example.com/file")).target == .unsupported)
        #expect(KnownURLCache().known(URL(string: "file:///tmp/x")).target == .file)
        #expect(KnownURLCache().known(nil).wireURL == "")
    }

    /// Dot segments removed, the query kept as written: curl's own normalisation, on one
    /// handle after another (the pooled handle keeps the string, each transfer brings its parse).
    @Test func theServerSeesTheTargetCurlWouldSend() async throws {
        let session = makeSession()
        for (path, expected) in [("/anything/a/../b?x=1&y=%20", "/anything/b?x=1&y=%20"),
                                 ("/anything/./c", "/anything/c"),
                                 ("/anything/a/../b?x=1&y=%20", "/anything/b?x=1&y=%20")] {
            let response = try await session.request(Server.httpbin(path)).serializingDecodable(HTTPBinResponse.self).value
            let url = try #require(response.url.flatMap(URL.init(string:)))
            #expect(url.path + (url.query.map { "?" + $0 } ?? "") == expected)
        }
    }
}
