import BenchSupport
import Foundation

/// Sequential GETs of a response fresh for an hour, answered from each client's HTTP cache
/// (AF: SQLiteURLCache; URLSession: URLCache on disk); libcurl and AsyncHTTPClient have none.
/// AF's same GETs over the network give the scale.
func cacheTable(fixture: Fixture, clients: Clients, scale: Double) throws -> Table {
    var table = Table(columns: ["workload (sequential)", "client", "req/s", "CPU ms / 1k req", "AF ÷ client"])
    let count = max(100, Int(10_000 * scale))
    func url(_ key: String) -> String { fixture.endpoints.faults + "/cacheable/\(key)?h=Cache-Control%3Amax-age%3D3600" }
    let network = try clients.af.run(url: url("bench-network"), count: count, inflight: 1, caFile: fixture.endpoints.caFile)
    let hits = try clients.af.runCacheHits(url: url("bench-af"), count: count)
    let urlSession = try clients.urlSession.runCacheHits(url: url("bench-urlsession"), count: count)
    let rows = [("GETs over the network (fault server)", "AF", network), ("cache hits", "AF (SQLiteURLCache)", hits),
                ("cache hits", "URLSession (URLCache on disk)", urlSession)]
    for (name, client, result) in rows {
        let label = result.cacheMisses.map { $0 > 0 ? "\(name) (\($0) of \(count) reached the server)" : name } ?? name
        table.add([label, client, String(format: "%.0f", result.requestsPerSecond), String(format: "%.1f", result.cpuMillisecondsPer1000),
                   client.hasPrefix("AF") ? "" : ratio(hits.requestsPerSecond, result.requestsPerSecond)])
    }
    table.add(["cache hits", "libcurl, AsyncHTTPClient", "no HTTP cache", "", ""])
    return table
}
