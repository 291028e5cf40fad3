import AFCore
import AFTestSupport
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

/// A server cannot crash the process with a `Set-Cookie` holding non-ASCII text (found by
/// fuzzing: FoundationNetworking's cookie parser crashed on a combining mark in `Expires` and on
/// an emoji before the name): such a field is ignored as malformed, the others are kept; each
/// Set-Cookie line is read on its own.
@Suite(.timeLimit(.minutes(1))) struct MalformedCookieDateTests {
    @Test func aNonASCIISetCookieIsIgnored() async throws {
        let storage = HTTPCookieStorage.sharedCookieStorage(forGroupContainerIdentifier: "af-cookie-date-\(UUID().uuidString)")
        let configuration = URLSessionConfiguration.af.default
        configuration.httpCookieStorage = storage
        let session = makeSession(configuration: configuration)
        let fields = ["Set-Cookie:bad=1; Expires=Sun, 06 Nov 199\u{333}; Path=/",
                      "Set-Cookie:\u{1F600} emoji=;",
                      "Set-Cookie:good=2; Expires=Wed, 21 Oct 2099 07:28:00 GMT; Path=/"]
        let query = fields.map { "h=" + $0.addingPercentEncoding(withAllowedCharacters: .alphanumerics)! }.joined(separator: "&")
        let response = await session.request(Server.faults("/cacheable/cookie-\(UUID().uuidString)?" + query)).serializingData().response
        #expect(response.response?.statusCode == 200)
        let cookies = storage.cookies ?? []
        #expect(cookies.map(\.name) == ["good"])
        let good = cookies.first { $0.name == "good" }
        #expect(good?.expiresDate == Date(timeIntervalSince1970: 4_096_250_880))
    }
}
