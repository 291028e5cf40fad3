import AFCore
import BenchSupport
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Receives `url` to the file at `path` (`download`, the file removed afterwards) or through a
/// stream handler that only counts the bytes (`stream`, `path` unused); prints one result line
/// and exits.
func runDownload(mode: String, url: String, path: String) -> Never {
    let session = Session(configuration: URLSessionConfiguration.af.default)
    let done = DispatchSemaphore(value: 0)
    let outcome = Outcome()
    let start = DispatchTime.now()
    switch mode {
    case "stream":
        session.streamRequest(url).responseStream(on: DispatchQueue(label: "af-bench.stream")) { stream in
            switch stream.event {
            case let .stream(.success(data)): outcome.bytes += data.count
            case let .complete(completion):
                if completion.error != nil || completion.response?.statusCode != 200 { outcome.bytes = -1 }
                done.signal()
            }
        }
    default:
        let destination = URL(fileURLWithPath: path)
        session.download(url, to: { _, _ in (destination, [.removePreviousFile]) })
            .validate()
            .responseURL(queue: .global()) { response in
                outcome.finished = DispatchTime.now()
                if let fileURL = response.value {
                    outcome.bytes = (try? FileManager.default.attributesOfItem(atPath: fileURL.path)[.size] as? Int) ?? -1
                    try? FileManager.default.removeItem(at: fileURL)
                } else {
                    outcome.bytes = -1
                }
                done.signal()
            }
    }
    done.wait()
    reportTransfer(bytes: outcome.bytes, since: start, until: outcome.finished)
}
