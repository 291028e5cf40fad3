// Runs AF and the raw libcurl baseline side by side against the project's nginx on loopback
// and prints one table with AF's ratio to the baseline.
//
// usage: af-bench [--repeat N] [--scale X]
//   --repeat N  runs per client and workload; the median by requests/s is reported (default 3)
//   --scale X   multiplies the request counts (default 1.0; 0.1 for a quick look)

import BenchSupport
import Foundation

struct Options {
    var repeats = 3
    var scale = 1.0

    init(_ arguments: [String]) throws {
        var iterator = arguments.makeIterator()
        while let argument = iterator.next() {
            switch argument {
            case "--repeat":
                guard let value = iterator.next().flatMap(Int.init), value > 0 else { throw BenchError("--repeat needs a positive integer") }
                repeats = value
            case "--scale":
                guard let value = iterator.next().flatMap(Double.init), value > 0 else { throw BenchError("--scale needs a positive number") }
                scale = value
            default:
                throw BenchError("unknown argument \(argument); usage: af-bench [--repeat N] [--scale X]")
            }
        }
    }
}

func median(of results: [RunResult]) -> RunResult {
    results.sorted { $0.requestsPerSecond < $1.requestsPerSecond }[results.count / 2]
}

func run() throws {
    let options = try Options(Array(CommandLine.arguments.dropFirst()))
    let binaries = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
    let baseline = ClientRunner(name: "libcurl (C, multi)", executable: binaries.appendingPathComponent("curl-multi-bench"))
    let clients = [baseline,
                   ClientRunner(name: "AF", executable: binaries.appendingPathComponent("af-bench-client"))]
    let script = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Tests/Fixtures/servers.py")
    let fixture = try Fixture(script: script)
    defer { fixture.stop() }

    var table = Table(columns: ["workload", "client", "req/s", "CPU ms / 1k req", "peak RSS MiB", "connections", "vs libcurl"])
    for workload in Workload.requestWorkloads(scale: options.scale) {
        let base = workload.server == .http ? fixture.endpoints.http : fixture.endpoints.https
        let url = base + workload.path
        for client in clients {  // warm-up: connections, nginx, page cache
            _ = try client.run(url: url, count: min(workload.count, 1_000), inflight: workload.inflight,
                               caFile: fixture.endpoints.caFile)
        }
        var samples = Array(repeating: [RunResult](), count: clients.count)
        for _ in 0..<options.repeats {
            for (index, client) in clients.enumerated() {  // interleaved, so drift hits both alike
                samples[index].append(try client.run(url: url, count: workload.count, inflight: workload.inflight,
                                                     caFile: fixture.endpoints.caFile))
            }
        }
        let medians = samples.map(median(of:))
        for (client, result) in zip(clients, medians) {
            table.add([workload.name, client.name,
                       String(format: "%.0f", result.requestsPerSecond),
                       String(format: "%.1f", result.cpuMillisecondsPer1000),
                       String(format: "%.1f", Double(result.maxRSSKiB) / 1024),
                       String(result.connections),
                       String(format: "%.2f×", result.requestsPerSecond / medians[0].requestsPerSecond)])
        }
    }
    print(table.markdown)
    print()
    print(try transferTable(fixture: fixture, client: clients[1], scale: options.scale).markdown)
    print()
    print(try cacheTable(fixture: fixture, client: clients[1], scale: options.scale).markdown)
}

/// AF answering from its HTTP cache (SQLiteURLCache), next to the same GETs over the network.
func cacheTable(fixture: Fixture, client: ClientRunner, scale: Double) throws -> Table {
    var table = Table(columns: ["workload (AF, sequential)", "req/s", "CPU ms / 1k req", "vs network"])
    let count = max(100, Int(10_000 * scale))
    let url = fixture.endpoints.faults + "/cacheable/bench?h=Cache-Control%3Amax-age%3D3600"
    let network = try client.run(url: url, count: count, inflight: 1, caFile: fixture.endpoints.caFile)
    let hits = try client.runCacheHits(url: url, count: count)
    for (name, result) in [("GETs over the network (fault server)", network), ("cache hits (SQLiteURLCache)", hits)] {
        table.add([name, String(format: "%.0f", result.requestsPerSecond),
                   String(format: "%.1f", result.cpuMillisecondsPer1000),
                   String(format: "%.2f×", result.requestsPerSecond / network.requestsPerSecond)])
    }
    return table
}

/// AF's large-body workloads: throughput and peak RSS (the target is under 64 MB).
func transferTable(fixture: Fixture, client: ClientRunner, scale: Double) throws -> Table {
    var table = Table(columns: ["workload (AF)", "MiB", "MB/s", "CPU s", "peak RSS MiB"])
    let megabytes = max(16, Int(1024 * scale))
    let workloads = [("upload-file", "file upload", "/sink"), ("upload-stream", "InputStream upload", "/sink"),
                     ("upload-multipart", "multipart upload", "/sink"),
                     ("download", "download to file", "/blob"), ("stream", "DataStreamRequest", "/blob")]
    for (mode, name, path) in workloads {
        let result = try client.runTransfer(mode: mode, url: fixture.endpoints.faults + path, megabytes: megabytes)
        table.add([name, String(megabytes), String(format: "%.0f", Double(result.bytes) / result.seconds / 1e6),
                   String(format: "%.2f", result.cpuSeconds), String(format: "%.1f", Double(result.maxRSSKiB) / 1024)])
    }
    return table
}

do {
    try run()
} catch {
    FileHandle.standardError.write(Data("af-bench: \(error)\n".utf8))
    exit(1)
}
