import AFCore
import AFTestSupport
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

/// Requests over Unix domain sockets, against nginx listening on one (HTTP/1.1, and cleartext
/// HTTP/2 on another): `http+unix://` URLs, a Session's socket for `http://` URLs, keep-alive,
/// h2c, redirects, and a socket that is not there.
@Suite(.timeLimit(.minutes(1))) struct UnixSocketTests {
    private struct Echo: Decodable {
        let url: String
        let headers: [String: String]
        let args: [String: String]
    }

    private static func socketURL(_ socket: String, _ path: String) -> String {
        "http+unix://" + socket.addingPercentEncoding(withAllowedCharacters: .alphanumerics)! + path
    }

    private var socket: String { TestServers.shared.all["unixSocket"]! }

    @Test func anHTTPUnixURLGoesThroughItsSocketOnOneConnection() async throws {
        let session = makeSession()
        let url = Self.socketURL(socket, "/get?name=value")
        let first = await session.request(url).serializingDecodable(Echo.self).response
        let second = await session.request(url).serializingDecodable(Echo.self).response
        let echo = try #require(first.value, "\(String(describing: first.error))")
        #expect(echo.args == ["name": "value"])
        #expect(echo.headers["Host"] == "localhost")
        #expect(first.response?.url?.absoluteString == url, "responses are reported for the URL asked")
        #expect(second.value != nil)
        #expect(second.metrics?.transactionMetrics.last?.isReusedConnection == true)
    }

    @Test func aSessionSocketCarriesPlainHTTPURLs() async throws {
        let configuration = URLSessionConfiguration.af.default
        configuration.af.unixSocketPath = socket
        #expect(configuration.af.unixSocketPath == socket)
        let session = makeSession(configuration: configuration)
        // No server listens on this port: only the socket can answer.
        let echo = try await session.request("http://service.internal:9/anything/x").serializingDecodable(Echo.self).value
        #expect(echo.url.hasSuffix("/anything/x"))
        #expect(echo.headers["Host"] == "service.internal:9")
    }

    @Test func cleartextHTTP2WithPriorKnowledgeOverASocket() async throws {
        _ = TestServers.shared
        let session = Session(httpVersionPolicy: .http2PriorKnowledge)
        let socket = TestServers.shared.all["unixSocketH2c"]!
        let response = await session.request(Self.socketURL(socket, "/get")).serializingDecodable(Echo.self).response
        #expect(response.value != nil, "\(String(describing: response.error))")
        #expect(response.metrics?.transactionMetrics.last?.networkProtocolName == "h2")
    }

    @Test func httpsOverASocketIsVerifiedAsLocalhost() async throws {
        // The certificate names localhost; the request goes out as https://localhost on the socket.
        let session = makeSession()
        let socket = TestServers.shared.all["unixSocketTLS"]!
        let response = await session.request(Self.socketURL(socket, "/get").replacingOccurrences(of: "http+unix:", with: "https+unix:"))
            .serializingDecodable(Echo.self).response
        #expect(response.value != nil, "\(String(describing: response.error))")
        #expect(response.metrics?.transactionMetrics.last?.networkProtocolName == "h2")
        #expect(response.response?.url?.scheme == "https+unix")
    }

    /// `https+unix` goes through the Session's trust manager, as the host TLS verifies (`localhost`).
    @Test func httpsOverASocketGoesThroughTheTrustManager() async throws {
        let socket = TestServers.shared.all["unixSocketTLS"]!
        let url = Self.socketURL(socket, "/get").replacingOccurrences(of: "http+unix:", with: "https+unix:")
        let refusing = ServerTrustHookTests.Recorder(accepts: false)
        let refusingSession = Session(serverTrustManager: ServerTrustHookTests.manager(["localhost": refusing]))
        let refused = await refusingSession.request(url).serializingData().response
        guard case .serverTrustEvaluationFailed = refused.error else {
            Issue.record("expected the evaluator's refusal, got \(String(describing: refused.error))")
            return
        }
        #expect(refused.response == nil && !refusing.seen.value.isEmpty)

        let strictSession = Session(serverTrustManager: ServerTrustHookTests.manager([:], allHostsMustBeEvaluated: true))
        let unknown = await strictSession.request(url).serializingData().response
        #expect(unknown.error?.isServerTrustEvaluationError == true, "\(String(describing: unknown.error))")

        let accepting = ServerTrustHookTests.Recorder(accepts: true)
        let session = Session(serverTrustManager: ServerTrustHookTests.manager(["localhost": accepting]))
        let accepted = await session.request(url).serializingDecodable(Echo.self).response
        #expect(accepted.value != nil && accepting.seen.value.first?.host == "localhost", "\(accepting.seen.value.map(\.host))")
    }

    @Test func aRelativeRedirectStaysOnTheSocket() async throws {
        let session = makeSession()
        let response = await session.request(Self.socketURL(socket, "/redirect-to?url=%2Fget%3Fafter%3D1"))
            .serializingDecodable(Echo.self).response
        #expect(response.value?.args == ["after": "1"], "\(String(describing: response.error))")
        #expect(response.response?.url?.scheme == "http+unix")
    }

    @Test func aServerCannotRedirectToASocket() async throws {
        let session = makeSession()
        let target = Self.socketURL(socket, "/get")
        let response = await session.request(Server.httpbin("/redirect-to?url=" + target.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!))
            .serializingData().response
        #expect((response.error?.underlyingError as? URLError)?.code == .unsupportedURL, "\(String(describing: response.error))")
    }

    @Test func aMissingSocketCannotConnectAndSaysWhere() async throws {
        let missing = FileManager.default.temporaryDirectory.appendingPathComponent("af-no-such-\(UUID().uuidString).sock").path
        let session = makeSession()
        let response = await session.request(Self.socketURL(missing, "/get")).serializingData().response
        let error = try #require(response.error?.underlyingError as? URLError)
        #expect(error.code == .cannotConnectToHost)
        #expect(error.localizedDescription.contains(missing), "\(error.localizedDescription)")
    }
}
