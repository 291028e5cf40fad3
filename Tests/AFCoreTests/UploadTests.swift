@testable import AFCore
import AFTestSupport
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

/// UploadRequest from Data and files, against httpbin.
@Suite(.timeLimit(.minutes(1))) struct UploadTests {
    /// A temporary file with `size` bytes of text; removed by the caller.
    private func textFile(size: Int) throws -> (URL, String) {
        let line = "the quick brown fox jumps over the lazy dog 0123456789\n"
        let text = String(repeating: line, count: size / line.utf8.count + 1).prefix(size)
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("af-upload-\(UUID().uuidString).txt")
        try Data(text.utf8).write(to: url)
        return (url, String(text))
    }

    @Test func uploadData() async throws {
        let session = makeSession()
        let echo = try await session.upload(Data("hello body".utf8), to: Server.httpbin("/post"),
                                            headers: [.contentType("text/plain")])
            .serializingDecodable(HTTPBinResponse.self).value
        #expect(echo.data == "hello body")
    }

    @Test func uploadFileWithProgress() async throws {
        let (url, text) = try textFile(size: 3 << 20)
        defer { try? FileManager.default.removeItem(at: url) }
        let session = makeSession()
        let last = Protected<(Int64, Int64)>((0, 0))
        let request = session.upload(url, to: Server.httpbin("/anything"), method: .put,
                                     headers: [.contentType("text/plain")])
            .uploadProgress(queue: DispatchQueue(label: "test.progress")) { progress in
                last.withLock { $0 = (progress.completedUnitCount, progress.totalUnitCount) }
            }
        let echo = try await request.serializingDecodable(HTTPBinResponse.self).value
        #expect(echo.method == "PUT")
        #expect(echo.data == text)
        // Handlers may still be in flight on their queue; the progress object is final.
        #expect(request.uploadProgress.completedUnitCount == Int64(text.utf8.count))
        #expect(request.uploadProgress.totalUnitCount == Int64(text.utf8.count))
    }

    @Test func aRedirect307ResendsTheFile() async throws {
        // httpbin answers the 307 without reading the body and closes; a body small enough for
        // one send keeps a loaded machine from hitting that close mid-send (EPIPE, see the note
        // on early answers in the Recipes article).
        let (url, text) = try textFile(size: 20_000)
        defer { try? FileManager.default.removeItem(at: url) }
        let session = makeSession()
        let echo = try await session.upload(url, to: Server.httpbin("/redirect-to?url=/anything&status_code=307"),
                                            headers: [.contentType("text/plain")])
            .serializingDecodable(HTTPBinResponse.self).value
        #expect(echo.method == "POST")
        #expect(echo.data == text)
    }

    @Test func aRedirect303DropsTheBody() async throws {
        let (url, _) = try textFile(size: 10_000)
        defer { try? FileManager.default.removeItem(at: url) }
        let session = makeSession()
        let echo = try await session.upload(url, to: Server.httpbin("/redirect-to?url=/anything&status_code=303"))
            .serializingDecodable(HTTPBinResponse.self).value
        #expect(echo.method == "GET")
        #expect(echo.data == "")
    }

    @Test func aMissingFileFailsTheTask() async {
        let session = makeSession()
        let missing = URL(fileURLWithPath: "/nonexistent/af-\(UUID().uuidString)")
        let error = await session.upload(missing, to: Server.httpbin("/post")).serializingData().response.error
        #expect(error?.isSessionTaskError == true)
        #expect(error?.urlErrorCode == .fileDoesNotExist)
    }

    @Test func aDirectoryFailsTheTask() async {
        let session = makeSession()
        let error = await session.upload(FileManager.default.temporaryDirectory, to: Server.httpbin("/post"))
            .serializingData().response.error
        #expect(error?.urlErrorCode == .fileIsDirectory)
    }

    @Test func aFileMarkedForRemovalIsRemovedAtTheEnd() async throws {
        let (url, text) = try textFile(size: 1000)
        let session = makeSession()
        let upload = Upload(request: try URLRequest(url: Server.httpbin("/post"), method: .post),
                            uploadable: UploadRequest.Uploadable.file(url, shouldRemove: true))
        let echo = try await session.upload(upload).serializingDecodable(HTTPBinResponse.self).value
        #expect(echo.data == text)
        #expect(!FileManager.default.fileExists(atPath: url.path))
    }

    @Test func uploadStream() async throws {
        let (url, text) = try textFile(size: 1 << 20)
        defer { try? FileManager.default.removeItem(at: url) }
        let stream = try #require(InputStream(url: url))
        let session = makeSession()
        let echo = try await session.upload(stream, to: Server.httpbin("/anything"), headers: [.contentType("text/plain")])
            .serializingDecodable(HTTPBinResponse.self).value
        #expect(echo.data == text)
        #expect(echo.headers["Transfer-Encoding"] == "chunked" || echo.headers["Content-Length"] == nil)
    }

    @Test func aSlowStreamDoesNotHoldOtherTransfers() async throws {
        // The stream is a FIFO whose writer starts only after another request on the same
        // session has finished: if reading the stream blocked the engine thread, it could not.
        let fifo = FileManager.default.temporaryDirectory.appendingPathComponent("af-fifo-\(UUID().uuidString)")
        #expect(mkfifo(fifo.path, 0o600) == 0)
        defer { try? FileManager.default.removeItem(at: fifo) }
        let reader = try #require(InputStream(fileAtPath: fifo.path))
        let session = makeSession()
        let upload = session.upload(reader, to: Server.httpbin("/anything"), headers: [.contentType("text/plain")])
            .serializingDecodable(HTTPBinResponse.self)
        let other = try await session.request(Server.httpbin("/get")).serializingData().value
        #expect(!other.isEmpty)
        let path = fifo.path
        DispatchQueue(label: "test.fifo-writer").async {
            let writer = FileHandle(forWritingAtPath: path)
            writer?.write(Data("streamed body".utf8))
            try? writer?.close()
        }
        #expect(try await upload.value.data == "streamed body")
    }

    @Test func aURLRequestsBodyStreamIsSentAsURLSessionSendsIt() async throws {
        let session = makeSession()
        var request = URLRequest(url: try #require(URL(string: Server.httpbin("/anything"))))
        request.httpMethod = "PUT"
        request.httpBodyStream = InputStream(data: Data("from the request's stream".utf8))
        let echo = try await session.request(request).serializingDecodable(HTTPBinResponse.self).value
        #expect(echo.data == "from the request's stream")

        // A stream request (whose response is streamed too) sends it the same way.
        request.httpBodyStream = InputStream(data: Data("both ways".utf8))
        var received = Data()
        for await chunk in session.streamRequest(request).streamTask().streamingData() {
            if case let .stream(.success(data)) = chunk.event { received += data }
        }
        #expect(try JSONDecoder().decode(HTTPBinResponse.self, from: received).data == "both ways")
    }

    @Test func aStreamCannotFollowA307() async {
        let session = makeSession()
        let error = await session.upload(InputStream(data: Data("once".utf8)),
                                         to: Server.httpbin("/redirect-to?url=/anything&status_code=307"))
            .serializingData().response.error
        #expect(error?.urlErrorCode == .requestBodyStreamExhausted)
    }
}

@Suite(.timeLimit(.minutes(1))) struct UploadEventTests {
    @Test func uploadEventsReachAClosureMonitor() async throws {
        let monitor = ClosureEventMonitor(queue: DispatchQueue(label: "test.upload-events"))
        let created = Protected(0)
        let sent = Protected<Int64>(0)
        monitor.requestDidCreateUploadable = { _, _ in created.withLock { $0 += 1 } }
        monitor.taskDidSendBodyData = { _, _, _, total, _ in sent.withLock { $0 = max($0, total) } }
        let session = makeSession(eventMonitors: [monitor])
        let body = Data(repeating: 7, count: 300_000)
        _ = try await session.upload(body, to: Server.httpbin("/post")).serializingData().value
        monitor.queue.sync {}
        #expect(created.value == 1)
        #expect(sent.value == Int64(body.count))
    }

    @Test func aFailingUploadableIsReported() async {
        struct NoBody: UploadableConvertible {
            struct Missing: Error {}
            func createUploadable() throws -> UploadRequest.Uploadable { throw Missing() }
        }
        let monitor = ClosureEventMonitor(queue: DispatchQueue(label: "test.upload-failure"))
        let failed = Protected(false)
        monitor.requestDidFailToCreateUploadableWithError = { _, _ in failed.withLock { $0 = true } }
        let session = makeSession(eventMonitors: [monitor])
        let upload = Upload(request: try! URLRequest(url: Server.httpbin("/post"), method: .post), uploadable: NoBody())
        let error = await session.upload(upload).serializingData().response.error
        monitor.queue.sync {}
        guard case .createUploadableFailed = error else {
            Issue.record("expected createUploadableFailed, got \(String(describing: error))")
            return
        }
        #expect(failed.value)
    }
}
