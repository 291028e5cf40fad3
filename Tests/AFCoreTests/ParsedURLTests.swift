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
