import AFCore
import BenchSupport
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `count` GETs of `url`, `inflight` at a time, 1 % of them cancelled at a random moment (at
/// once, or after up to a millisecond). Every `checkpoint` finished requests it prints one JSON
/// line with the process's resident memory, open descriptors and threads; then a last line with
/// the totals, and exits.
func runSoak(url: String, count: Int, inflight: Int, checkpoint: Int = 100_000) -> Never {
    let configuration = URLSessionConfiguration.af.default
    configuration.httpMaximumConnectionsPerHost = max(1, inflight)
    let session = Session(configuration: configuration)
    let queue = DispatchQueue(label: "af-bench.soak")
    let done = DispatchSemaphore(value: 0)
    final class Counts: @unchecked Sendable { var started = 0, finished = 0, failed = 0, cancelled = 0 }
    let counts = Counts()
    let start = DispatchTime.now()

    @Sendable func startOne() {
        counts.started += 1
        let request = session.request(url).validate()
        if Int.random(in: 0..<100) == 0 {
            let delay = Int.random(in: 0...1_000)
            DispatchQueue.global().asyncAfter(deadline: .now() + .microseconds(delay)) { request.cancel() }
        }
        request.responseData(queue: queue) { response in
            counts.finished += 1
            if response.error?.isExplicitlyCancelledError == true {
                counts.cancelled += 1
            } else if response.error != nil {
                counts.failed += 1
            }
            if counts.finished % checkpoint == 0 { SoakSample.current(finished: counts.finished, start: start).print() }
            if counts.started < count { startOne() } else if counts.finished == count { done.signal() }
        }
    }
    queue.sync { for _ in 0..<min(inflight, count) { startOne() } }
    done.wait()
    let seconds = Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
    let usage = ProcessUsage.current()
    let result = queue.sync {
        RunResult(requests: count, failures: counts.failed, seconds: seconds, cpuSeconds: usage.cpuSeconds,
                  maxRSSKiB: usage.maxRSSKiB, connections: counts.cancelled, bytes: 0)
    }
    result.report()
}

/// The process's footprint at a checkpoint, read from /proc.
struct SoakSample: Encodable {
    var finished: Int
    var seconds: Double
    var rssKiB: Int
    var descriptors: Int
    var threads: Int

    static func current(finished: Int, start: DispatchTime) -> SoakSample {
        let statm = (try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8)) ?? ""
        let resident = statm.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
        let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
        let threads = status.split(separator: "\n").first { $0.hasPrefix("Threads:") }
            .flatMap { Int($0.dropFirst("Threads:".count).trimmingCharacters(in: .whitespaces)) } ?? 0
        let descriptors = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").count) ?? 0
        return SoakSample(finished: finished, seconds: Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9,
                          rssKiB: resident * Int(sysconf(Int32(_SC_PAGESIZE))) / 1024, descriptors: descriptors, threads: threads)
    }

    func print() {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        if let line = try? encoder.encode(self) { FileHandle.standardError.write(line + Data("\n".utf8)) }
    }
}
