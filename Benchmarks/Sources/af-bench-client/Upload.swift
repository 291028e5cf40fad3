import AFCore
import AFMultipart
import BenchSupport
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Uploads the file at `path` to `url` (the fixtures' /sink, which answers the byte count it
/// read): as a file body (`upload-file`), an InputStream over it (`upload-stream`), a multipart
/// form holding it as one file part (`upload-multipart`, sent from the file itself) or as one
/// InputStream part (`upload-multipart-stream`, spilled to a nameless temporary file first).
/// Prints one result line and exits.
func runUpload(mode: String, url: String, path: String) -> Never {
    let file = URL(fileURLWithPath: path)
    let session = Session(configuration: URLSessionConfiguration.af.default)
    let done = DispatchSemaphore(value: 0)
    let outcome = Outcome()
    let start = DispatchTime.now()
    let request: UploadRequest = switch mode {
    case "upload-stream": session.upload(InputStream(url: file)!, to: url)
    case "upload-multipart": session.upload(multipartFormData: { $0.append(file, withName: "file") }, to: url)
    case "upload-multipart-stream":
        session.upload(multipartFormData: { form in
            let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? UInt64) ?? 0
            form.append(InputStream(url: file)!, withLength: size, name: "file", fileName: "file.bin", mimeType: "application/octet-stream")
        }, to: url)
    default: session.upload(file, to: url)
    }
    request.responseDecodable(of: [String: Int].self, queue: .global()) { response in
        outcome.bytes = response.value?["bytes"] ?? -1
        done.signal()
    }
    done.wait()
    // A spilled part went to a nameless file (read through /proc/self/fd/N) whose descriptor
    // must be closed now.
    let open = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
    if let spill = open.first(where: {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/" + $0))?.contains("/AF-multipart-") == true
    }) {
        FileHandle.standardError.write(Data("multipart temporary file left open: descriptor \(spill)\n".utf8))
        reportTransfer(bytes: -1, since: start)
    }
    reportTransfer(bytes: outcome.bytes, since: start)
}

/// The byte count a transfer workload reports, set from one handler.
final class Outcome: @unchecked Sendable {
    var bytes = 0
    /// When the body was complete and in place; cleanup after it (removing a 1 GiB file takes
    /// a few hundred milliseconds) is not timed, as in the C client.
    var finished: DispatchTime?
}

/// Prints the result line of a one-transfer workload (a failure when `bytes` is negative) and
/// exits; the caller checks the count against what it expected.
func reportTransfer(bytes: Int, since start: DispatchTime, until end: DispatchTime? = nil) -> Never {
    let seconds = Double((end ?? DispatchTime.now()).uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
    let usage = ProcessUsage.current()
    let result = RunResult(requests: 1, failures: bytes >= 0 ? 0 : 1, seconds: seconds,
                           cpuSeconds: usage.cpuSeconds, maxRSSKiB: usage.maxRSSKiB, connections: 1,
                           bytes: max(0, bytes))
    result.report()
}
