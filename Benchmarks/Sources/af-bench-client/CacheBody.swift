import AFCache
import BenchSupport
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One GET of a large fresh response (`url` must allow caching) in a process of its own, so its
/// peak RSS is the phase's: `network` without a cache, `store` with an empty SQLiteURLCache at
/// `file` (the response must end up stored), `serve` with that cache (it must answer).
func runCacheBody(url: String, phase: String, file: String) -> Never {
    let configuration = URLSessionConfiguration.af.default
    var cache: SQLiteURLCache?
    if phase != "network" {
        do {
            cache = try SQLiteURLCache(fileURL: URL(fileURLWithPath: file), memoryCapacity: 4 << 20, diskCapacity: 8 << 30)
        } catch {
            FileHandle.standardError.write(Data("af-bench-client: cannot open the cache: \(error)\n".utf8))
            exit(1)
        }
        configuration.urlCache = cache
    }
    let session = Session(configuration: configuration)
    let start = DispatchTime.now()
    let done = DispatchSemaphore(value: 0)
    final class Outcome: @unchecked Sendable { var bytes = 0, fromCache = false }
    let outcome = Outcome()
    session.request(url).responseData(queue: .global()) { response in
        outcome.bytes = response.value?.count ?? 0
        outcome.fromCache = response.metrics?.transactionMetrics.last?.resourceFetchType == .localCache
        done.signal()
    }
    done.wait()
    let seconds = Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
    let usage = ProcessUsage.current()
    let stored = cache.map { !$0.cachedEntries(for: URL(string: url)!).isEmpty } ?? false
    let failed = outcome.bytes == 0 || (phase == "serve" && !outcome.fromCache) || (phase == "store" && (outcome.fromCache || !stored))
    RunResult(requests: 1, failures: failed ? 1 : 0, seconds: seconds, cpuSeconds: usage.cpuSeconds,
              maxRSSKiB: usage.maxRSSKiB, connections: 0, bytes: outcome.bytes).report()
}
