import AFCore
import AFTestSupport
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

/// A `Secure` cookie never goes over plain HTTP: not to http:// on the same host, not after an
/// https→http redirect; and a `Secure` cookie set over plain HTTP is not stored.
@Suite(.timeLimit(.minutes(1))) struct SecureCookieTests {
    /// nginx serves httpbin over https on localhost and over http on 127.0.0.1: this is the
    /// http one under the same host name as the https one.
    private func plain(_ path: String) -> String {
        Server.http(path).replacingOccurrences(of: "127.0.0.1", with: "localhost")
    }

    private struct Cookies: Decodable { let cookies: [String: String] }

    private func session(_ storage: HTTPCookieStorage) -> Session {
        let configuration = URLSessionConfiguration.af.default
        configuration.httpCookieStorage = storage
        return makeSession(configuration: configuration)
    }

    private func setCookies(_ session: Session, over base: (String) -> String) async {
        let query = "Set-Cookie=" + "secret=s1; Secure; Path=/".addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
            + "&Set-Cookie=" + "plain=p1; Path=/".addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
        _ = await session.request(base("/response-headers?" + query)).serializingData().response
    }

    @Test func aSecureCookieGoesOverHTTPSOnly() async throws {
        let storage = HTTPCookieStorage.sharedCookieStorage(forGroupContainerIdentifier: "af-secure-\(UUID().uuidString)")
        let session = session(storage)
        await setCookies(session, over: Server.https)
        let overTLS = try await session.request(Server.https("/cookies")).serializingDecodable(Cookies.self).value
        #expect(overTLS.cookies == ["secret": "s1", "plain": "p1"])
        let overPlain = try await session.request(plain("/cookies")).serializingDecodable(Cookies.self).value
        #expect(overPlain.cookies == ["plain": "p1"])
    }

    @Test func aRedirectFromHTTPSToHTTPLeavesTheSecureCookieBehind() async throws {
        let storage = HTTPCookieStorage.sharedCookieStorage(forGroupContainerIdentifier: "af-secure-\(UUID().uuidString)")
        let session = session(storage)
        await setCookies(session, over: Server.https)
        let target = plain("/cookies").addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
        let echoed = try await session.request(Server.https("/redirect-to?url=" + target))
            .serializingDecodable(Cookies.self).value
        #expect(echoed.cookies == ["plain": "p1"])
    }

    @Test func aSecureCookieSetOverHTTPIsNotStored() async throws {
        let storage = HTTPCookieStorage.sharedCookieStorage(forGroupContainerIdentifier: "af-secure-\(UUID().uuidString)")
        let session = session(storage)
        await setCookies(session, over: plain)
        #expect(storage.cookies?.map(\.name) == ["plain"])
    }
}
