import BenchSupport
import Foundation

/// The soak: AF's callback form making 10^6 requests (times `scale`) sequentially, then with 64
/// in flight, a cancel sent to 1 % of them at a random moment. A row per 100k requests with the
/// process's resident memory, descriptors and threads, and their growth over the second half
/// (the first half is the warm-up: connection pools, caches and libdispatch's worker pool settle),
/// which should stay under 5 %; the rows show the whole run.
func soakTable(fixture: Fixture, client: ClientRunner, scale: Double) throws -> Table {
    var table = Table(columns: ["workload", "requests done", "seconds", "RSS MiB", "open fds", "threads"])
    let count = max(200_000, Int(1_000_000 * scale))
    let url = fixture.endpoints.http + "/bench.json"
    for (name, inflight) in [("sequential", 1), ("64 in flight", 64)] {
        let (result, checkpoints) = try client.runSoak(url: url, count: count, inflight: inflight)
        for point in checkpoints {
            table.add([name, String(point.finished), String(format: "%.1f", point.seconds),
                       String(format: "%.1f", Double(point.rssKiB) / 1024), String(point.descriptors), String(point.threads)])
        }
        guard let last = checkpoints.last,
              let first = checkpoints.first(where: { $0.finished >= last.finished / 2 }) else { continue }
        func growth(_ from: Int, _ to: Int) -> String { String(format: "%+.1f %%", 100 * Double(to - from) / Double(max(1, from))) }
        table.add(["\(name): growth after warm-up", "\(first.finished) → \(last.finished)",
                   String(format: "%.0f req/s", Double(result.requests) / result.seconds),
                   growth(first.rssKiB, last.rssKiB), growth(first.descriptors, last.descriptors),
                   growth(first.threads, last.threads)])
        table.add(["\(name): outcome", "\(result.requests) requests", "\(result.connections) ended cancelled",
                   "\(result.failures) failed", "", ""])
    }
    return table
}
