@testable import AFCore
import AFTestSupport
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

/// Bad inputs and misbehaving servers: each ends with the documented error, none hangs.
@Suite(.timeLimit(.minutes(1))) struct FailureTests {
    @Test func invalidURL() async {
        let session = makeSession()
        let error = await session.request("").serializingData().response.error
        #expect(error?.isInvalidURLError == true)
        #expect(session.hasNoActiveRequests)
    }

    @Test func aURLWithoutSchemeIsRequestedAndFailsAsUnsupported() async {
        let session = makeSession()
        for url in ["invalid", "not a url", "//127.0.0.1/x", "http:///x", "ftp://127.0.0.1/"] {
            let response = await session.request(url).serializingData().response
            #expect(response.error?.isSessionTaskError == true, "\(url): \(String(describing: response.error))")
            #expect(response.error?.urlErrorCode == .unsupportedURL, "\(url)")
            #expect(response.request?.url?.absoluteString == URL(string: url)?.absoluteString, "\(url): the request is kept")
            #expect(response.metrics != nil, "\(url): and its metrics")
        }
        let download = await session.download("invalid").serializingData().response
        #expect(download.error?.urlErrorCode == .unsupportedURL)
    }

    @Test func aFileURLIsReadAsURLSessionReadsIt() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("af-file-url-\(uniqueKey()).json")
        try Data(#"{"a":1}"#.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let session = makeSession()
        #expect(try await session.request(file).serializingData().value == Data(#"{"a":1}"#.utf8))
        let downloaded = await session.download(file).serializingData().response
        if let fileURL = downloaded.fileURL { try? FileManager.default.removeItem(at: fileURL) }
        #expect(try downloaded.result.get() == Data(#"{"a":1}"#.utf8))
        let missing = await session.request(file.appendingPathExtension("gone")).serializingData().response
        #expect(missing.error?.isSessionTaskError == true, "\(String(describing: missing.error))")
    }

    @Test func getWithBody() async throws {
        let session = makeSession()
        var request = try URLRequest(url: Server.httpbin("/get"), method: .get)
        request.httpBody = Data("body".utf8)
        let error = await session.request(request).serializingData().response.error
        #expect(error?.isURLRequestValidationError == true)
    }

    @Test func connectionRefused() async {
        let session = makeSession()
        let error = await session.request("http://127.0.0.1:1/").serializingData().response.error
        #expect(error?.isSessionTaskError == true)
        #expect(error?.urlErrorCode == .cannotConnectToHost)
    }

    @Test func unknownHost() async {
        let session = makeSession()
        let error = await session.request("http://host.invalid/").serializingData().response.error
        #expect(error?.urlErrorCode == .cannotFindHost)
    }

    @Test func timeout() async throws {
        let session = makeSession()
        var request = try URLRequest(url: Server.faults("/stall"), method: .get)
        request.timeoutInterval = 1
        let error = await session.request(request).serializingData().response.error
        #expect(error?.urlErrorCode == .timedOut)
    }

    @Test func serverClosesMidBody() async {
        let session = makeSession()
        let error = await session.request(Server.faults("/close-mid-body")).serializingData().response.error
        #expect(error?.urlErrorCode == .networkConnectionLost)
    }

    @Test func contentLengthLie() async {
        let session = makeSession()
        let response = await session.request(Server.faults("/length-lie")).serializingData().response
        #expect(response.error?.urlErrorCode == .networkConnectionLost)
        #expect(response.response?.statusCode == 200)
    }

    @Test func notHTTP() async {
        let session = makeSession()
        let error = await session.request(Server.faults("/garbage")).serializingData().response.error
        #expect(error?.urlErrorCode == .badServerResponse)
    }

    /// A status line curl 7.88 lets through but that has no three-digit code ("HTTP/2 1000"): no
    /// response to report, so the request fails as for any bad reply, not as a success without one.
    @Test func aStatusCodeOfFourDigits() async {
        let session = makeSession()
        let response = await session.request(Server.faults("/four-digit-status")).validate().serializingData().response
        #expect(response.error?.urlErrorCode == .badServerResponse)
        #expect(response.response == nil)
    }

    @Test func malformedJSON() async {
        struct Value: Decodable, Sendable { let key: String }
        let session = makeSession()
        let error = await session.request(Server.faults("/malformed-json")).serializingDecodable(Value.self).response.error
        #expect(error?.isResponseSerializationError == true)
        guard case .responseSerializationFailed(.decodingFailed) = error else {
            Issue.record("expected decodingFailed, got \(String(describing: error))")
            return
        }
    }

    @Test func explicitCancellation() async {
        let session = makeSession()
        let request = session.request(Server.faults("/stall"))
        let task = request.serializingData()
        request.cancel()
        let error = await task.response.error
        #expect(error?.isExplicitlyCancelledError == true)
        #expect(request.isCancelled)
    }

    @Test func cancellingASwiftTaskCancelsTheRequest() async {
        let session = makeSession()
        let request = session.request(Server.faults("/stall"))
        let waiter = Task { await request.serializingData().response }
        waiter.cancel()
        let error = await waiter.value.error
        #expect(error?.isExplicitlyCancelledError == true)
    }

    @Test func cancelRunningTransfer() async throws {
        let session = makeSession()
        let request = session.request(Server.faults("/stall"))
        let task = request.serializingData()
        let created: URLSessionTask = await response { done in request.onURLSessionTaskCreation(on: .main) { done($0) } }
        #expect(created.originalRequest?.url?.path == "/stall")
        request.cancel()
        #expect(await task.response.error?.isExplicitlyCancelledError == true)
    }
}
