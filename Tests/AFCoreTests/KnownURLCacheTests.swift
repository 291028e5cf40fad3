@testable import AFCore
import Foundation
import Testing

/// What a session works out once for each URL its requests go to (`KnownURL`), and the cache
/// that keeps it.
struct KnownURLCacheTests {
    /// A session works each URL out once while it is in its cache, which starts again when full.
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

    /// What a URL leads to: the scheme as Foundation reads it, the URL curl is given (a socket
    /// URL's wire form), whether it may go on the wire, and its target.
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
}
