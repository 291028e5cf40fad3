@testable import AFCore
import AFTestSupport
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

/// The engine writing response bodies straight to a file (the base of DownloadRequest).
@Suite(.timeLimit(.minutes(1))) struct DownloadEngineTests {
    final class Recorder: SessionTaskDelegate, @unchecked Sendable {
        let done = OneShot()
        let result = Protected<SessionTask.Result?>(nil)
        var observesTransferEvents: Bool { false }
        var observesProgress: Bool { false }
        var awaitsResponseDisposition: Bool { false }
        func task(_ task: SessionTask, didUpdate progress: TransferProgress) {}
        func task(_ task: SessionTask, didReceiveResponse response: HTTPURLResponse) {}
        func task(_ task: SessionTask, didReceive data: Data) {}
        func task(_ task: SessionTask, willRedirectTo request: URLRequest, response: HTTPURLResponse,
                  completion: @escaping @Sendable (URLRequest?) -> Void) { completion(request) }
        func task(_ task: SessionTask, willCacheResponse response: CachedURLResponse,
                  completion: @escaping @Sendable (CachedURLResponse?) -> Void) { completion(response) }
        var mayWaitForConnectivity: Bool { true }
        func taskIsWaitingForConnectivity(_ task: SessionTask) {}
        func task(_ task: SessionTask, didCompleteWith result: SessionTask.Result) {
            self.result.withLock { $0 = result }
            done.fire()
        }
    }

    private func run(_ url: String, to file: URL) async throws -> SessionTask.Result {
        try await run(URLRequest(url: url, method: .get), to: DownloadTarget(file: file))
    }

    private func run(_ request: URLRequest, to target: DownloadTarget) async throws -> SessionTask.Result {
        _ = TestServers.shared
        let engine = CurlEngine(limits: .init(maximumConnectionsPerHost: 6, maximumCachedConnections: 16), name: "test.engine")
        defer { engine.shutdown() }
        let recorder = Recorder()
        let task = SessionTask(request: request, engine: engine,
                               configuration: TaskConfiguration(URLSessionConfiguration.af.default),
                               queue: DispatchQueue(label: "test.download"), delegate: recorder, download: target)
        task.resume()
        await recorder.done.wait()
        return try #require(recorder.result.value)
    }

    private func temporaryFile() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("af-download-\(UUID().uuidString)")
    }

    @Test func theBodyGoesToTheFileNotMemory() async throws {
        let file = temporaryFile()
        defer { try? FileManager.default.removeItem(at: file) }
        let result = try await run(Server.http("/static/1mb.bin"), to: file)
        #expect(result.error == nil)
        #expect(result.data.isEmpty)
        let session = makeSession()
        let expected = try await session.request(Server.http("/static/1mb.bin")).serializingData().value
        #expect(expected.count == 1 << 20)
        #expect(try Data(contentsOf: file) == expected)
    }

    @Test func aResumedDownloadsErrorAnswerGoesToAFileOfItsOwn() async throws {
        let partial = temporaryFile()
        defer { try? FileManager.default.removeItem(at: partial) }
        let kept = Data(repeating: 0xAB, count: 5000)
        try kept.write(to: partial)
        var request = try URLRequest(url: Server.faults("/resumable?size=20000&mode=error&answerSize=3000000"), method: .get)
        request.setValue("bytes=5000-", forHTTPHeaderField: "Range")
        request.setValue("\"v1\"", forHTTPHeaderField: "If-Range")
        let result = try await run(request, to: DownloadTarget(file: partial, resumeOffset: 5000))
        #expect(result.error == nil)
        #expect(result.response?.statusCode == 503)
        #expect(!result.bodyIsInFile)
        // Neither memory nor the partial file holds the 3 MB answer.
        #expect(result.data.isEmpty)
        #expect(try Data(contentsOf: partial) == kept)
        let answer = try #require(result.answerFile)
        defer { try? FileManager.default.removeItem(at: answer) }
        #expect(try Data(contentsOf: answer) == patternBytes(3_000_000) { UInt8(truncatingIfNeeded: 5 * $0 + 1) })
    }

    @Test func aRedirectLeavesOnlyTheFinalBody() async throws {
        let file = temporaryFile()
        defer { try? FileManager.default.removeItem(at: file) }
        let result = try await run(Server.httpbin("/redirect-to?url=/bytes/1000%3Fseed%3D3"), to: file)
        #expect(result.response?.statusCode == 200)
        #expect(try Data(contentsOf: file).count == 1000)
    }

    @Test func anUncreatableFileFailsTheTask() async throws {
        let result = try await run(Server.http("/static/small.json"), to: URL(fileURLWithPath: "/nonexistent/dir/file"))
        #expect((result.error as? URLError)?.code == .cannotCreateFile)
    }

    @Test func aFullDiskFailsTheTask() async throws {
        // /dev/full accepts opening and fails every write with ENOSPC.
        let result = try await run(Server.http("/static/1mb.bin"), to: URL(fileURLWithPath: "/dev/full"))
        let error = try #require(result.error as? URLError)
        #expect(error.code == .cannotWriteToFile)
        #expect(error.userInfo["AFErrno"] as? Int == Int(ENOSPC))
    }

    @Test func aFullDiskFailsABodySmallerThanTheWriteBuffer() async throws {
        // 17 bytes never fill the writer's buffer: the failure comes from the write at the end.
        let result = try await run(Server.http("/static/small.json"), to: URL(fileURLWithPath: "/dev/full"))
        let error = try #require(result.error as? URLError)
        #expect(error.code == .cannotWriteToFile)
        #expect(error.userInfo["AFErrno"] as? Int == Int(ENOSPC))
    }

    @Test func theWriterKeepsEveryByteInOrderAcrossItsBuffer() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("af-writer-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: file) }
        let kept = Data((0..<5_000).map { UInt8($0 % 7) })
        try kept.write(to: file)
        let body = Data((0..<(FileDownloadWriter.bufferSize * 3 + 123)).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 5) })
        let writer = try FileDownloadWriter(target: DownloadTarget(file: file, resumeOffset: 5_000))
        writer.start(keeping: 5_000)
        var offset = 0
        for size in [1, 16_384, 16_000, 300_000, 7].cycled(until: body.count) {
            let end = min(offset + size, body.count)
            let ok = body[offset..<end].withUnsafeBytes { writer.write($0.baseAddress!, count: $0.count) }
            #expect(ok)
            offset = end
        }
        #expect(writer.flush())
        #expect(try Data(contentsOf: file) == kept + body)
    }
}

private extension Array where Element == Int {
    /// The sizes repeated until they add up to at least `total`.
    func cycled(until total: Int) -> [Int] {
        var sizes: [Int] = [], sum = 0
        while sum < total { for size in self where sum < total { sizes.append(size); sum += size } }
        return sizes
    }
}
