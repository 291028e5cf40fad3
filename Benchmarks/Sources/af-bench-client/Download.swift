import AFCore
import BenchSupport
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Receives `megabytes` MiB from `url` (the fixtures' /blob): to a file (`download`) or through
/// a stream handler that only counts the bytes (`stream`); prints one result line and exits.
func runDownload(mode: String, url: String, megabytes: Int) -> Never {
    let session = Session(configuration: URLSessionConfiguration.af.default)
    let done = DispatchSemaphore(value: 0)
    let outcome = Outcome()
    let start = DispatchTime.now()
    let source = "\(url)?size=\(megabytes << 20)"
    switch mode {
    case "stream":
        session.streamRequest(source).responseStream(on: DispatchQueue(label: "af-bench.stream")) { stream in
            switch stream.event {
            case let .stream(.success(data)): outcome.bytes += data.count
            case let .complete(completion):
                if completion.error != nil { outcome.bytes = -1 }
                done.signal()
            }
        }
    default:
        let destination = FileManager.default.temporaryDirectory.appendingPathComponent("af-bench-download-\(getpid()).bin")
        session.download(source, to: { _, _ in (destination, [.removePreviousFile]) })
            .responseURL(queue: .global()) { response in
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
    reportTransfer(bytes: outcome.bytes, expected: megabytes << 20, since: start)
}
