import BenchSupport
import Foundation

/// Sequential GETs of a response fresh for an hour, answered from each client's HTTP cache
/// (AF: SQLiteURLCache; URLSession: URLCache on disk); libcurl and AsyncHTTPClient have none.
/// AF's same GETs over the network give the scale. AF's hits also run with the session's rootQueue
/// being the handler's queue (the same work without the two trips to other threads), and over
/// 1,000 URLs in turn (a cache holding many responses).
func cacheTable(fixture: Fixture, clients: Clients, scale: Double) throws -> Table {
    var table = Table(columns: ["workload (sequential)", "client", "req/s", "CPU ms / 1k req", "AF ÷ client"])
    let count = max(100, Int(10_000 * scale))
    func url(_ key: String) -> String { fixture.endpoints.faults + "/cacheable/\(key)?h=Cache-Control%3Amax-age%3D3600" }
    let network = try clients.af.run(url: url("bench-network"), count: count, inflight: 1, caFile: fixture.endpoints.caFile)
    let hits = try clients.af.runCacheHits(url: url("bench-af"), count: count)
    let oneQueue = try clients.af.runCacheHits(url: url("bench-af-one-queue"), count: count, mode: "cache-hits-same-queue")
    let manyURLs = try clients.af.runCacheHits(url: url("bench-af-many"), count: count, keys: 1000)
    let urlSession = try clients.urlSession.runCacheHits(url: url("bench-urlsession"), count: count)
    let rows = [("GETs over the network (fault server)", "AF", network), ("cache hits", "AF (SQLiteURLCache)", hits),
                ("cache hits", "AF, rootQueue = the handler's queue", oneQueue),
                ("cache hits, 1,000 URLs in turn", "AF (SQLiteURLCache)", manyURLs),
                ("cache hits", "URLSession (URLCache on disk)", urlSession)]
    for (name, client, result) in rows {
        let label = result.cacheMisses.map { $0 > 0 ? "\(name) (\($0) of \(count) reached the server)" : name } ?? name
        table.add([label, client, String(format: "%.0f", result.requestsPerSecond), String(format: "%.1f", result.cpuMillisecondsPer1000),
                   client.hasPrefix("AF") ? "" : ratio(hits.requestsPerSecond, result.requestsPerSecond)])
    }
    table.add(["cache hits", "libcurl, AsyncHTTPClient", "no HTTP cache", "", ""])
    return table
}

/// One GET of a `300 MiB × scale` response fresh for an hour (nginx's static file), each phase in
/// a process of its own: without a cache, stored into an empty SQLiteURLCache, served from it.
/// Peak RSS of storing and serving against the uncached request (the target: ≤ 1.2×).
func cacheBodyTable(fixture: Fixture, client: ClientRunner, scale: Double) throws -> Table {
    var table = Table(columns: ["one GET of a large fresh response", "MiB", "s", "peak RSS MiB", "RSS ÷ uncached"])
    let megabytes = max(16, Int(300 * scale))
    let source = URL(fileURLWithPath: fixture.endpoints.directory).appendingPathComponent("static/cache-body.bin")
    try writeSource(source, megabytes: megabytes)
    defer { try? FileManager.default.removeItem(at: source) }
    let database = FileManager.default.temporaryDirectory.appendingPathComponent("af-bench-cache-body-\(getpid()).sqlite").path
    defer { ["", "-wal", "-shm"].forEach { try? FileManager.default.removeItem(atPath: database + $0) } }
    let url = fixture.endpoints.http + "/fresh/cache-body.bin"
    var uncached = 0
    for (name, phase) in [("no cache", "network"), ("stored into SQLiteURLCache", "store"), ("served from SQLiteURLCache", "serve")] {
        let result = try client.runCacheBody(url: url, phase: phase, file: database)
        guard result.bytes == megabytes << 20 else { throw BenchError("AF cache-body \(phase): \(result.bytes) bytes") }
        if phase == "network" { uncached = result.maxRSSKiB }
        table.add([name, String(megabytes), String(format: "%.2f", result.seconds), String(format: "%.1f", Double(result.maxRSSKiB) / 1024),
                   String(format: "%.2f×", Double(result.maxRSSKiB) / Double(max(uncached, 1)))])
    }
    return table
}
