import AFCore
@testable import AFMultipart
import AFTestSupport
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

/// What a server-side parser made of a multipart body (the fault server's /multipart-echo).
struct ParsedForm: Decodable, Sendable {
    struct Part: Decodable, Sendable {
        let name: String?
        let filename: String?
        let contentType: String?
        let size: Int
        let sha256: String
        let base64: String?

        var data: Data? { base64.flatMap { Data(base64Encoded: $0) } }
    }

    let parts: [Part]
    let defects: [String]?

    func part(_ name: String) -> Part? { parts.first { $0.name == name } }
}

/// Multipart uploads read back by real parsers: Python's standard library (email) and Werkzeug.
@Suite(.timeLimit(.minutes(1))) struct MultipartUploadTests {
    private func temporaryFile(_ name: String, contents: Data) throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("af-multipart-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let url = directory.appendingPathComponent(name)
        try contents.write(to: url)
        return url
    }

    private let binary = Data((0..<5000).map { UInt8(($0 * 31 + 7) % 256) })

    /// A form with text fields, an awkward name, a binary file, a non-ASCII file name, a 0-byte
    /// file and a stream.
    private func fill(_ form: MultipartFormData, file: URL, emptyFile: URL) {
        form.append(Data("plain value".utf8), withName: "field")
        form.append(Data("ünïcödé välue".utf8), withName: "unicode")
        form.append(Data("quoted".utf8), withName: #"a "quoted" name"#)
        form.append(file, withName: "upload")
        form.append(binary, withName: "blob", fileName: "résumé 数据.bin", mimeType: "application/octet-stream")
        form.append(emptyFile, withName: "empty")
        form.append(InputStream(data: Data("from a stream".utf8)), withLength: 13, name: "stream",
                    fileName: "stream.txt", mimeType: "text/plain")
    }

    @Test(arguments: ["email", "werkzeug"])
    func parsersReadBackEveryFieldAndFile(parser: String) async throws {
        let file = try temporaryFile("report.json", contents: Data(#"{"ok":true}"#.utf8))
        let emptyFile = try temporaryFile("empty.txt", contents: Data())
        defer {
            try? FileManager.default.removeItem(at: file.deletingLastPathComponent())
            try? FileManager.default.removeItem(at: emptyFile.deletingLastPathComponent())
        }
        let session = makeSession()
        let parsed = try await session.upload(multipartFormData: { self.fill($0, file: file, emptyFile: emptyFile) },
                                              to: Server.faults("/multipart-echo?parser=\(parser)"))
            .validate().serializingDecodable(ParsedForm.self).value
        #expect(parsed.defects?.isEmpty ?? true)
        #expect(parsed.part("field")?.data == Data("plain value".utf8))
        #expect(parsed.part("unicode")?.data == Data("ünïcödé välue".utf8))
        #expect(parsed.part(#"a "quoted" name"#)?.data == Data("quoted".utf8))
        let upload = try #require(parsed.part("upload"))
        #expect(upload.filename == "report.json")
        #expect(upload.data == Data(#"{"ok":true}"#.utf8))
        let blob = try #require(parsed.part("blob"))
        #expect(blob.filename == "résumé 数据.bin")
        #expect(blob.data == binary)
        let empty = try #require(parsed.part("empty"))
        #expect(empty.filename == "empty.txt")
        #expect(empty.size == 0)
        #expect(parsed.part("stream")?.data == Data("from a stream".utf8))
        if parser == "email" {
            #expect(upload.contentType == "application/json")
            #expect(parsed.parts.map(\.name) == ["field", "unicode", #"a "quoted" name"#, "upload", "blob", "empty", "stream"])
        }
    }

    @Test func httpbinReadsTheFieldsAndFiles() async throws {
        struct Echo: Decodable, Sendable {
            let form: [String: String]
            let files: [String: String]
            let headers: [String: String]
        }
        let session = makeSession()
        let echo = try await session.upload(multipartFormData: { form in
            form.append(Data("value".utf8), withName: "field")
            form.append(Data("contents of a file".utf8), withName: "file", fileName: "naïve.txt", mimeType: "text/plain")
            form.append(Data(), withName: "zero", fileName: "zero.bin", mimeType: "application/octet-stream")
        }, to: Server.httpbin("/post")).validate().serializingDecodable(Echo.self).value
        #expect(echo.form["field"] == "value")
        #expect(echo.files["file"] == "contents of a file")
        #expect(echo.files["zero"] == "")
        #expect(echo.headers["Content-Type"]?.hasPrefix("multipart/form-data; boundary=alamofire.boundary.") == true)
    }

    @Test func partsAppendedWhileTheURLRequestIsMadeAreSent() async throws {
        struct Echo: Decodable, Sendable { let form: [String: String] }
        /// Fills the form when asked for its URLRequest, as some Alamofire code does.
        struct FillingRequest: URLRequestConvertible {
            let form = MultipartFormData()
            func asURLRequest() throws -> URLRequest {
                form.append(Data("français".utf8), withName: "french")
                return try URLRequest(url: Server.httpbin("/post"), method: .post)
            }
        }
        let session = makeSession()
        let convertible = FillingRequest()
        let echo = try await session.upload(multipartFormData: convertible.form, with: convertible)
            .validate().serializingDecodable(Echo.self).value
        #expect(echo.form["french"] == "français")
    }

    @Test func carriageReturnsAndLineFeedsCannotInjectHeaders() async throws {
        let session = makeSession()
        let parsed = try await session.upload(multipartFormData: { form in
            form.append(Data("x".utf8), withName: "evil\r\nX-Injected: yes", fileName: "a\r\nb.txt", mimeType: "text/plain\r\nX-Other: 1")
        }, to: Server.faults("/multipart-echo?parser=email")).serializingDecodable(ParsedForm.self).value
        let part = try #require(parsed.parts.first)
        #expect(parsed.parts.count == 1)
        #expect(part.name == "evil%0D%0AX-Injected: yes")
        #expect(part.filename == "a%0D%0Ab.txt")
        #expect(part.data == Data("x".utf8))
    }

    /// A small file of the app's: a form with it is sent from its parts, and its large `Data` part
    /// spilled to a file that has no name.
    private static let note: URL = {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("af-multipart-note-\(UUID().uuidString).txt")
        try? Data("a note".utf8).write(to: url)
        return url
    }()

    private func bigForm(_ form: MultipartFormData) {
        form.append(Data(repeating: 1, count: 300_000), withName: "big", fileName: "big.bin", mimeType: "application/octet-stream")
        form.append(Self.note, withName: "note")
    }

    /// The descriptor path a spilled upload is sent from, after checking it is one.
    private func spillFile(of request: UploadRequest) -> URL? {
        StreamedFormTests.spillFile(of: request)
    }

    @Test func aFormAboveTheThresholdIsSentFromATemporaryFileRemovedAfterwards() async throws {
        let (session, request, spilled) = uploadRecordingTheSpill(to: Server.faults("/multipart-echo?parser=email"))
        let parsed = try await request.serializingDecodable(ParsedForm.self).value
        #expect(parsed.part("big")?.size == 300_000)
        #expect(parsed.part("big")?.filename == "big.bin")
        let file = try #require(spillFile(of: request))
        let target = try #require(spilled.target)
        #expect(target.contains("/AF-multipart-"))
        #expect(Self.linkTarget(file) != target, "the descriptor is closed once the request ended")
        withExtendedLifetime(session) {}
    }

    @Test func theSpillIsPrivateAndHasNoNameAnotherUserCouldSwap() async throws {
        let session = makeSession()
        let request = session.upload(multipartFormData: bigForm, to: Server.faults("/stall"), usingThreshold: 100_000)
        let task = request.serializingData()
        _ = await response { done in request.onURLSessionTaskCreation(on: DispatchQueue(label: "test.task")) { done($0) } }
        let file = try #require(spillFile(of: request))
        // While it is sent: readable through the descriptor only, 0600; no name holds it.
        var info = stat()
        #expect(stat(file.path, &info) == 0)  // through the descriptor's link, to the file
        #expect(info.st_size == 300_000 && info.st_mode & 0o777 == 0o600 && info.st_nlink == 0)
        // The private directory it was made in went with its name: nothing is left behind.
        let target = try #require(Self.linkTarget(file))
        let directory = try #require(target.range(of: "/AF-multipart-").map { target[..<target[$0.upperBound...].firstIndex(of: "/")!] })
        #expect(!FileManager.default.fileExists(atPath: String(directory)))
        request.cancel()
        _ = await task.response
    }

    /// A form without file parts, above the threshold: written whole to a private file and
    /// uploaded as a `.file` that is removed when the request ends, as Alamofire does; a retry
    /// sends the same file again.
    @Test func aFormWithoutFilePartsIsUploadedAsAFileRemovedAtTheEnd() async throws {
        let streamed = patternBytes(120_000) { UInt8(truncatingIfNeeded: $0 * 7) }
        let key = "whole-\(UUID().uuidString)"
        let retry = RetryPolicy(retryLimit: 2, exponentialBackoffScale: 0.01, retryableHTTPMethods: [.post])
        let session = makeSession()
        let form = MultipartFormData()
        form.append(Data(repeating: 1, count: 300_000), withName: "big", fileName: "big.bin", mimeType: "application/octet-stream")
        form.append(InputStream(data: streamed), withLength: 120_000, name: "stream", fileName: "s.bin", mimeType: "application/octet-stream")
        let request = session.upload(multipartFormData: form, to: Server.faults("/multipart-echo?parser=email&key=\(key)&fail=1&status=503"),
                                     usingThreshold: 100_000, interceptor: retry).validate()
        let parsed = try await request.serializingDecodable(ParsedForm.self).value
        #expect(request.retryCount == 1)
        #expect(parsed.part("big")?.sha256 == (try sha256Hex(Data(repeating: 1, count: 300_000))))
        #expect(parsed.part("stream")?.sha256 == (try sha256Hex(streamed)))
        guard case let .file(url, shouldRemove) = request.uploadable else {
            Issue.record("expected a file body, got \(String(describing: request.uploadable))")
            return
        }
        #expect(shouldRemove)
        #expect(url.path.hasPrefix(FileManager.default.temporaryDirectory.path + "/AF-multipart-"))
        #expect(!FileManager.default.fileExists(atPath: url.path), "the file is removed once the request ended")
        #expect(!FileManager.default.fileExists(atPath: url.deletingLastPathComponent().path), "and its directory")
        withExtendedLifetime(session) {}
    }

    /// While it is sent, the form's file is 0600 in a directory only this user can enter; a
    /// cancelled request removes both.
    @Test func theFormFileIsPrivateAndGoesWhenTheRequestIsCancelled() async throws {
        let session = makeSession()
        let request = session.upload(multipartFormData: { form in
            form.append(Data(repeating: 2, count: 200_000), withName: "big")
        }, to: Server.faults("/stall"), usingThreshold: 100_000)
        let task = request.serializingData()
        _ = await response { done in request.onURLSessionTaskCreation(on: DispatchQueue(label: "test.task")) { done($0) } }
        guard case let .file(url, _) = request.uploadable else {
            Issue.record("expected a file body, got \(String(describing: request.uploadable))")
            return
        }
        let directory = url.deletingLastPathComponent().path
        let fileMode = try FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] as? Int
        let directoryMode = try FileManager.default.attributesOfItem(atPath: directory)[.posixPermissions] as? Int
        #expect(fileMode == 0o600 && directoryMode == 0o700)
        request.cancel()
        #expect(await task.response.error?.isExplicitlyCancelledError == true)
        #expect(!FileManager.default.fileExists(atPath: url.path) && !FileManager.default.fileExists(atPath: directory))
    }

    /// A stream that hands over its bytes only once let go, telling when it is first read.
    final class HeldStream: InputStream {
        let reading = DispatchSemaphore(value: 0)
        let proceed = DispatchSemaphore(value: 0)
        private var rest: Data

        init(_ data: Data) {
            rest = data
            super.init(data: Data())
        }

        override func open() {}
        override func close() {}
        override var hasBytesAvailable: Bool { !rest.isEmpty }
        override func read(_ buffer: UnsafeMutablePointer<UInt8>, maxLength length: Int) -> Int {
            if rest.count == 120_000 {
                reading.signal()
                proceed.wait()
            }
            let count = min(length, rest.count)
            rest.copyBytes(to: buffer, count: count)
            rest.removeFirst(count)
            return count
        }
    }

    /// A request cancelled while its form is being written (on the session's own request queue)
    /// ends first; the file written after that end is removed at once, not left behind.
    @Test func aFormFileWrittenAfterTheRequestEndedIsRemoved() async throws {
        let requestQueue = DispatchQueue(label: "test.requestQueue")
        _ = Server.faults("")
        let session = Session(rootQueue: DispatchQueue(label: "test.root"), requestQueue: requestQueue)
        let stream = HeldStream(Data(repeating: 5, count: 120_000))
        let boundary = "held-\(UUID().uuidString)"
        let form = MultipartFormData(boundary: boundary)
        form.append(stream, withLength: 120_000, name: "stream", fileName: "s.bin", mimeType: "application/octet-stream")
        let request = session.upload(multipartFormData: form, to: Server.faults("/sink"), usingThreshold: 100_000)
        let task = request.serializingData()
        let (reading, proceed) = (stream.reading, stream.proceed)
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            DispatchQueue.global().async { reading.wait(); done.resume() }
        }
        request.cancel()
        #expect(await task.response.error?.isExplicitlyCancelledError == true)
        proceed.signal()
        requestQueue.sync {}  // the form is written, and let go, on this queue
        let temporary = FileManager.default.temporaryDirectory
        let left = try FileManager.default.contentsOfDirectory(atPath: temporary.path).filter { name in
            guard name.hasPrefix("AF-multipart-"),
                  let bytes = FileManager.default.contents(atPath: temporary.appendingPathComponent(name).appendingPathComponent("form").path)
            else { return false }
            return bytes.range(of: Data(boundary.utf8)) != nil
        }
        #expect(left.isEmpty, "left behind: \(left)")
        withExtendedLifetime(session) {}
    }

    /// A spill's directory is private (0700) while it has the file's name.
    @Test func aSpillDirectoryIsPrivate() throws {
        let directory = try SpillDirectory.make()
        defer { rmdir(directory) }
        let mode = try FileManager.default.attributesOfItem(atPath: directory)[.posixPermissions] as? Int
        #expect(mode == 0o700)
        #expect(directory.hasPrefix(FileManager.default.temporaryDirectory.path + "/AF-multipart-"))
    }

    @Test func aFormAtTheThresholdIsEncodedInMemory() async throws {
        let session = makeSession()
        // The form's contentLength is exactly 300,006 bytes: the large part and the note's 6.
        let request = session.upload(multipartFormData: bigForm, to: Server.faults("/multipart-echo?parser=email"),
                                     usingThreshold: 300_006)
        let parsed = try await request.serializingDecodable(ParsedForm.self).value
        #expect(parsed.part("big")?.size == 300_000)
        guard case .data = request.uploadable else {
            Issue.record("expected an in-memory body, got \(String(describing: request.uploadable))")
            return
        }
    }

    @Test func theTemporaryFileGoesWhenTheRequestFails() async throws {
        let (session, request, spilled) = uploadRecordingTheSpill(to: Server.faults("/garbage"))
        let response = await request.serializingData().response
        #expect(response.error != nil)
        let file = try #require(spillFile(of: request))
        let target = try #require(spilled.target)
        #expect(target.contains("/AF-multipart-"))
        #expect(Self.linkTarget(file) != target, "the descriptor is closed once the request ended")
        withExtendedLifetime(session) {}
    }

    /// What a spilled form's descriptor pointed at while its request was set up.
    final class SpillRecord: Sendable {
        private let state = Protected<(request: UploadRequest?, target: String?)>((nil, nil))
        var target: String? { state.withLock { $0.target } }
        fileprivate func set(_ request: UploadRequest) { state.withLock { $0.request = request } }
        fileprivate func record() {
            state.withLock { $0.target = $0.request.flatMap(StreamedFormTests.spillFile(of:)).flatMap(MultipartUploadTests.linkTarget) }
        }
    }

    /// Uploads `bigForm` above the threshold, reading what its descriptor points at while the
    /// request is set up (an adapter runs after the form is spilled, before anything is sent).
    /// The descriptor's number may be reused once closed, by another test's spilled form too, so
    /// the end compares that target rather than looking for any spilled form.
    private func uploadRecordingTheSpill(to url: String) -> (Session, UploadRequest, SpillRecord) {
        let spilled = SpillRecord()
        let root = DispatchQueue(label: "test.heldRoot")
        root.suspend()
        let session = makeSession(rootQueue: root, interceptor: Adapter { urlRequest, _, completion in
            spilled.record()
            completion(.success(urlRequest))
        })
        let request = session.upload(multipartFormData: bigForm, to: url, usingThreshold: 100_000)
        spilled.set(request)
        root.resume()
        return (session, request, spilled)
    }

    private static func linkTarget(_ file: URL) -> String? {
        try? FileManager.default.destinationOfSymbolicLink(atPath: file.path)
    }

    @Test func theTemporaryFileGoesWhenTheRequestIsCancelled() async throws {
        let session = makeSession()
        let request = session.upload(multipartFormData: bigForm, to: Server.faults("/stall"), usingThreshold: 100_000)
        let task = request.serializingData()
        _ = await response { done in request.onURLSessionTaskCreation(on: DispatchQueue(label: "test.task")) { done($0) } }
        let file = try #require(spillFile(of: request))
        // Still open (the server stalls): what it points at now is this form.
        let target = try #require(Self.linkTarget(file))
        #expect(target.contains("/AF-multipart-"))
        request.cancel()
        #expect(await task.response.error?.isExplicitlyCancelledError == true)
        #expect(Self.linkTarget(file) != target, "the descriptor is closed once the request ended")
    }

    @Test func anEncodingErrorFailsTheRequestWithItsReason() async throws {
        let session = makeSession()
        let response = await session.upload(multipartFormData: { form in
            form.append(URL(fileURLWithPath: "/no/such/file"), withName: "missing")
        }, to: Server.faults("/sink")).serializingData().response
        guard case .multipartEncodingFailed(.bodyPartFileNotReachableWithError) = response.error else {
            Issue.record("expected bodyPartFileNotReachableWithError, got \(String(describing: response.error))")
            return
        }
    }
}
