import AsyncHTTPClient
import BenchSupport
import Foundation
import NIOCore

/// One large-body workload: `download` with AHC's FileDownloadDelegate into `path` (removed
/// afterwards); `upload-file` streams the file at `path` as the body; `upload-multipart` streams
/// it wrapped in a multipart form (AHC has no multipart encoder; this is what its users write).
func runTransfer(mode: String, url: String, path: String) async throws -> RunResult {
    let client = HTTPClient(eventLoopGroupProvider: .singleton)
    let start = DispatchTime.now()
    var bytes = -1
    var finished: DispatchTime?
    do {
        if mode == "download" {
            let delegate = try FileDownloadDelegate(path: path)
            let progress = try await client.execute(request: try HTTPClient.Request(url: url), delegate: delegate).get()
            bytes = progress.head.status == .ok ? progress.receivedBytes : -1
            finished = DispatchTime.now()  // removing the file is not timed, as in the C client
            try? FileManager.default.removeItem(atPath: path)
        } else {
            var request = HTTPClientRequest(url: url)
            request.method = .POST
            let size = try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int ?? 0
            var prefix = Data(), suffix = Data()
            if mode == "upload-multipart" {
                let boundary = "ahc-bench-\(UUID().uuidString)"
                prefix = Data(("--\(boundary)\r\nContent-Disposition: form-data; name=\"file\"; filename=\"upload.bin\"\r\n"
                    + "Content-Type: application/octet-stream\r\n\r\n").utf8)
                suffix = Data("\r\n--\(boundary)--\r\n".utf8)
                request.headers.add(name: "Content-Type", value: "multipart/form-data; boundary=\(boundary)")
            }
            let chunks = FileChunks(path: path, prefix: prefix, suffix: suffix)
            request.body = .stream(chunks, length: .known(Int64(prefix.count + size + suffix.count)))
            let response = try await client.execute(request, timeout: .hours(1))
            let answer = try await response.body.collect(upTo: 1 << 16)
            if response.status == .ok, let decoded = try? JSONDecoder().decode([String: Int].self, from: Data(answer.readableBytesView)) {
                bytes = decoded["bytes"] ?? -1
            }
        }
    } catch {
        FileHandle.standardError.write(Data("ahc-bench-client: \(error)\n".utf8))
    }
    let seconds = Double((finished ?? DispatchTime.now()).uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
    let usage = ProcessUsage.current()
    try await client.shutdown()
    return RunResult(requests: 1, failures: bytes >= 0 ? 0 : 1, seconds: seconds, cpuSeconds: usage.cpuSeconds,
                     maxRSSKiB: usage.maxRSSKiB, connections: 1, bytes: max(0, bytes))
}

/// A file read 512 KiB at a time as ByteBuffers, between an optional prefix and suffix.
struct FileChunks: AsyncSequence, Sendable {
    typealias Element = ByteBuffer
    let path: String
    let prefix: Data
    let suffix: Data

    struct AsyncIterator: AsyncIteratorProtocol {
        var handle: FileHandle?
        var pending: [Data]
        var suffix: Data?

        mutating func next() async throws -> ByteBuffer? {
            if !pending.isEmpty { return ByteBuffer(bytes: pending.removeFirst()) }
            if let file = handle {
                if let chunk = try file.read(upToCount: 512 << 10), !chunk.isEmpty { return ByteBuffer(bytes: chunk) }
                try file.close()
                handle = nil
            }
            defer { suffix = nil }
            return suffix.map { ByteBuffer(bytes: $0) }
        }
    }

    func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(handle: FileHandle(forReadingAtPath: path), pending: prefix.isEmpty ? [] : [prefix],
                      suffix: suffix.isEmpty ? nil : suffix)
    }
}
