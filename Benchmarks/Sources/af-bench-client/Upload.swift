import AFCore
import AFMultipart
import BenchSupport
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Uploads `megabytes` MiB from a file (`upload-file`), an InputStream over it (`upload-stream`)
/// or a multipart form holding it (`upload-multipart`, above the memory threshold)
/// to `url` (the fixtures' /sink), prints one result line and exits.
func runUpload(mode: String, url: String, megabytes: Int) -> Never {
    let file = FileManager.default.temporaryDirectory.appendingPathComponent("af-bench-upload-\(getpid()).bin")
    defer { try? FileManager.default.removeItem(at: file) }
    writeFile(file, megabytes: megabytes)

    let session = Session(configuration: URLSessionConfiguration.af.default)
    let done = DispatchSemaphore(value: 0)
    let outcome = Outcome()
    let start = DispatchTime.now()
    let request: UploadRequest = switch mode {
    case "upload-stream": session.upload(InputStream(url: file)!, to: url)
    case "upload-multipart": session.upload(multipartFormData: { $0.append(file, withName: "file") }, to: url)
    default: session.upload(file, to: url)
    }
    request.responseDecodable(of: [String: Int].self, queue: .global()) { response in
        outcome.bytes = response.value?["bytes"] ?? -1
        done.signal()
    }
    done.wait()
    guard mode == "upload-multipart" else {
        reportTransfer(bytes: outcome.bytes, expected: megabytes << 20, since: start)
    }
    // The form is above the threshold: it went through a temporary file that must be gone now.
    if case let .file(spill, _) = request.uploadable, FileManager.default.fileExists(atPath: spill.path) {
        FileHandle.standardError.write(Data("multipart temporary file left behind: \(spill.path)\n".utf8))
        reportTransfer(bytes: -1, expected: 0, since: start)
    }
    // The body is the file plus the part's boundaries and headers.
    reportTransfer(bytes: outcome.bytes, expected: outcome.bytes > megabytes << 20 ? outcome.bytes : -2, since: start)
}

/// The byte count a transfer workload reports, set from one handler.
final class Outcome: @unchecked Sendable {
    var bytes = 0
}

/// Prints the result line of a one-transfer workload (a failure unless `bytes == expected`)
/// and exits.
func reportTransfer(bytes: Int, expected: Int, since start: DispatchTime) -> Never {
    let seconds = Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
    let usage = ProcessUsage.current()
    let result = RunResult(requests: 1, failures: bytes == expected ? 0 : 1, seconds: seconds,
                           cpuSeconds: usage.cpuSeconds, maxRSSKiB: usage.maxRSSKiB, connections: 1,
                           bytes: max(0, bytes))
    FileHandle.standardOutput.write(try! JSONEncoder().encode(result) + Data("\n".utf8))
    exit(result.failures == 0 ? 0 : 1)
}

/// Writes `megabytes` MiB of non-repeating bytes, one MiB at a time.
private func writeFile(_ url: URL, megabytes: Int) {
    _ = FileManager.default.createFile(atPath: url.path, contents: nil)
    let handle = try! FileHandle(forWritingTo: url)
    var state: UInt64 = 0x9E37_79B9_7F4A_7C15  // xorshift: cheap, and no block repeats
    var block = [UInt64](repeating: 0, count: (1 << 20) / 8)
    for _ in 0..<megabytes {
        for index in block.indices {
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            block[index] = state
        }
        block.withUnsafeBytes { handle.write(Data($0)) }
    }
    try? handle.close()
}
