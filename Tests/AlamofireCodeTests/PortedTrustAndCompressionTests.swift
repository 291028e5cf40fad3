import AFCore
import AFTestSupport
import AFTrust
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

/// Trust shorthands and the deflate compressor, written as Alamofire documents them (its Linux
/// build compiles both out; AF has them).
@Suite(.timeLimit(.minutes(1))) struct PortedTrustAndCompressionTests {
    private var validLeaf: Certificate {
        get throws {
            try Certificate(pemEncoded: String(contentsOfFile: TestServers.shared.all["directory"]! + "/matrix/valid.pem",
                                               encoding: .utf8))
        }
    }

    @Test func trustShorthandsBuildAManagersEvaluators() async throws {
        let leaf = try validLeaf
        let key = try #require(leaf.publicKey)
        let pinned = makeSession(serverTrustManager: ServerTrustManager(evaluators: [
            "localhost": .composite(evaluators: [.pinnedCertificates(certificates: [leaf]), .publicKeys(keys: [key])]),
        ]))
        #expect(await pinned.request(Server.tls("valid")).serializingData().response.error == nil)

        let wrongPin = makeSession(serverTrustManager: ServerTrustManager(evaluators: [
            "localhost": .publicKeys(keys: [], performDefaultValidation: true, validateHost: true),
        ]))
        #expect(await wrongPin.request(Server.tls("valid")).serializingData().response.error?.isServerTrustEvaluationError == true)

        let anything = makeSession(serverTrustManager: ServerTrustManager(evaluators: ["localhost": .disabled]))
        #expect(await anything.request(Server.tls("self-signed")).serializingData().response.error == nil)

        let revocation: any ServerTrustEvaluating = .revocationChecking(options: [.ocsp])
        #expect(revocation is RevocationTrustEvaluator)
    }

    @Test func theDeflateCompressorSendsAZlibStream() async throws {
        let session = makeSession()
        let body = Data(String(repeating: "{\"field\":\"value\"}", count: 200).utf8)
        let echoed = try await session.request(Self.post(body), interceptor: .deflateCompressor)
            .serializingDecodable(HTTPBinResponse.self).value
        #expect(echoed.headers["Content-Encoding"] == "deflate")
        let sent = try #require(echoed.data.flatMap(Self.bytes(ofDataURL:)))
        #expect(sent.count < body.count / 10)
        #expect(try Self.inflate(sent) == body)
    }

    @Test func anExistingContentEncodingIsAnErrorSkippedOrReplaced() async throws {
        let session = makeSession()
        let body = Data("plain body".utf8)
        let encoded = Self.post(body, contentEncoding: "identity")
        let failed = await session.request(encoded, interceptor: .deflateCompressor).serializingData().response
        #expect(failed.error?.underlyingError is DeflateRequestCompressor.DuplicateHeaderError)
        let skipped = try await session.request(encoded, interceptor: .deflateCompressor(duplicateHeaderBehavior: .skip))
            .serializingDecodable(HTTPBinResponse.self).value
        #expect(skipped.headers["Content-Encoding"] == "identity" && skipped.data == "plain body")
        let replaced = try await session.request(encoded, interceptor: .deflateCompressor(duplicateHeaderBehavior: .replace))
            .serializingDecodable(HTTPBinResponse.self).value
        #expect(replaced.headers["Content-Encoding"] == "deflate")
        let small = try await session.request(Self.post(body),
                                              interceptor: .deflateCompressor(shouldCompressBodyData: { $0.count > 1024 }))
            .serializingDecodable(HTTPBinResponse.self).value
        #expect(small.headers["Content-Encoding"] == nil && small.data == "plain body")
    }

    /// A POST to httpbin with `body` in the request itself (the compressor reads `httpBody`).
    private static func post(_ body: Data, contentEncoding: String? = nil) -> URLRequest {
        var request = URLRequest(url: URL(string: Server.httpbin("/post"))!)
        request.method = .post
        request.httpBody = body
        request.headers.add(.contentType("application/octet-stream"))
        if let contentEncoding { request.headers.add(.contentEncoding(contentEncoding)) }
        return request
    }

    /// httpbin echoes a binary body as `data:application/octet-stream;base64,…`.
    private static func bytes(ofDataURL text: String) -> Data? {
        guard let comma = text.firstIndex(of: ","), text.hasPrefix("data:") else { return nil }
        return Data(base64Encoded: String(text[text.index(after: comma)...]))
    }

    /// Inflates a zlib stream with Python's zlib, an implementation other than the one that made it.
    private static func inflate(_ stream: Data) throws -> Data {
        let script = "import sys, zlib; sys.stdout.buffer.write(zlib.decompress(sys.stdin.buffer.read()))"
        return try runProgram("/usr/bin/env", ["python3", "-c", script], input: stream).output
    }
}
