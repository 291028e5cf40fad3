import BenchSupport
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `count` sequential GETs of a fresh response through a URLCache on disk, after one request
/// that stores it. The fault server counts what reached it (`/count/KEY`): the result says how
/// many measured requests were not answered from the cache. Prints one result line and exits.
func runCacheHits(url: String, count: Int) -> Never {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("urlsession-bench-cache-\(getpid())")
    defer { try? FileManager.default.removeItem(at: directory) }
    let configuration = URLSessionConfiguration.default
    configuration.urlCache = URLCache(memoryCapacity: 4 << 20, diskCapacity: 64 << 20, diskPath: directory.path)
    configuration.requestCachePolicy = .useProtocolCachePolicy
    let session = URLSession(configuration: configuration)
    let target = URL(string: url)!
    let queue = DispatchQueue(label: "urlsession-bench.cache")
    let done = DispatchSemaphore(value: 0)
    final class Counts: @unchecked Sendable { var left = 0, failures = 0, bytes = 0 }
    let counts = Counts()

    @Sendable func next() {
        session.dataTask(with: target) { data, response, error in
            queue.async {
                if error != nil || (response as? HTTPURLResponse)?.statusCode != 200 { counts.failures += 1 }
                counts.bytes += data?.count ?? 0
                counts.left -= 1
                if counts.left > 0 { next() } else { done.signal() }
            }
        }.resume()
    }
    counts.left = 1
    next()  // stores the response
    done.wait()
    let before = serverCount(url)
    let start = DispatchTime.now()
    queue.sync { counts.left = count; counts.bytes = 0 }
    next()
    done.wait()
    let seconds = Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
    let usage = ProcessUsage.current()
    let missed = serverCount(url) - before
    let result = queue.sync {
        RunResult(requests: count, failures: counts.failures, seconds: seconds, cpuSeconds: usage.cpuSeconds,
                  maxRSSKiB: usage.maxRSSKiB, connections: 0, bytes: counts.bytes, cacheMisses: missed)
    }
    result.report()
}

/// How many requests the fault server saw for the `/cacheable/KEY` of `url`.
private func serverCount(_ url: String) -> Int {
    let counter = url.replacingOccurrences(of: "/cacheable/", with: "/count/").components(separatedBy: "?")[0]
    let text = try? String(contentsOf: URL(string: counter)!, encoding: .utf8)
    return Int(text?.trimmingCharacters(in: .whitespacesAndNewlines) ?? "") ?? Int.max / 2
}
