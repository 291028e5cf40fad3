// AsyncHTTPClient under the same workloads as curl-multi-bench: COUNT GETs of URL, INFLIGHT
// kept in flight (that many tasks, each looping on `execute` and collecting the body).
// Prints one JSON line of results.
//
// usage: ahc-bench-client URL COUNT INFLIGHT [CAFILE]
//        ahc-bench-client download|upload-file|upload-multipart URL PATH

import AsyncHTTPClient
import BenchSupport
import Foundation
import NIOCore
import NIOSSL

func makeClient(caFile: String?, inflight: Int) -> HTTPClient {
    var configuration = HTTPClient.Configuration()
    if let caFile {
        var tls = TLSConfiguration.makeClientConfiguration()
        tls.trustRoots = .file(caFile)
        configuration.tlsConfiguration = tls
    }
    configuration.connectionPool = .init(idleTimeout: .seconds(60), concurrentHTTP1ConnectionsPerHostSoftLimit: inflight)
    configuration.httpVersion = .automatic
    return HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
}

func runRequests(url: String, count: Int, inflight: Int, caFile: String?) async throws -> RunResult {
    let client = makeClient(caFile: caFile, inflight: inflight)
    let counter = StartCounter(limit: count)
    let start = DispatchTime.now()
    let (failures, bytes) = await withTaskGroup(of: (Int, Int).self) { group in
        for _ in 0..<min(inflight, count) {
            group.addTask {
                var failures = 0, bytes = 0
                while counter.take() {
                    do {
                        let response = try await client.execute(HTTPClientRequest(url: url), timeout: .seconds(30))
                        let body = try await response.body.collect(upTo: 1 << 20)
                        if response.status == .ok { bytes += body.readableBytes } else { failures += 1 }
                    } catch {
                        failures += 1
                    }
                }
                return (failures, bytes)
            }
        }
        return await group.reduce((0, 0)) { ($0.0 + $1.0, $0.1 + $1.1) }
    }
    let seconds = Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
    let usage = ProcessUsage.current()
    try await client.shutdown()
    return RunResult(requests: count, failures: failures, seconds: seconds, cpuSeconds: usage.cpuSeconds,
                     maxRSSKiB: usage.maxRSSKiB, connections: -1, bytes: bytes)
}

let arguments = CommandLine.arguments
let result: RunResult
do {
    if arguments.count == 4, arguments[1] == "download" || arguments[1].hasPrefix("upload-") {
        result = try await runTransfer(mode: arguments[1], url: arguments[2], path: arguments[3])
    } else if arguments.count >= 4, let count = Int(arguments[2]), let inflight = Int(arguments[3]), count > 0, inflight > 0 {
        let caFile = arguments.count > 4 && !arguments[4].isEmpty ? arguments[4] : nil
        result = try await runRequests(url: arguments[1], count: count, inflight: inflight, caFile: caFile)
    } else {
        FileHandle.standardError.write(Data("usage: ahc-bench-client URL COUNT INFLIGHT [CAFILE]\n".utf8))
        exit(2)
    }
} catch {
    FileHandle.standardError.write(Data("ahc-bench-client: \(error)\n".utf8))
    exit(1)
}
result.report()
