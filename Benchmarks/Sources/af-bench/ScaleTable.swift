import BenchSupport
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `Tests/Fixtures/longpoll.py`: holds each `/hold` request 2 s, then answers; `/stats` says how
/// long the requests took to arrive and to be answered. Stopped when its standard input closes.
final class LongPollServer {
    struct Stats: Decodable {
        var count: Int
        /// Seconds from the first arrival to the last: how long the client took to put them all on the wire.
        var spread: Double
        /// Seconds from the first arrival to the last answer written: the server's own part.
        var answered: Double
        /// The last arrival, in seconds on the monotonic clock the clients report on too.
        var lastArrival: Double
    }

    let url: String
    private let script: ServerScript

    init(script path: URL) throws {
        script = try ServerScript(path)
        struct Ready: Decodable { var url: String }
        guard let ready = try? JSONDecoder().decode(Ready.self, from: script.readyLine) else {
            script.stop()
            throw BenchError("the long-poll server did not start: \(String(decoding: script.readyLine, as: UTF8.self))")
        }
        url = ready.url
    }

    /// What arrived since the last call (which starts a new count).
    func takeStats() throws -> Stats {
        let done = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var body: Data?
        URLSession.shared.dataTask(with: URL(string: url + "/stats")!) { data, _, _ in
            body = data
            done.signal()
        }.resume()
        done.wait()
        guard let body, let stats = try? JSONDecoder().decode(Stats.self, from: body) else {
            throw BenchError("the long-poll server's /stats did not answer")
        }
        return stats
    }

    func stop() { script.stop() }
}

/// Raises this process's open-files limit to its hard limit (the clients inherit it); returns it.
func raiseOpenFilesLimit() -> Int {
    var limit = rlimit()
    getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
    limit.rlim_cur = limit.rlim_max
    setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
    return Int(limit.rlim_cur)
}

/// Many concurrent long-polls: COUNT = INFLIGHT = N requests started at once, each held 2 s by
/// the server, for each client (raw libcurl's poll loop and its socket interface, AF,
/// AsyncHTTPClient), interleaved,
/// the median run by completion time reported. "On the wire" is the server's view (first to
/// last arrival), and "all sent" the time from the client's first request to the last arrival
/// (a client that opens every connection before it sends a request has a short "on the wire"
/// but not a short "all sent"); "KiB per request" is the peak resident size above the client's
/// own with one request, divided by N.
func scaleTable(script: URL, clients: Clients, scale: Double, repeats: Int) throws -> Table {
    let server = try LongPollServer(script: script)
    defer { server.stop() }
    let limit = raiseOpenFilesLimit()
    // Each connection is a descriptor in the client and one in the server (its own process).
    let sizes = [1000, 5000, 10_000].filter { Double($0) <= max(1000, 10_000 * scale) && $0 + 100 <= limit }
    // libcurl's socket interface beside its poll loop: what a socket-driven engine could reach,
    // on one multi handle and with the transfers spread over four (one thread either way).
    let socketLoops = [("socket interface", "socket"), ("socket interface, 4 multi handles", "socket:4")].map { name, mode in
        ClientRunner(name: "libcurl (C, \(name))", executable: clients.curl.executable, extraArguments: [mode])
    }
    let peers = ([clients.curl] + socketLoops + [clients.af, clients.ahc]).map { client in
        var client = client
        client.reportsFailures = true
        return client
    }
    var baselines: [String: Int] = [:]
    for client in peers {
        baselines[client.name] = try client.run(url: server.url + "/hold?ms=0", count: 1, inflight: 1, caFile: "").maxRSSKiB
    }
    _ = try server.takeStats()
    var table = Table(columns: ["concurrent long-polls", "client", "all done s (ideal 2.0)", "on the wire s", "all sent s",
                                "server answered s",
                                "peak RSS MiB", "KiB per request", "failures", "client's time ÷ AF's"])
    for size in sizes {
        var runs: [String: [(result: RunResult, stats: LongPollServer.Stats)]] = [:]
        for _ in 0..<repeats {
            for client in peers {
                let result = try client.run(url: server.url + "/hold", count: size, inflight: size, caFile: "")
                runs[client.name, default: []].append((result, try server.takeStats()))
            }
        }
        let medians = runs.mapValues { $0.sorted { $0.result.seconds < $1.result.seconds }[$0.count / 2] }
        let afSeconds = medians[clients.af.name]!.result.seconds
        for client in peers {
            let (result, stats) = medians[client.name]!
            let perRequest = Double(result.maxRSSKiB - (baselines[client.name] ?? 0)) / Double(size)
            let allSent = result.startedAt.map { String(format: "%.2f", stats.lastArrival - $0) } ?? "?"
            table.add([String(size), client.name, String(format: "%.2f", result.seconds), String(format: "%.2f", stats.spread),
                       allSent, String(format: "%.2f", stats.answered), String(format: "%.0f", Double(result.maxRSSKiB) / 1024),
                       String(format: "%.1f", perRequest), String(result.failures),
                       client.name == clients.af.name ? "" : String(format: "%.2f×", result.seconds / afSeconds)])
        }
    }
    return table
}
