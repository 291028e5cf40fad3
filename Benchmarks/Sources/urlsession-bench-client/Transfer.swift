import BenchSupport
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One large-body workload: a download task into `path` (removed afterwards), or an upload task
/// from the file at `path`, as is or wrapped in a multipart form that is written to a file first
/// (URLSession has no multipart encoder; this is what its users write). Prints one result line.
func runTransfer(mode: String, url: String, path: String) -> Never {
    let session = URLSession(configuration: .default)
    let done = DispatchSemaphore(value: 0)
    final class Outcome: @unchecked Sendable {
        var bytes = -1
        var finished: DispatchTime?
    }
    let outcome = Outcome()
    let start = DispatchTime.now()
    var request = URLRequest(url: URL(string: url)!)
    var formFile: URL?
    switch mode {
    case "download":
        session.downloadTask(with: request) { location, response, error in
            if error == nil, (response as? HTTPURLResponse)?.statusCode == 200, let location {
                let destination = URL(fileURLWithPath: path)
                try? FileManager.default.removeItem(at: destination)
                if (try? FileManager.default.moveItem(at: location, to: destination)) != nil {
                    outcome.finished = DispatchTime.now()  // removing the file is not timed, as in the C client
                    outcome.bytes = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? -1
                    try? FileManager.default.removeItem(at: destination)
                }
            }
            done.signal()
        }.resume()
    default:
        request.httpMethod = "POST"
        var body = URL(fileURLWithPath: path)
        if mode == "upload-multipart" {
            let boundary = "urlsession-bench-\(UUID().uuidString)"
            body = FileManager.default.temporaryDirectory.appendingPathComponent("\(boundary).form")
            writeForm(of: URL(fileURLWithPath: path), boundary: boundary, to: body)
            formFile = body
            request.setValue("multipart/form-data; boundary=\(boundary)", forHTTPHeaderField: "Content-Type")
        }
        session.uploadTask(with: request, fromFile: body) { data, response, error in
            if error == nil, (response as? HTTPURLResponse)?.statusCode == 200, let data,
               let answer = try? JSONDecoder().decode([String: Int].self, from: data) {
                outcome.bytes = answer["bytes"] ?? -1
            }
            done.signal()
        }.resume()
    }
    done.wait()
    if let formFile { try? FileManager.default.removeItem(at: formFile) }
    let seconds = Double((outcome.finished ?? DispatchTime.now()).uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
    let usage = ProcessUsage.current()
    let result = RunResult(requests: 1, failures: outcome.bytes >= 0 ? 0 : 1, seconds: seconds,
                           cpuSeconds: usage.cpuSeconds, maxRSSKiB: usage.maxRSSKiB, connections: 1,
                           bytes: max(0, outcome.bytes))
    result.report()
}

/// Writes a multipart/form-data body with `file` as its one part, copying 512 KiB at a time.
private func writeForm(of file: URL, boundary: String, to destination: URL) {
    _ = FileManager.default.createFile(atPath: destination.path, contents: nil)
    let output = try! FileHandle(forWritingTo: destination)
    let input = try! FileHandle(forReadingFrom: file)
    output.write(Data(("--\(boundary)\r\nContent-Disposition: form-data; name=\"file\"; filename=\"\(file.lastPathComponent)\"\r\n"
        + "Content-Type: application/octet-stream\r\n\r\n").utf8))
    while let chunk = try? input.read(upToCount: 512 << 10), !chunk.isEmpty {
        output.write(chunk)
    }
    output.write(Data("\r\n--\(boundary)--\r\n".utf8))
    try? input.close()
    try? output.close()
}
