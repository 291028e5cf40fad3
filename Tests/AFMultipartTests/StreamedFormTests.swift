@testable import AFMultipart
import AFTestSupport
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

/// Forms above the threshold are sent from their parts: files read where they are, `Data` in
/// memory below the threshold, only what cannot be read twice spilled; replays send the same
/// bytes; a file changed after it was added fails before anything is sent.
@Suite(.timeLimit(.minutes(1))) struct StreamedFormTests {
    /// A scratch directory with files of known content, removed at the end.
    final class Scratch: @unchecked Sendable {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("af-form-\(UUID().uuidString)")
        init() { try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true) }
        deinit { try? FileManager.default.removeItem(at: directory) }

        func file(_ name: String, size: Int) throws -> URL {
            let url = directory.appendingPathComponent(name)
            try patternBytes(size, segment: 1 << 11) { UInt8(truncatingIfNeeded: $0 &* 13 &+ $0 >> 11) }.write(to: url)
            return url
        }
    }

    /// The descriptor path of a request's spilled parts, if it has any.
    static func spillFile(of request: UploadRequest) -> URL? {
        segments(of: request)?.segments.lazy.compactMap { segment -> URL? in
            guard case let .file(url, _, _, _) = segment, url.path.hasPrefix("/proc/self/fd/") else { return nil }
            return url
        }.first
    }

    static func segments(of request: UploadRequest) -> UploadSegments? {
        guard case let .stream(stream) = request.uploadable else { return nil }
        return (stream as? any UploadSegmentsProviding)?.uploadSegments
    }

    @Test func aFormOfFilesIsSentFromTheFilesThemselves() async throws {
        let scratch = Scratch()
        let file = try scratch.file("photo.bin", size: 1_500_000)
        let session = makeSession()
        let request = session.upload(multipartFormData: { form in
            form.append(Data("hello".utf8), withName: "note")
            form.append(file, withName: "photo")
        }, to: Server.faults("/multipart-echo?parser=email"), usingThreshold: 100_000)
        let parsed = try await request.serializingDecodable(ParsedForm.self).value
        #expect(parsed.parts.map(\.name) == ["note", "photo"])
        #expect(parsed.part("note")?.data == Data("hello".utf8))
        #expect(parsed.part("photo")?.size == 1_500_000)
        #expect(parsed.part("photo")?.sha256 == (try sha256Hex(Data(contentsOf: file))))
        #expect(parsed.defects?.isEmpty != false)
        let segments = try #require(Self.segments(of: request))
        #expect(Self.spillFile(of: request) == nil, "nothing is copied to a temporary file")
        #expect(segments.segments.contains { if case .file(file, 0, 1_500_000, 1_500_000) = $0 { true } else { false } })
    }

    @Test func streamsAreSpilledAndSmallDataStaysInMemory() async throws {
        let scratch = Scratch()
        let file = try scratch.file("doc.bin", size: 200_000)
        let streamed = Data(repeating: 7, count: 150_000)
        let session = makeSession()
        let request = session.upload(multipartFormData: { form in
            form.append(Data(repeating: 3, count: 50_000), withName: "small", fileName: "small.bin", mimeType: "application/octet-stream")
            form.append(InputStream(data: streamed), withLength: 150_000, name: "stream", fileName: "s.bin", mimeType: "application/octet-stream")
            form.append(file, withName: "doc")
        }, to: Server.faults("/multipart-echo?parser=email"), usingThreshold: 100_000)
        let parsed = try await request.serializingDecodable(ParsedForm.self).value
        #expect(parsed.part("small")?.sha256 == (try sha256Hex(Data(repeating: 3, count: 50_000))))
        #expect(parsed.part("stream")?.sha256 == (try sha256Hex(streamed)))
        #expect(parsed.part("doc")?.sha256 == (try sha256Hex(Data(contentsOf: file))))
        let segments = try #require(Self.segments(of: request))
        // Only the stream went to the spill; the 50 kB of Data (below the threshold) stayed in memory.
        let spilled = segments.segments.compactMap { segment -> UInt64? in
            guard case let .file(url, _, length, _) = segment, url.path.hasPrefix("/proc/self/fd/") else { return nil }
            return length
        }
        #expect(spilled == [150_000])
        #expect(segments.segments.contains { if case let .bytes(data) = $0 { data.count == 50_000 } else { false } })
    }

    enum Replay: String, CaseIterable, Sendable {
        case redirect307, retryAfter503, retryAfter401
    }

    @Test(arguments: Replay.allCases)
    func aReplaySendsTheIdenticalBody(_ replay: Replay) async throws {
        let scratch = Scratch()
        let file = try scratch.file("replayed.bin", size: 700_000)
        let streamed = patternBytes(120_000) { UInt8(truncatingIfNeeded: $0 * 7) }
        let key = "replay-\(UUID().uuidString)"
        let failures = replay == .redirect307 ? 0 : 1
        let echo = Server.faults("/multipart-echo?parser=email&key=\(key)&fail=\(failures)&status=\(replay == .retryAfter401 ? 401 : 503)")
        let url = replay == .redirect307
            ? Server.httpbin("/redirect-to?status_code=307&url=" + echo.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)
            : echo
        // A retrier that also retries 401, as one refreshing a credential would.
        let retry = RetryPolicy(retryLimit: 2, exponentialBackoffScale: 0.01, retryableHTTPMethods: [.post],
                                retryableHTTPStatusCodes: RetryPolicy.defaultRetryableHTTPStatusCodes.union([401]))
        let session = makeSession()
        let request = session.upload(multipartFormData: { form in
            form.append(file, withName: "file")
            form.append(InputStream(data: streamed), withLength: 120_000, name: "stream", fileName: "s.bin", mimeType: "application/octet-stream")
        }, to: url, usingThreshold: 100_000, interceptor: retry).validate()
        let response = await request.serializingDecodable(ParsedForm.self).response
        let parsed = try #require(response.value, "\(String(describing: response.error))")
        #expect(parsed.part("file")?.sha256 == (try sha256Hex(Data(contentsOf: file))))
        #expect(parsed.part("stream")?.sha256 == (try sha256Hex(streamed)))
        switch replay {
        case .redirect307: #expect(response.metrics?.redirectCount == 1)
        case .retryAfter503, .retryAfter401: #expect(request.retryCount == 1)
        }
    }

    enum Change: String, CaseIterable, Sendable {
        case truncated, grown, removed
    }

    @Test(arguments: Change.allCases)
    func aFileChangedAfterItWasAddedFailsBeforeAnythingIsSent(_ change: Change) async throws {
        let scratch = Scratch()
        let file = try scratch.file("changing.bin", size: 300_000)
        let form = MultipartFormData()
        form.append(file, withName: "file")
        switch change {
        case .truncated: try Data(count: 10).write(to: file)
        case .grown: try Data(count: 400_000).write(to: file)
        case .removed: try FileManager.default.removeItem(at: file)
        }
        let key = "changed-\(UUID().uuidString)"
        let session = makeSession()
        let response = await session.upload(multipartFormData: form, to: Server.faults("/wire/\(key)"), usingThreshold: 100_000)
            .serializingData().response
        let error = try #require(response.error)
        #expect(error.isMultipartEncodingError, "\(error)")
        #expect(error.localizedDescription.contains(file.path), "\(error.localizedDescription)")
        let seen = try await session.request(Server.faults("/wire-count/\(key)")).serializingString().value
        #expect(seen == "0", "no request head reached the server")
    }
}
