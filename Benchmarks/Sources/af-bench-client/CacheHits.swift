import AFCache
import BenchSupport
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `count` sequential GETs of a fresh response (`url` must allow caching), answered by an
/// SQLiteURLCache after the first; prints one result line (a request not answered from the
/// cache counts as a failure) and exits. `keys`: that many URLs (`url` with `&key=N`), stored
/// first, then hit in turn (a cache holding many responses). `sameQueue`: the session's rootQueue
/// is the handler's queue, so a hit makes no trip to another thread (which shows what the two
/// trips cost). CPU time counts the hits only.
func runCacheHits(url: String, count: Int, keys: Int = 1, sameQueue: Bool = false) -> Never {
    let urls = keys > 1 ? (0..<keys).map { "\(url)&key=\($0)" } : [url]
    let file = FileManager.default.temporaryDirectory.appendingPathComponent("af-bench-cache-\(getpid()).sqlite")
    defer { ["", "-wal", "-shm"].forEach { try? FileManager.default.removeItem(atPath: file.path + $0) } }
    guard let cache = try? SQLiteURLCache(fileURL: file) else {
        FileHandle.standardError.write(Data("af-bench-client: cannot open the cache\n".utf8))
        exit(1)
    }
    let configuration = URLSessionConfiguration.af.default
    configuration.urlCache = cache
    let queue = DispatchQueue(label: "af-bench.cache")
    let session = sameQueue ? Session(configuration: configuration, rootQueue: queue) : Session(configuration: configuration)
    let done = DispatchSemaphore(value: 0)
    final class Counts: @unchecked Sendable { var left = 0, sent = 0, failures = 0, bytes = 0 }
    let counts = Counts()

    @Sendable func next(measuring: Bool) {
        let url = urls[counts.sent % urls.count]
        counts.sent += 1
        session.request(url).responseData(queue: queue) { response in
            let fromCache = response.metrics?.transactionMetrics.last?.resourceFetchType == .localCache
            if measuring, !fromCache || response.value == nil { counts.failures += 1 }
            counts.bytes += response.value?.count ?? 0
            counts.left -= 1
            if counts.left > 0 { next(measuring: measuring) } else { done.signal() }
        }
    }
    counts.left = urls.count
    next(measuring: false)  // stores the responses
    done.wait()
    let before = ProcessUsage.current()
    let start = DispatchTime.now()
    queue.sync { counts.left = count; counts.sent = 0; counts.bytes = 0 }
    next(measuring: true)
    done.wait()
    let seconds = Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
    let usage = ProcessUsage.current()
    let result = queue.sync {
        RunResult(requests: count, failures: counts.failures, seconds: seconds, cpuSeconds: usage.cpuSeconds - before.cpuSeconds,
                  maxRSSKiB: usage.maxRSSKiB, connections: 0, bytes: counts.bytes)
    }
    result.report()
}
