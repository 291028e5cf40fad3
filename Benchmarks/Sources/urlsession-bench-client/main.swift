// Foundation's URLSession (FoundationNetworking) under the same workloads as curl-multi-bench:
// COUNT GETs of URL, INFLIGHT kept in flight, each a data task with a completion handler.
// Prints one JSON line of results.
//
// usage: urlsession-bench-client URL COUNT INFLIGHT [CAFILE]
//        urlsession-bench-client download|upload-file|upload-multipart URL PATH
//        urlsession-bench-client cache-hits URL COUNT

import BenchSupport
import Dispatch
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

let arguments = CommandLine.arguments
if arguments.count == 4, arguments[1] == "download" || arguments[1].hasPrefix("upload-") {
    runTransfer(mode: arguments[1], url: arguments[2], path: arguments[3])
}
if arguments.count == 4, arguments[1] == "cache-hits" {
    runCacheHits(url: arguments[2], count: Int(arguments[3]) ?? 0)
}
guard arguments.count >= 4, let url = URL(string: arguments[1]),
      let count = Int(arguments[2]), let requestedInflight = Int(arguments[3]),
      count > 0, requestedInflight > 0 else {
    FileHandle.standardError.write(Data("usage: urlsession-bench-client URL COUNT INFLIGHT [CAFILE]\n".utf8))
    exit(2)
}
// CAFILE is not used: FoundationNetworking trusts the system's CA bundle only (af-bench runs
// this client with the fixtures' CA mounted over it).
let inflight = min(count, requestedInflight)

let configuration = URLSessionConfiguration.default
configuration.httpMaximumConnectionsPerHost = inflight
configuration.urlCache = nil
let session = URLSession(configuration: configuration)
let handlerQueue = DispatchQueue(label: "urlsession-bench.handlers")

/// Counters touched only on `handlerQueue`.
final class Tally: @unchecked Sendable {
    var started = 0
    var finished = 0
    var failures = 0
    var bytes = 0
}
let tally = Tally()
let done = DispatchSemaphore(value: 0)

@Sendable func startOne() {
    tally.started += 1
    session.dataTask(with: url) { data, response, error in
        handlerQueue.async {
            tally.finished += 1
            if error == nil, (response as? HTTPURLResponse)?.statusCode == 200, let data {
                tally.bytes += data.count
            } else {
                tally.failures += 1
            }
            if tally.started < count {
                startOne()
            } else if tally.finished == count {
                done.signal()
            }
        }
    }.resume()
}

measureRequests(on: handlerQueue, start: {
    for _ in 0..<inflight { startOne() }
}, until: done) { seconds, usage in
    RunResult(requests: count, failures: tally.failures, seconds: seconds, cpuSeconds: usage.cpuSeconds,
              maxRSSKiB: usage.maxRSSKiB, connections: -1, bytes: tally.bytes)
}
