@testable import AFCore
import AFTestSupport
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

/// Nothing a caller, an adapter or a redirect handler puts in a header, method or URL can add a
/// header or a request of its own on the wire: such requests fail before a byte is sent. The fault
/// server's /wire-count/KEY says how many request heads containing KEY reached it.
@Suite(.timeLimit(.minutes(1))) struct WireSafetyTests {
    private let session = makeSession()

    private static func received(_ key: String) async -> Int {
        let session = makeSession()
        return Int(await session.request(Server.faults("/wire-count/\(key)")).serializingString().response.value ?? "") ?? -1
    }

    /// The refusal inside `error`, after checking that nothing with `key` reached the server.
    private static func refusal(_ error: AFError?, key: String,
                                sourceLocation: SourceLocation = #_sourceLocation) async -> UnsafeRequestError? {
        #expect(await received(key) == 0, "the request reached the wire", sourceLocation: sourceLocation)
        guard case let .createURLRequestFailed(refused as UnsafeRequestError) = error else {
            Issue.record("expected an UnsafeRequestError, got \(String(describing: error))", sourceLocation: sourceLocation)
            return nil
        }
        return refused
    }

    @Test func aHeaderValueWithALineBreakIsRefusedAndNamedWithoutItsValue() async throws {
        let key = uniqueKey()
        let error = await session.request(Server.faults("/wire/\(key)"),
                                                headers: ["X-Test": "secret\r\nInjected: 1"]).serializingString().response.error
        let refused = try #require(await Self.refusal(error, key: key))
        #expect(refused.part == .headerValue && refused.headerName == "X-Test")
        let description = try #require(error?.localizedDescription)
        #expect(description.contains("X-Test") && !description.contains("secret") && !description.contains("Injected"))
    }

    @Test(arguments: ["a\nb", "a\rb", "a\u{0}b"])
    func crLfAndNulAreEachRefusedInValues(value: String) async throws {
        let key = uniqueKey()
        let error = await session.request(Server.faults("/wire/\(key)"), headers: ["X-Test": value])
            .serializingString().response.error
        #expect(await Self.refusal(error, key: key)?.part == .headerValue)
    }

    @Test func aHeaderNameThatIsNotATokenIsRefused() async throws {
        let key = uniqueKey()
        let error = await session.request(Server.faults("/wire/\(key)"), headers: ["X-Test: a\r\nInjected": "1"])
            .serializingString().response.error
        let refused = try #require(await Self.refusal(error, key: key))
        #expect(refused.part == .headerName)
        #expect(error?.localizedDescription.contains(#""X-Test: a\r\nInjected""#) == true, "the name is shown escaped")
    }

    @Test func aMethodThatIsNotATokenIsRefused() async throws {
        let key = uniqueKey()
        let method = HTTPMethod(rawValue: "GET /evil HTTP/1.1\r\nX: y")
        let error = await session.request(Server.faults("/wire/\(key)"), method: method).serializingString().response.error
        #expect(await Self.refusal(error, key: key)?.part == .method)
    }

    @Test func urlRequestFieldsAreCheckedToo() async throws {
        let key = uniqueKey()
        var request = try URLRequest(url: Server.faults("/wire/\(key)"), method: .get)
        // (corelibs' setValue(_:forHTTPHeaderField:) drops such a value silently; the dictionary keeps it)
        request.allHTTPHeaderFields = ["X-Test": "a\r\nInjected: 1"]
        let error = await session.request(request).serializingString().response.error
        #expect(await Self.refusal(error, key: key)?.part == .headerValue)
    }

    @Test func theConfigurationsAdditionalHeadersAreCheckedToo() async throws {
        let key = uniqueKey()
        let configuration = URLSessionConfiguration.af.default
        configuration.httpAdditionalHeaders = ["X-Tenant": "a\r\nInjected: 1"]
        let session = makeSession(configuration: configuration)
        let error = await session.request(Server.faults("/wire/\(key)"))
            .serializingString().response.error
        #expect(await Self.refusal(error, key: key)?.headerName == "X-Tenant")
    }

    @Test func whatAnAdapterAddsIsCheckedToo() async throws {
        let key = uniqueKey()
        let adapter = Adapter { request, _, completion in
            var adapted = request
            adapted.headers.update(name: "X-Signature", value: "a\r\nInjected: 1")
            completion(.success(adapted))
        }
        let session = makeSession(interceptor: adapter)
        let error = await session.request(Server.faults("/wire/\(key)"))
            .serializingString().response.error
        #expect(await Self.refusal(error, key: key)?.headerName == "X-Signature")
    }

    @Test func whatARedirectHandlerAddsIsCheckedToo() async throws {
        let key = uniqueKey()
        let target = Server.faults("/wire/\(key)").addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
        let handler = Redirector(behavior: .modify { _, request, _ in
            var next = request
            next.headers.update(name: "X-Hop", value: "a\r\nInjected: 1")
            return next
        })
        let session = makeSession(redirectHandler: handler)
        let response = await session.request(Server.httpbin("/redirect-to?url=\(target)"))
            .serializingString().response
        #expect(await Self.refusal(response.error, key: key)?.headerName == "X-Hop")
    }

    @Test func valuesWithTabsAndUTF8AreSentAsGiven() async throws {
        let key = uniqueKey()
        let head = try await session.request(Server.faults("/wire/\(key)"), headers: ["X-Test": "a\tb c"])
            .serializingString().value
        #expect(head.contains("X-Test: a\tb c\r\n"))
        #expect(await Self.received(key) == 1)
    }

    @Test func theRulesOverBytes() {
        #expect(WireRules.isToken("X-Custom_Header.1~") && WireRules.isToken("PATCH"))
        #expect(!WireRules.isToken("") && !WireRules.isToken("A B") && !WireRules.isToken("A:B") && !WireRules.isToken("Ä"))
        #expect(WireRules.isSafeValue("") && WireRules.isSafeValue("caf\u{E9}\t1"))
        #expect(!WireRules.isSafeValue("a\u{0}"))
        #expect(WireRules.isCleanURL("http://h/a%20b?q=1"))
        #expect(!WireRules.isCleanURL("http://h/a b") && !WireRules.isCleanURL("http://h/a\u{7F}") && !WireRules.isCleanURL("http://h/\t"))
        #expect(WireRules.problem(method: "GET", url: "http://h/a b")?.part == .url)
    }
}
