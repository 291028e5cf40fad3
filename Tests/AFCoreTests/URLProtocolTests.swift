import AFCore
import AFTestSupport
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

/// Answers requests to `stub.invalid` itself: 200 with the request's header fields echoed as
/// `Echo-<name>` fields and its body (or "stub") as the body; `/hang` never answers.
final class StubURLProtocol: URLProtocol {
    /// Signalled when the load of `/hang` is stopped.
    static let stoppedHanging = DispatchSemaphore(value: 0)

    override class func canInit(with request: URLRequest) -> Bool { request.url?.host == "stub.invalid" }

    override class func canonicalRequest(for request: URLRequest) -> URLRequest {
        var canonical = request
        canonical.setValue("yes", forHTTPHeaderField: "Canonicalized")
        return canonical
    }

    override func startLoading() {
        guard let url = request.url, url.path != "/hang" else { return }
        var fields: [String: String] = ["Content-Type": "text/plain"]
        for (name, value) in request.allHTTPHeaderFields ?? [:] { fields["Echo-\(name)"] = value }
        let response = HTTPURLResponse(url: url, statusCode: url.path == "/missing" ? 404 : 200, httpVersion: "HTTP/1.1",
                                       headerFields: fields)!
        client?.urlProtocol(self, didReceive: response, cacheStoragePolicy: .notAllowed)
        client?.urlProtocol(self, didLoad: body() ?? Data("stub".utf8))
        client?.urlProtocolDidFinishLoading(self)
    }

    override func stopLoading() {
        if request.url?.path == "/hang" { Self.stoppedHanging.signal() }
    }

    private func body() -> Data? {
        if let body = request.httpBody { return body }
        guard let stream = request.httpBodyStream else { return nil }
        stream.open()
        defer { stream.close() }
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 4096)
        while case let count = stream.read(&buffer, maxLength: buffer.count), count > 0 { data.append(buffer, count: count) }
        return data
    }
}

/// A configuration's `protocolClasses`: the app's classes serve the requests they accept.
@Suite(.timeLimit(.minutes(1))) struct URLProtocolTests {
    private func session() -> Session {
        let configuration = URLSessionConfiguration.af.default
        configuration.protocolClasses = [StubURLProtocol.self]
        configuration.headers.add(name: "Session-Header", value: "session")
        return makeSession(configuration: configuration)
    }

    @Test func theProtocolAnswersWithTheRequestAsURLSessionHandsItOver() async throws {
        let session = session()
        let response = await session.request("http://stub.invalid/get", headers: ["Request-Header": "request"])
            .serializingString().response
        let http = try #require(response.response)
        #expect(http.statusCode == 200)
        #expect(response.value == "stub")
        #expect(http.value(forHTTPHeaderField: "Echo-Request-Header") == "request")
        #expect(http.value(forHTTPHeaderField: "Echo-Session-Header") == "session")
        #expect(http.value(forHTTPHeaderField: "Echo-Canonicalized") == "yes")
        let transactions = try #require(response.metrics?.transactionMetrics)
        #expect(transactions.count == 1)
        #expect(transactions.first?.resourceFetchType == .networkLoad)
        #expect(transactions.first?.countOfResponseBodyBytesReceived == 4)
    }

    @Test func validationAndSerializationSeeTheProtocolsAnswer() async throws {
        let session = session()
        let response = await session.request("http://stub.invalid/missing").validate().serializingData().response
        #expect(response.response?.statusCode == 404)
        #expect(response.error?.responseCode == 404)
    }

    @Test func anUploadsBodyReachesTheProtocol() async throws {
        let body = Data("uploaded".utf8)
        let session = session()
        let value = try await session.upload(body, to: "http://stub.invalid/post").serializingData().value
        #expect(value == body)
    }

    @Test func aDownloadGoesToItsDestination() async throws {
        let session = session()
        let response = await session.download("http://stub.invalid/file").serializingData().response
        if let fileURL = response.fileURL { try? FileManager.default.removeItem(at: fileURL) }
        #expect(try response.result.get() == Data("stub".utf8))
    }

    @Test func requestsTheClassesRefuseGoToTheNetwork() async throws {
        let session = session()
        let response = await session.request(Server.httpbin("/get")).serializingDecodable(HTTPBinResponse.self).response
        #expect(response.response?.statusCode == 200)
        #expect(response.value?.headers["Session-Header"] == "session")
    }

    @Test func cancellingStopsTheProtocol() async throws {
        let session = session()
        let request = session.request("http://stub.invalid/hang")
        let task = Task { await request.serializingData().response }
        for await _ in request.urlSessionTasks() { break }
        request.cancel()
        let response = await task.value
        #expect(response.error?.isExplicitlyCancelledError == true)
        let stopped = await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(returning: StubURLProtocol.stoppedHanging.wait(timeout: .now() + 10) == .success)
            }
        }
        #expect(stopped)
    }
}
