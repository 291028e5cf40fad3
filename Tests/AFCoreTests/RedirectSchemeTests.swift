import AFCore
import AFTestSupport
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

/// A redirect to a scheme other than http(s) is refused with `URLError(.unsupportedURL)`, as
/// URLSession refuses it, not delivered as a successful 3xx.
@Suite(.timeLimit(.minutes(1))) struct RedirectSchemeTests {
    @Test(arguments: ["file:///etc/passwd", "ftp://127.0.0.1/file", "gopher://127.0.0.1/", "data:text/plain,hi"])
    func aRedirectToAnotherSchemeFails(target: String) async throws {
        let session = makeSession()
        let url = Server.httpbin("/redirect-to?url=" + target.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)
        let response = await session.request(url).serializingData().response
        let error = try #require(response.error)
        #expect(error.isSessionTaskError)
        let urlError = try #require(error.underlyingError as? URLError)
        #expect(urlError.code == .unsupportedURL)
        #expect(urlError.failingURL?.absoluteString == target)
        #expect(response.response?.statusCode == 302, "the redirect response itself is kept")
    }

    @Test func aRedirectHandlerDoesNotSeeTheRefusedTarget() async throws {
        let seen = Protected<[URL]>([])
        let session = makeSession(redirectHandler: Redirector.modify { _, request, _ in
            if let url = request.url { seen.withLock { $0.append(url) } }
            return request
        })
        let url = Server.httpbin("/redirect-to?url=" + "file:///etc/hostname".addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)
        let response = await session.request(url).serializingData().response
        #expect((response.error?.underlyingError as? URLError)?.code == .unsupportedURL)
        #expect(seen.value.isEmpty)
    }
}
