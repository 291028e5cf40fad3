@testable import AFCore
import AFTestSupport
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

/// Resume data: cancelling or failing part way keeps the partial file, and resuming continues
/// it with a Range request guarded by If-Range, or starts again when the server will not.
@Suite(.timeLimit(.minutes(1))) final class DownloadResumeTests {
    /// The partial files, destinations and victims of one test (a new instance runs each).
    private let files = ScratchFiles()

    deinit { files.removeAll() }

    /// The bytes `/resumable?size=N` serves.
    private func resumableBody(_ size: Int) -> Data {
        patternBytes(size) { UInt8((7 * $0 + 3) % 256) }
    }

    private func destination() -> (URL, DownloadRequest.Destination) {
        let url = files.url("af-resumed-")
        return (url, { _, _ in (url, []) })
    }

    /// Resume data for `/resumable` with a partial file holding its first `count` bytes.
    private func handMadeResumeData(query: String, size: Int, count: Int, validator: String = "\"v1\"") throws -> (Data, URL) {
        let partial = files.url("AF-download-", suffix: ".tmp")
        try resumableBody(size).prefix(count).write(to: partial)
        var point = try #require(DownloadResumeData(after: URLRequest(url: URL(string: Server.faults("/resumable?size=\(size)&\(query)"))!),
                                                    response: ReceivedResponse(HTTPURLResponse(url: URL(string: "http://x")!, statusCode: 200,
                                                                                               httpVersion: nil, headerFields: ["ETag": validator])!),
                                                    bodyIsInFile: true, file: partial, previous: nil))
        point.validator = validator
        return (point.encoded, partial)
    }

    /// Cancels `request` with resume data once `threshold` bytes arrived; returns the data.
    private func cancelPartWay(_ request: DownloadRequest, after threshold: Int64) async -> Data? {
        let cancelled = Protected(false)
        return await response { done in
            request.downloadProgress(queue: DispatchQueue(label: "test.progress")) { progress in
                guard progress.completedUnitCount >= threshold,
                      cancelled.withLock({ let first = !$0; $0 = true; return first }) else { return }
                request.cancel(byProducingResumeData: { done($0) })
            }
            request.resume()
        }
    }

    /// nginx serves /slow/ at 4 MB/s, so the cancel lands part way; the point is random.
    /// /slow-no-etag/ sends no ETag: the resume is guarded by Last-Modified.
    @Test(arguments: ["/slow/", "/slow-no-etag/"])
    func cancelledAtARandomPointAndResumedIsByteIdentical(location: String) async throws {
        let session = makeSession()
        let size: Int64 = 4 << 20
        // At most half way: half a second of transfer is left for the cancel to land, even under ASan.
        let threshold = Int64.random(in: size / 10...size / 2)
        let first = session.download(Server.http(location + "4mb.bin"))
        let resumeData = try #require(await cancelPartWay(first, after: threshold), "threshold \(threshold)")
        #expect(first.error?.isExplicitlyCancelledError == true)
        // The handler, the request and its response hold the very same bytes.
        #expect(first.resumeData == resumeData)
        #expect(await first.serializingDownloadedFileURL().response.resumeData == resumeData)
        let point = try #require(DownloadResumeData(resumeData))
        #expect(point.offset >= threshold && point.offset < size)
        // nginx's ETag is quoted; Last-Modified is an HTTP-date.
        #expect(point.validator.hasPrefix("\"") == (location == "/slow/"))
        #expect(point.validator.hasSuffix("GMT") == (location == "/slow-no-etag/"))
        #expect(DownloadResumeData.size(of: point.partialFile) == point.offset)

        let (_, destination) = destination()
        let resumed = session.download(resumingWith: resumeData, to: destination)
        let fileURL = try await resumed.serializingDownloadedFileURL().value
        #expect(resumed.response?.statusCode == 206)
        #expect(resumed.lastRequest?.headers["Range"] == "bytes=\(point.offset)-")
        #expect(resumed.downloadProgress.completedUnitCount == size)
        #expect(resumed.downloadProgress.totalUnitCount == size)
        let expected = try await session.request(Server.http("/static/4mb.bin")).serializingData().value
        #expect(try Data(contentsOf: fileURL) == expected)
        #expect(!FileManager.default.fileExists(atPath: point.partialFile.path))
    }

    /// Monitors hear where a resumed download starts and the whole file's size: the offset plus
    /// the 206's length, or unknown (-1) when the 206 announces none (sent chunked).
    @Test(arguments: [("", Int64(1000)), ("mode=chunked", Int64(-1))])
    func monitorsHearTheResumeOffsetAndTheExpectedTotal(query: String, expectedTotal: Int64) async throws {
        let monitor = ClosureEventMonitor(queue: DispatchQueue(label: "test.resume-monitor"))
        let heard = Protected<[(Int64, Int64)]>([])
        monitor.downloadTaskDidResumeAtOffset = { _, _, offset, total in heard.withLock { $0.append((offset, total)) } }
        let session = makeSession(eventMonitors: [monitor])
        let (resumeData, _) = try handMadeResumeData(query: query, size: 1000, count: 300)
        let (_, destination) = destination()
        let resumed = session.download(resumingWith: resumeData, to: destination)
        let data = try await resumed.serializingData().value
        monitor.queue.sync {}
        #expect(resumed.response?.statusCode == 206)
        #expect(data == resumableBody(1000))
        let events = heard.value
        #expect(events.count == 1)
        #expect(events.first?.0 == 300)
        #expect(events.first?.1 == expectedTotal)
    }

    /// A resumed download that ends before its exchange begins (its adapter fails) leaves the
    /// caller's partial file in place and hands the point back as its resume data.
    @Test func anAdapterFailureKeepsTheCallersPartialFile() async throws {
        let (resumeData, partial) = try handMadeResumeData(query: "", size: 1000, count: 300)
        let failing = Adapter { _, _, completion in completion(.failure(URLError(.notConnectedToInternet))) }
        let session = makeSession()
        let response = await session.download(resumingWith: resumeData, interceptor: failing).serializingData().response
        #expect(response.error?.isRequestAdaptationError == true)
        #expect(FileManager.default.fileExists(atPath: partial.path))
        let kept = try #require(response.resumeData)
        #expect(DownloadResumeData(kept)?.offset == 300)

        let (_, destination) = destination()
        let data = try await session.download(resumingWith: kept, to: destination).serializingData().value
        #expect(data == resumableBody(1000))
    }

    /// Cancelling with resume data while the adapter still works: the handler gets the caller's
    /// point back and the partial file stays; a plain cancel gives the file up.
    @Test(arguments: [true, false])
    func aCancelBeforeTheExchangeBegins(producingResumeData: Bool) async throws {
        let (resumeData, partial) = try handMadeResumeData(query: "", size: 1000, count: 300)
        let adapting = Gate(opensAfter: 1)
        let released = Gate(opensAfter: 1)
        let holding = Adapter { urlRequest, _, completion in
            adapting.arrive()
            DispatchQueue.global().async {
                released.wait()
                completion(.success(urlRequest))
            }
        }
        let session = makeSession()
        let request = session.download(resumingWith: resumeData, interceptor: holding)
        let task = request.serializingData()
        adapting.wait()
        let handed: Data?? = producingResumeData ? .some(await withCheckedContinuation { continuation in
            request.cancel(byProducingResumeData: { continuation.resume(returning: $0) })
        }) : .none
        if !producingResumeData { request.cancel() }
        released.arrive()
        let response = await task.response
        #expect(response.error?.isExplicitlyCancelledError == true)
        #expect(FileManager.default.fileExists(atPath: partial.path) == producingResumeData)
        #expect((response.resumeData != nil) == producingResumeData)
        if producingResumeData {
            let point = try #require(handed.flatMap { $0 }.flatMap(DownloadResumeData.init))
            #expect(point.offset == 300)
        }
    }

    @Test func httpbinRangeDownloadResumes() async throws {
        let session = makeSession()
        let path = "/range/40000?duration=2&chunk_size=1000"
        let first = session.download(Server.httpbin(path))
        let resumeData = try #require(await cancelPartWay(first, after: Int64.random(in: 5000...30000)))
        let (_, destination) = destination()
        let resumed = session.download(resumingWith: resumeData, to: destination)
        let data = try await resumed.serializingData().value
        #expect(resumed.response?.statusCode == 206)
        let expected = try await session.request(Server.httpbin("/range/40000")).serializingData().value
        #expect(data == expected)
    }

    @Test func aFailurePartWayLeavesResumeDataAndResumingCompletesTheFile() async throws {
        for validator in ["etag", "date"] {
            let session = makeSession()
            let url = Server.faults("/resumable?size=100000&cut=30000&validator=\(validator)")
            let first = await session.download(url).serializingData().response
            #expect(first.error?.isSessionTaskError == true)
            let resumeData = try #require(first.resumeData)
            let point = try #require(DownloadResumeData(resumeData))
            files.track(point.partialFile)  // left when resuming fails
            #expect(point.offset == 30000)
            #expect(try Data(contentsOf: point.partialFile) == resumableBody(100000).prefix(30000))

            let (_, destination) = destination()
            let resumed = session.download(resumingWith: resumeData, to: destination)
            let data = try await resumed.serializingData().value
            #expect(resumed.response?.statusCode == 206)
            #expect(resumed.lastRequest?.headers["If-Range"] == (validator == "etag" ? "\"v1\"" : "Wed, 21 Oct 2026 07:28:00 GMT"))
            #expect(data == resumableBody(100000))
        }
    }

    @Test func aRetryContinuesWhereTheFailedAttemptStopped() async throws {
        let session = makeSession()
        let request = session.download(Server.faults("/resumable?size=50000&cut=20000"), interceptor: .retryPolicy)
        let response = await request.serializingData().response
        if let file = response.fileURL { files.track(file) }
        #expect(response.value == resumableBody(50000))
        #expect(request.retryCount == 1)
        #expect(request.response?.statusCode == 206)
        #expect(request.resumeData == nil)
    }

    /// short: a 206 that stops before the end of the file would leave a truncated file.
    @Test(arguments: ["ignore", "wrong", "416", "short"])
    func aServerThatWillNotContinueGetsTheWholeBodyAgain(mode: String) async throws {
        let (resumeData, _) = try handMadeResumeData(query: "mode=\(mode)", size: 20000, count: 5000)
        let session = makeSession()
        let (_, destination) = destination()
        let request = session.download(resumingWith: resumeData, to: destination)
        let data = try await request.serializingData().value
        #expect(data == resumableBody(20000))
        #expect(request.response?.statusCode == 200)
    }

    @Test func aChangedValidatorGetsTheWholeNewBody() async throws {
        let (resumeData, partial) = try handMadeResumeData(query: "", size: 20000, count: 5000, validator: "\"old\"")
        try Data(repeating: 0xEE, count: 5000).write(to: partial)  // bytes of the old version
        let session = makeSession()
        let (_, destination) = destination()
        let request = session.download(resumingWith: resumeData, to: destination)
        let data = try await request.serializingData().value
        #expect(request.response?.statusCode == 200)
        #expect(data == resumableBody(20000))
    }

    @Test func anErrorAnswerLeavesThePartialFileResumable() async throws {
        let (resumeData, partial) = try handMadeResumeData(query: "mode=error", size: 20000, count: 5000)
        let session = makeSession()
        let (_, destination) = destination()
        let response = await session.download(resumingWith: resumeData, to: destination).serializingString().response
        #expect(response.response?.statusCode == 503)
        #expect(response.value == "busy, try later")
        #expect(try Data(contentsOf: partial) == resumableBody(20000).prefix(5000))
        #expect(response.resumeData.flatMap(DownloadResumeData.init) == DownloadResumeData(resumeData))
    }

    @Test func aLargeErrorAnswerArrivesWholeAndLeavesThePartialFileResumable() async throws {
        let (resumeData, partial) = try handMadeResumeData(query: "mode=error&answerSize=3000000", size: 20000, count: 5000)
        let session = makeSession()
        let (url, destination) = destination()
        let request = session.download(resumingWith: resumeData, to: destination)
        let response = await request.serializingData().response
        #expect(response.response?.statusCode == 503)
        #expect(response.fileURL == url)
        #expect(response.value == patternBytes(3_000_000) { UInt8(truncatingIfNeeded: 5 * $0 + 1) })
        #expect(try Data(contentsOf: partial) == resumableBody(20000).prefix(5000))
        #expect(response.resumeData.flatMap(DownloadResumeData.init) == DownloadResumeData(resumeData))
    }

    @Test func anErrorAnswerCutShortLeavesNoFileBehind() async throws {
        // The answer's file gets the 1,234,567 bytes that came before the cut; the failed
        // request must remove it. No other test writes a temporary file of that size.
        let cut = 1_234_567
        let (resumeData, partial) = try handMadeResumeData(query: "mode=error&answerSize=3000000&answerCut=\(cut)",
                                                           size: 20000, count: 5000)
        let session = makeSession()
        let (url, destination) = destination()
        let response = await session.download(resumingWith: resumeData, to: destination).serializingData().response
        #expect(response.error?.isSessionTaskError == true)
        #expect(response.fileURL == nil && !FileManager.default.fileExists(atPath: url.path))
        #expect(try Data(contentsOf: partial) == resumableBody(20000).prefix(5000))
        #expect(response.resumeData.flatMap(DownloadResumeData.init) == DownloadResumeData(resumeData))
        let directory = FileManager.default.temporaryDirectory
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { name in
            guard name.hasPrefix("AF-download-"),
                  let size = try? FileManager.default.attributesOfItem(atPath: directory.appendingPathComponent(name).path)[.size] as? Int
            else { return false }
            return size == cut
        }
        #expect(leftovers.isEmpty)
    }

    @Test func aMissingPartialFileStartsFromZero() async throws {
        let (resumeData, partial) = try handMadeResumeData(query: "", size: 20000, count: 5000)
        try FileManager.default.removeItem(at: partial)
        let session = makeSession()
        let (_, destination) = destination()
        let request = session.download(resumingWith: resumeData, to: destination)
        let data = try await request.serializingData().value
        #expect(request.lastRequest?.headers["Range"] == nil)
        #expect(data == resumableBody(20000))
    }

    @Test func resumeDataThatIsNotAFsFailsTheRequest() async throws {
        let session = makeSession()
        for data in [Data("garbage".utf8), Data(#"{"version":1,"url":"http://x","headers":{},"partialFileName":"../../etc/passwd","offset":1,"validator":"x"}"#.utf8)] {
            let response = await session.download(resumingWith: data).serializingData().response
            #expect(response.error?.isCreateURLRequestError == true)
        }
    }

    @Test func resumeDataNamingAnyFileButAnAFPartialIsRefused() async throws {
        let session = makeSession()
        let victim = files.url("af-victim-", suffix: ".txt")
        try Data("keep me".utf8).write(to: victim)
        let (genuine, _) = try handMadeResumeData(query: "", size: 20000, count: 5000)
        var point = try #require(DownloadResumeData(genuine))
        for name in [victim.lastPathComponent, "AF-download-not-a-uuid.tmp", "AF-download-\(UUID().uuidString).txt"] {
            point.partialFileName = name
            #expect(DownloadResumeData(point.encoded) == nil, "\(name)")
            let (url, destination) = self.destination()
            let response = await session.download(resumingWith: point.encoded, to: destination).serializingData().response
            #expect(response.error?.isCreateURLRequestError == true, "\(name)")
            #expect(!FileManager.default.fileExists(atPath: url.path))
        }
        #expect(try Data(contentsOf: victim) == Data("keep me".utf8))
    }

    /// Resume data for `/resumable` (20000 bytes, 5000 of them in the partial file) whose
    /// partial file was replaced by what `plant` puts at its path; the victim file `plant` may
    /// point at holds 8000 "A"s. Returns the resumed request, its body and the victim.
    private func resumeOverPlanted(_ plant: (_ partial: URL, _ victim: URL) throws -> Void) async throws
        -> (request: DownloadRequest, body: Data, victim: URL) {
        let session = makeSession()
        let victim = files.url("af-victim-", suffix: ".txt")
        try Data(repeating: 0x41, count: 8000).write(to: victim)
        let (resumeData, partial) = try handMadeResumeData(query: "", size: 20000, count: 5000)
        try FileManager.default.removeItem(at: partial)
        try plant(partial, victim)
        let (_, destination) = destination()
        let request = session.download(resumingWith: resumeData, to: destination)
        let body = try await request.serializingData().value
        return (request, body, victim)
    }

    @Test func aSymbolicLinkOrAStrangerAtThePartialPathIsNotContinued() async throws {
        // A symbolic link planted where the partial file was: never followed, the download starts over.
        var planted: URL?
        let (request, data, victim) = try await resumeOverPlanted { partial, victim in
            planted = partial
            try FileManager.default.createSymbolicLink(at: partial, withDestinationURL: victim)
        }
        let partial = try #require(planted)
        #expect(request.lastRequest?.headers["Range"] == nil)
        #expect(data == resumableBody(20000))
        #expect(try Data(contentsOf: victim) == Data(repeating: 0x41, count: 8000), "the link's target is untouched")
        #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: partial.path)) != nil, "the link itself stays")
        let session = makeSession()

        // A directory there: not a regular file either.
        let (otherData, otherPartial) = try handMadeResumeData(query: "", size: 20000, count: 5000)
        try FileManager.default.removeItem(at: otherPartial)
        try FileManager.default.createDirectory(at: otherPartial, withIntermediateDirectories: false)
        let (_, otherDestination) = self.destination()
        #expect(try await session.download(resumingWith: otherData, to: otherDestination).serializingData().value == resumableBody(20000))
    }

    /// A hard link named like the partial file, to another file of the user's: not continued
    /// (the download starts over in a file of its own), and that file is left as it was.
    @Test func aHardLinkAtThePartialPathIsNotContinued() async throws {
        var planted: URL?
        let (request, data, victim) = try await resumeOverPlanted { partial, victim in
            planted = partial
            try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: victim.path)
            try FileManager.default.linkItem(at: victim, to: partial)
        }
        let partial = try #require(planted)
        #expect(request.lastRequest?.headers["Range"] == nil)
        #expect(data == resumableBody(20000))
        #expect(try Data(contentsOf: victim) == Data(repeating: 0x41, count: 8000), "the linked file is untouched")
        #expect(try FileManager.default.attributesOfItem(atPath: victim.path)[.posixPermissions] as? Int == 0o644)

        // The writer refuses such a file too, whether continuing or starting it.
        for offset in [Int64(0), 100] {
            #expect(throws: URLError.self) { try FileDownloadWriter(target: DownloadTarget(file: partial, resumeOffset: offset)) }
        }
        #expect(try Data(contentsOf: victim) == Data(repeating: 0x41, count: 8000))
    }

    @Test func theWriterRefusesALinkOrAnotherKindOfFile() throws {
        let victim = files.url("af-victim-")
        try Data("keep".utf8).write(to: victim)
        let link = files.url("AF-download-", suffix: ".tmp")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: victim)
        #expect(throws: URLError.self) { try FileDownloadWriter(target: DownloadTarget(file: link, resumeOffset: 0)) }
        #expect(try Data(contentsOf: victim) == Data("keep".utf8), "not truncated through the link")
        let folder = files.url("AF-download-", suffix: ".tmp")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false)
        #expect(throws: URLError.self) { try FileDownloadWriter(target: DownloadTarget(file: folder, resumeOffset: 0)) }
        // A fresh file is this user's alone; a looser partial of its own is tightened when continued.
        let fresh = files.url("AF-download-", suffix: ".tmp")
        _ = try FileDownloadWriter(target: DownloadTarget(file: fresh, resumeOffset: 0))
        #expect(try FileManager.default.attributesOfItem(atPath: fresh.path)[.posixPermissions] as? Int == 0o600)
        let loose = files.url("AF-download-", suffix: ".tmp")
        try Data(count: 100).write(to: loose)
        try FileManager.default.setAttributes([.posixPermissions: 0o666], ofItemAtPath: loose.path)
        _ = try FileDownloadWriter(target: DownloadTarget(file: loose, resumeOffset: 50))
        #expect(try FileManager.default.attributesOfItem(atPath: loose.path)[.posixPermissions] as? Int == 0o600)
        #expect(try Data(contentsOf: loose).count == 100, "continued, not cut")
    }

    /// A body starting from zero replaces what the file held (before the writer, or an earlier
    /// response's body); one continuing keeps the bytes before the offset and drops the rest; a
    /// fresh, empty file takes the body as it is.
    @Test func theWriterCutsWhatTheNewBodyDoesNotKeep() throws {
        func written(over old: Data, offset: Int64, earlierBody: String? = nil) throws -> Data {
            let file = files.url("AF-download-", suffix: ".tmp")
            try old.write(to: file)
            let writer = try FileDownloadWriter(target: DownloadTarget(file: file, resumeOffset: offset))
            for body in [earlierBody, "new"].compactMap({ $0 }) {
                writer.start(keeping: offset)
                #expect(Data(body.utf8).withUnsafeBytes { writer.write($0.baseAddress!, count: $0.count) })
                #expect(writer.flush())
            }
            return try Data(contentsOf: file)
        }
        #expect(try written(over: Data("0123456789".utf8), offset: 0) == Data("new".utf8))
        #expect(try written(over: Data("0123456789".utf8), offset: 4) == Data("0123new".utf8))
        #expect(try written(over: Data(), offset: 0) == Data("new".utf8))
        #expect(try written(over: Data(), offset: 0, earlierBody: "an earlier response's body") == Data("new".utf8))
        #expect(try written(over: Data("0123456789".utf8), offset: 4, earlierBody: "an earlier body") == Data("0123new".utf8))
    }

    @Test func resumeDataCarriesNoCredentials() async throws {
        let session = makeSession()
        let response = await session.download(Server.faults("/resumable?size=10000&cut=3000"),
                                              headers: [.authorization(bearerToken: "secret-token"), .init(name: "X-Trace", value: "kept")])
            .serializingData().response
        let resumeData = try #require(response.resumeData)
        #expect(!String(decoding: resumeData, as: UTF8.self).contains("secret-token"))
        let point = try #require(DownloadResumeData(resumeData))
        #expect(point.headers["X-Trace"] == "kept")
        files.track(point.partialFile)
    }

    @Test func cancellingAFinishedDownloadGivesNoResumeData() async throws {
        let session = makeSession()
        let request = session.download(Server.http("/static/small.json"))
        let fileURL = try await request.serializingDownloadedFileURL().value
        files.track(fileURL)
        let data: Data? = await response { done in request.cancel(byProducingResumeData: { done($0) }) }
        #expect(data == nil)
        #expect(request.resumeData == nil)
    }
}
