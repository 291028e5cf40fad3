@testable import AFCore
import AFTestSupport
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

@Suite struct HTTPHeadersTests {
    @Test func caseInsensitiveAndOrderPreserving() {
        var headers: HTTPHeaders = ["B": "1", "a": "2"]
        headers.add(name: "b", value: "3")
        #expect(headers.map(\.name) == ["b", "a"])
        #expect(headers["b"] == "3")
        #expect(headers.count == 2)

        var ordered = HTTPHeaders([HTTPHeader(name: "X", value: "1"), HTTPHeader(name: "Y", value: "2")])
        ordered.update(name: "x", value: "9")
        #expect(ordered.map(\.description) == ["x: 9", "Y: 2"])
        ordered.remove(name: "X")
        #expect(ordered.map(\.name) == ["Y"])
    }

    /// Names compare as their `lowercased()` forms do, as in Alamofire: long ASCII names, and
    /// names whose other characters lower-case to ASCII letters (the Kelvin sign to `k`).
    @Test func namesCompareAsTheirLowercasedForms() {
        let headers = HTTPHeaders([HTTPHeader(name: "X-Request-Correlation-Identifier", value: "1"),
                                   HTTPHeader(name: "\u{212A}ey", value: "2"), HTTPHeader(name: "Ünïcode", value: "3")])
        #expect(headers.value(for: "x-request-correlation-IDENTIFIER") == "1")
        #expect(headers.value(for: "X-Request-Correlation-Identifie") == nil)
        #expect(headers.value(for: "KEY") == "2")
        #expect(headers.value(for: "üNÏCODE") == "3")
        #expect(headers.value(for: "Unicode") == nil)
    }

    @Test func subscriptSetAndRemove() {
        var headers = HTTPHeaders()
        headers["Accept"] = "a"
        #expect(headers.value(for: "accept") == "a")
        headers["ACCEPT"] = nil
        #expect(headers.isEmpty)
    }

    @Test func sortingAndDictionary() {
        let headers: HTTPHeaders = [.init(name: "b", value: "1"), .init(name: "A", value: "2")]
        #expect(headers.sorted().map(\.name) == ["A", "b"])
        #expect(headers.dictionary == ["b": "1", "A": "2"])
        #expect(headers.description == "b: 1\nA: 2")
    }

    @Test func builders() {
        #expect(HTTPHeader.authorization(username: "user", password: "pass").value == "Basic dXNlcjpwYXNz")
        #expect(HTTPHeader.authorization(bearerToken: "t").value == "Bearer t")
        #expect(HTTPHeader.accept("a").name == "Accept")
        #expect(HTTPHeader.acceptCharset("a").name == "Accept-Charset")
        #expect(HTTPHeader.acceptLanguage("a").name == "Accept-Language")
        #expect(HTTPHeader.acceptEncoding("a").name == "Accept-Encoding")
        #expect(HTTPHeader.contentDisposition("a").name == "Content-Disposition")
        #expect(HTTPHeader.contentEncoding("a").name == "Content-Encoding")
        #expect(HTTPHeader.contentType("a").name == "Content-Type")
        #expect(HTTPHeader.userAgent("a").name == "User-Agent")
        #expect(HTTPHeader.websocketProtocol("a").name == "Sec-WebSocket-Protocol")
    }

    @Test func defaults() {
        #expect(HTTPHeader.defaultAcceptEncoding.value == "br;q=1.0, gzip;q=0.9, deflate;q=0.8")
        #expect(HTTPHeader.defaultUserAgent.value.contains("AF/\(AFInfo.version)"))
        #expect(HTTPHeader.defaultUserAgent.value.contains("Linux"))
        #expect(!HTTPHeader.defaultUserAgent.value.contains("Unknown"))
        #expect(["a", "b", "c"].qualityEncoded() == "a;q=1.0, b;q=0.9, c;q=0.8")
        #expect(HTTPHeaders.default.map(\.name) == ["Accept-Encoding", "Accept-Language", "User-Agent"])
        #expect(URLSessionConfiguration.af.default.headers.sorted() == HTTPHeaders.default.sorted())
        #expect(URLSessionConfiguration.af.ephemeral.headers.sorted() == HTTPHeaders.default.sorted())
    }

    @Test func foundationViews() throws {
        var request = try URLRequest(url: "https://example.com", method: .post, headers: ["A": "1"])
        #expect(request.method == .post)
        #expect(request.headers["a"] == "1")
        request.headers = ["B": "2"]
        #expect(request.allHTTPHeaderFields == ["B": "2"])
        let response = HTTPURLResponse(url: URL(string: "https://e.com")!, statusCode: 200, httpVersion: nil,
                                       headerFields: ["X": "y"])!
        #expect(response.headers["x"] == "y")
    }
}

@Suite struct URLConvertibleTests {
    @Test func strings() throws {
        #expect(try "https://example.com/a".asURL().path == "/a")
        let error = #expect(throws: AFError.self) { try "".asURL() }
        #expect(error?.isInvalidURLError == true)
        #expect(error?.urlConvertible as? String == "")
    }

    @Test func componentsAndRequests() throws {
        var components = URLComponents()
        components.scheme = "https"
        components.host = "example.com"
        #expect(try components.asURL().absoluteString == "https://example.com")
        let request = try URLRequest(url: "https://example.com", method: .get)
        #expect(request.urlRequest == request)
        #expect(request.httpMethod == "GET")
        #expect(request.method == .get)
        #expect(request.allHTTPHeaderFields?.isEmpty ?? true)
        let delete = try URLRequest(url: "https://example.com", method: .delete, headers: [:])
        #expect(delete.httpMethod == "DELETE")
        #expect(delete.allHTTPHeaderFields?.isEmpty ?? true)
    }

    @Test func getWithBodyFailsValidation() throws {
        var request = try URLRequest(url: "https://example.com", method: .get)
        request.httpBody = Data("x".utf8)
        let error = #expect(throws: AFError.self) { try request.validate() }
        #expect(error?.isURLRequestValidationError == true)
    }

    @Test func methods() {
        #expect(HTTPMethod.query.rawValue == "QUERY")
        #expect([HTTPMethod.connect, .delete, .get, .head, .options, .patch, .post, .put, .trace].map(\.rawValue)
            == ["CONNECT", "DELETE", "GET", "HEAD", "OPTIONS", "PATCH", "POST", "PUT", "TRACE"])
    }

    @Test func theUserAgentSaysOnlyWhatIsKnown() {
        var names = utsname()
        uname(&names)
        let release = withUnsafeBytes(of: &names.release) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        let debian = "PRETTY_NAME=\"Debian GNU/Linux 12 (bookworm)\"\nNAME=\"Debian GNU/Linux\"\nVERSION_ID=\"12\"\nID=debian\n"
        let agent = UserAgent.make(executable: "/usr/local/bin/syncd", osRelease: debian)
        #expect(agent.hasPrefix("syncd (Debian GNU/Linux 12; Linux \(release); "), "\(agent)")
        #expect(agent.hasSuffix(") AF/\(AFInfo.version)"))
        #expect(!agent.contains("Unknown"))
        // Nothing known about the distribution: left out, not "Unknown".
        #expect(UserAgent.make(executable: "tool", osRelease: nil).hasPrefix("tool (Linux \(release); "))
        #expect(UserAgent.distribution(in: "ID=alpine\nNAME=\"Alpine Linux\"\nVERSION_ID=3.20.0\n") == "Alpine Linux 3.20.0")
        #expect(UserAgent.distribution(in: "garbage") == nil)
    }
}
