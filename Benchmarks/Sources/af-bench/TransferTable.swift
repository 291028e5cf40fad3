import BenchSupport
import Foundation

/// The large-body workloads for every client: a download from nginx's static files and two
/// uploads to the fault server's /sink (which reads and counts the body), of one file of
/// `1 GiB × scale` written once. AF also runs its InputStream upload, its DataStreamRequest and
/// AFOpenAPI's transport both ways.
/// Each client runs `repeats` times, interleaved with the others, and its median by MB/s is
/// reported. Every run starts from the same page cache (`settlePageCache`), so none pays for the
/// write-back or the freed pages of the run before it.
func transferTable(fixture: Fixture, clients: Clients, scale: Double, repeats: Int) throws -> Table {
    let megabytes = max(16, Int(1024 * scale))
    let size = megabytes << 20
    let source = URL(fileURLWithPath: fixture.endpoints.directory).appendingPathComponent("static/bench-source.bin")
    try writeSource(source, megabytes: megabytes)
    sync()
    defer { try? FileManager.default.removeItem(at: source) }
    let download = fixture.endpoints.http + "/static/bench-source.bin"
    let sink = fixture.endpoints.faults + "/sink"
    let landing = FileManager.default.temporaryDirectory.appendingPathComponent("af-bench-download-\(getpid()).bin").path

    let workloads: [(name: String, mode: String, url: String, path: String, expected: (Int) -> Bool, clients: [ClientRunner])] = [
        ("download to file", "download", download, landing, { $0 == size }, clients.all),
        ("file upload", "upload-file", sink, source.path, { $0 == size }, clients.all),
        ("multipart upload (one file part)", "upload-multipart", sink, source.path, { $0 > size }, clients.all),
        ("multipart upload (one InputStream part, spilled)", "upload-multipart-stream", sink, source.path, { $0 > size }, [clients.af]),
        ("InputStream upload", "upload-stream", sink, source.path, { $0 == size }, [clients.af]),
        ("DataStreamRequest", "stream", download, "", { $0 == size }, [clients.af]),
        ("AFOpenAPI transport, response body", "openapi-stream", download, "", { $0 == size }, [clients.af]),
        ("AFOpenAPI transport, request body", "openapi-upload", sink, source.path, { $0 == size }, [clients.af]),
    ]
    var table = Table(columns: ["workload", "client", "MiB", "MB/s", "CPU s", "peak RSS MiB", "AF ÷ client"])
    for workload in workloads {
        var runs = Array(repeating: [RunResult](), count: workload.clients.count)
        for _ in 0..<repeats {
            for (index, client) in workload.clients.enumerated() {
                settlePageCache(keeping: source)
                let result = try client.runTransfer(mode: workload.mode, url: workload.url, path: workload.path)
                guard workload.expected(result.bytes) else {
                    throw BenchError("\(client.name) \(workload.mode): moved \(result.bytes) bytes, expected \(size)")
                }
                runs[index].append(result)
            }
        }
        var afRate = 0.0
        for (index, client) in workload.clients.enumerated() {
            let ranked = runs[index].sorted { $0.megabytesPerSecond < $1.megabytesPerSecond }
            let result = ranked[ranked.count / 2]
            let rate = result.megabytesPerSecond
            let peakRSS = runs[index].map(\.maxRSSKiB).max() ?? 0
            if client.name == "AF" { afRate = rate }
            table.add([workload.name, client.name, String(megabytes), String(format: "%.0f", rate),
                       String(format: "%.2f", result.cpuSeconds), String(format: "%.1f", Double(peakRSS) / 1024),
                       client.name == "AF" ? "" : ratio(afRate, rate)])
        }
    }
    return table
}

/// Flushes dirty pages, drops the page cache where allowed (root), and reads `source` back in:
/// every run then starts with the source cached and the rest of memory as free as it gets.
/// Without this, repeated 1 GiB downloads of the same binary varied threefold on one machine.
func settlePageCache(keeping source: URL) {
    sync()
    if let control = FileHandle(forWritingAtPath: "/proc/sys/vm/drop_caches") {
        try? control.write(contentsOf: Data("1\n".utf8))
        try? control.close()
    }
    guard let handle = try? FileHandle(forReadingFrom: source) else { return }
    defer { try? handle.close() }
    while let chunk = try? handle.read(upToCount: 1 << 20), !chunk.isEmpty {}
}

/// Writes `megabytes` MiB of non-repeating bytes, one MiB at a time.
func writeSource(_ url: URL, megabytes: Int) throws {
    guard FileManager.default.createFile(atPath: url.path, contents: nil) else { throw BenchError("cannot create \(url.path)") }
    let handle = try FileHandle(forWritingTo: url)
    defer { try? handle.close() }
    var state: UInt64 = 0x9E37_79B9_7F4A_7C15  // xorshift: cheap, and no block repeats
    var block = [UInt64](repeating: 0, count: (1 << 20) / 8)
    for _ in 0..<megabytes {
        for index in block.indices {
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            block[index] = state
        }
        try block.withUnsafeBytes { try handle.write(contentsOf: Data($0)) }
    }
}
