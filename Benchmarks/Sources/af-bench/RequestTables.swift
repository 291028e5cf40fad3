import BenchSupport
import Foundation

func median(of results: [RunResult]) -> RunResult {
    results.sorted { $0.requestsPerSecond < $1.requestsPerSecond }[results.count / 2]
}

/// AF's throughput divided by a peer's, as printed in the tables.
func ratio(_ af: Double, _ peer: Double) -> String {
    String(format: "%.2f×", af / peer)
}

/// The request workloads for every client (warm-up, then `repeats` interleaved runs, median by
/// requests/s), and a summary of each AF form's ratio to each peer.
func requestTables(fixture: Fixture, clients: Clients, options: Options) throws -> (Table, Table) {
    var table = Table(columns: ["workload", "client", "req/s", "CPU ms / 1k req", "peak RSS MiB", "connections", "AF ÷ client"])
    var summary = Table(columns: ["workload", "AF form", "req/s", "÷ libcurl", "÷ AsyncHTTPClient", "÷ URLSession",
                                  "CPU ÷ libcurl's", "ceiling ÷ libcurl", "floor ÷ libcurl", "floor's CPU ÷ libcurl's"])
    let runners = clients.all + clients.afForms + clients.skeletons
    for workload in Workload.requestWorkloads(scale: options.scale) {
        let base = workload.server == .http ? fixture.endpoints.http : fixture.endpoints.https
        let url = base + workload.path
        let caFile = fixture.endpoints.caFile
        for client in runners {  // warm-up: connections, nginx, page cache
            _ = try client.run(url: url, count: min(workload.count, 1_000), inflight: workload.inflight, caFile: caFile)
        }
        var samples = Array(repeating: [RunResult](), count: runners.count)
        for _ in 0..<options.repeats {
            for (index, client) in runners.enumerated() {  // interleaved, so drift hits all alike
                samples[index].append(try client.run(url: url, count: workload.count, inflight: workload.inflight, caFile: caFile))
            }
        }
        let medians = samples.map(median(of:))
        let af = medians[0].requestsPerSecond
        let peers = medians[1..<clients.all.count]
        for (client, result) in zip(runners, medians) {
            table.add([workload.name, client.name,
                       String(format: "%.0f", result.requestsPerSecond),
                       String(format: "%.1f", result.cpuMillisecondsPer1000),
                       String(format: "%.1f", Double(result.maxRSSKiB) / 1024),
                       result.connections >= 0 ? String(result.connections) : "-",
                       client.name.hasPrefix("AF") ? "" : ratio(af, result.requestsPerSecond)])
        }
        // The ceiling: the best of the skeletons that build an HTTPURLResponse per response.
        let ceilingNames = Set(clients.ceilings.map(\.name))
        let ceiling = zip(runners, medians).filter { ceilingNames.contains($0.0.name) }
            .map(\.1.requestsPerSecond).max() ?? 0
        let libcurl = medians[1]
        // The floor: the best of the skeletons that do Alamofire's obliged work (the fastest, and
        // the least CPU per request, each over libcurl's); for the status + metrics form, of
        // those that also build the HTTPURLResponse; for the async form, of those awaiting each
        // request in a task.
        func floor(of skeletons: [ClientRunner]) -> (rate: Double, cpu: Double) {
            let names = Set(skeletons.map(\.name))
            let results = zip(runners, medians).filter { names.contains($0.0.name) }.map(\.1)
            return (results.map(\.requestsPerSecond).max() ?? 0, results.map(\.cpuMillisecondsPer1000).min() ?? 0)
        }
        let forms = [(clients.af, medians[0])] + zip(clients.afForms, medians[clients.all.count...]).map { ($0, $1) }
        for (form, result) in forms {
            let (floorRate, floorCPU) = floor(of: form.name == clients.af.name ? clients.responseFloors
                                                  : form.extraArguments == ["async"] ? clients.awaitFloors : clients.floors)
            summary.add([workload.name, form.name, String(format: "%.0f", result.requestsPerSecond)]
                        + peers.map { ratio(result.requestsPerSecond, $0.requestsPerSecond) }
                        + [String(format: "%.2f×", result.cpuMillisecondsPer1000 / libcurl.cpuMillisecondsPer1000),
                           ratio(ceiling, libcurl.requestsPerSecond), ratio(floorRate, libcurl.requestsPerSecond),
                           String(format: "%.2f×", floorCPU / libcurl.cpuMillisecondsPer1000)])
        }
    }
    return (table, summary)
}
