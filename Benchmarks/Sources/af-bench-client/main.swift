// AF under the same workload as curl-multi-bench: COUNT GETs of URL, INFLIGHT kept in flight.
// Prints one JSON line of results. FORM says how each request is made and read:
//   metrics (default)  responseData(queue:), reading the status code, the body and the metrics
//   result             validate().responseData(queue:), reading only response.result
//   async              try await request(url).validate().serializingData().value, INFLIGHT tasks
//   hooked             the result form on a Session with an adapter (passing each request on
//                      unchanged) and an event monitor: Alamofire's path through rootQueue
//   blocking           the result form from one thread that waits for each answer before the
//                      next request (as a command-line tool does); INFLIGHT is ignored
//
// usage: af-bench-client URL COUNT INFLIGHT [CAFILE [FORM]]
//        af-bench-client upload-file|upload-stream|upload-multipart|upload-multipart-stream|download|stream URL PATH
//        af-bench-client openapi-stream|openapi-upload URL PATH   (through AFOpenAPI's transport)
//        af-bench-client cache-hits|cache-hits-same-queue URL COUNT [KEYS]   (the latter: rootQueue = the handler's queue;
//                        KEYS: that many URLs, URL&key=N, hit in turn)
//        af-bench-client cache-body URL network|store|serve CACHEFILE
//        af-bench-client soak URL COUNT INFLIGHT   (checkpoint lines on standard error)
//        af-bench-client streams URL COUNT   (COUNT DataStreamRequests at once, each handler on its own queue)

import AFCore
import BenchSupport
import Dispatch
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

let arguments = CommandLine.arguments
if arguments.count == 4, arguments[1].hasPrefix("upload-") {
    runUpload(mode: arguments[1], url: arguments[2], path: arguments[3])
}
if arguments.count == 4, arguments[1] == "streams" {
    runStreams(url: arguments[2], count: Int(arguments[3]) ?? 0)
}
if arguments.count == 5, arguments[1] == "soak" {
    runSoak(url: arguments[2], count: Int(arguments[3]) ?? 0, inflight: Int(arguments[4]) ?? 1)
}
if [4, 5].contains(arguments.count), ["cache-hits", "cache-hits-same-queue"].contains(arguments[1]) {
    runCacheHits(url: arguments[2], count: Int(arguments[3]) ?? 0, keys: arguments.count == 5 ? Int(arguments[4]) ?? 1 : 1,
                 sameQueue: arguments[1] == "cache-hits-same-queue")
}
if arguments.count == 5, arguments[1] == "cache-body" {
    runCacheBody(url: arguments[2], phase: arguments[3], file: arguments[4])
}
if arguments.count == 4, arguments[1].hasPrefix("openapi-") {
    runOpenAPITransfer(mode: arguments[1], url: arguments[2], path: arguments[3])
}
if arguments.count == 4, ["download", "stream"].contains(arguments[1]) {
    runDownload(mode: arguments[1], url: arguments[2], path: arguments[3])
}
guard arguments.count >= 4, let url = URL(string: arguments[1]),
      let count = Int(arguments[2]), let requestedInflight = Int(arguments[3]),
      count > 0, requestedInflight > 0 else {
    FileHandle.standardError.write(Data("usage: af-bench-client URL COUNT INFLIGHT [CAFILE [metrics|result|async|hooked|blocking]]\n".utf8))
    exit(2)
}
if arguments.count > 4, !arguments[4].isEmpty {
    setenv("SSL_CERT_FILE", arguments[4], 1)
}
let inflight = min(count, requestedInflight)
let form = arguments.count > 5 ? arguments[5] : "metrics"
guard ["metrics", "result", "async", "hooked", "blocking"].contains(form) else {
    FileHandle.standardError.write(Data("af-bench-client: unknown form \(form)\n".utf8))
    exit(2)
}

let configuration = URLSessionConfiguration.af.default
configuration.httpMaximumConnectionsPerHost = inflight
let session = form == "hooked"
    ? Session(configuration: configuration,
              interceptor: Adapter { urlRequest, _, completion in completion(.success(urlRequest)) },
              eventMonitors: [ClosureEventMonitor(queue: DispatchQueue(label: "af-bench.monitor"))])
    : Session(configuration: configuration)
let handlerQueue = DispatchQueue(label: "af-bench.handlers")

/// Counters touched only on `handlerQueue`.
final class Tally: @unchecked Sendable {
    var started = 0
    var finished = 0
    var failures = 0
    var connections = 0
    var bytes = 0
}
let tally = Tally()
let done = DispatchSemaphore(value: 0)

@Sendable func startOne() {
    tally.started += 1
    if form == "result" || form == "hooked" {
        session.request(url).validate().responseData(queue: handlerQueue) { response in
            tally.finished += 1
            switch response.result {
            case let .success(data): tally.bytes += data.count
            case .failure: tally.failures += 1
            }
            next()
        }
        return
    }
    session.request(url).responseData(queue: handlerQueue) { response in
        tally.finished += 1
        if case let .success(data) = response.result, response.response?.statusCode == 200 {
            tally.bytes += data.count
        } else {
            tally.failures += 1
        }
        if response.metrics?.transactionMetrics.last?.isReusedConnection == false {
            tally.connections += 1
        }
        next()
    }
}

/// On `handlerQueue`, after a request finished: the next one, or the end.
@Sendable func next() {
    if tally.started < count {
        startOne()
    } else if tally.finished == count {
        done.signal()
    }
}

/// `inflight` tasks, each awaiting one request after another until `count` were started; each
/// keeps its own counts and adds them to `tally` once, at its end (as ahc-bench-client's do).
func startAsyncLoops() {
    let counter = StartCounter(limit: count)
    for _ in 0..<inflight {
        Task {
            var finished = 0, failures = 0, bytes = 0
            while counter.take() {
                let data = try? await session.request(url).validate().serializingData().value
                finished += 1
                if let data { bytes += data.count } else { failures += 1 }
            }
            handlerQueue.sync {
                tally.started += finished
                tally.finished += finished
                tally.failures += failures
                tally.bytes += bytes
                // The last loop to report, all counts in: decided here, where they are added.
                if tally.finished == count { done.signal() }
            }
        }
    }
}

measureRequests(on: handlerQueue, start: {
    if form == "async" {
        startAsyncLoops()
    } else if form == "blocking" {
        // The handler's queue signals the waiting thread, which makes every request.
        Thread {
            let answered = DispatchSemaphore(value: 0)
            for _ in 0..<count {
                session.request(url).validate().responseData(queue: handlerQueue) { response in
                    tally.finished += 1
                    if case let .success(data) = response.result { tally.bytes += data.count } else { tally.failures += 1 }
                    answered.signal()
                }
                answered.wait()
            }
            done.signal()
        }.start()
    } else {
        for _ in 0..<inflight { startOne() }
    }
}, until: done) { seconds, usage in
    RunResult(requests: count, failures: tally.failures, seconds: seconds, cpuSeconds: usage.cpuSeconds,
              maxRSSKiB: usage.maxRSSKiB, connections: form == "metrics" ? tally.connections : -1, bytes: tally.bytes)
}
