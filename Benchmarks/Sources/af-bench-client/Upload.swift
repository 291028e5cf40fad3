import AFCore
import BenchSupport
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Uploads `megabytes` MiB from a file (`upload-file`) or an InputStream over it (`upload-stream`)
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
    default: session.upload(file, to: url)
    }
    request.responseDecodable(of: [String: Int].self, queue: .global()) { response in
        outcome.bytes = response.value?["bytes"] ?? -1
        done.signal()
    }
    done.wait()
    reportTransfer(bytes: outcome.bytes, expected: megabytes << 20, since: start)
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
