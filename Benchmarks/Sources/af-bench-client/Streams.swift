import AFCore
import BenchSupport
import Dispatch
import Foundation

/// COUNT `DataStreamRequest`s of URL at once, each streamed to a handler on a serial queue of
/// its own that counts the bytes; the result when all have completed.
func runStreams(url: String, count: Int) -> Never {
    let configuration = URLSessionConfiguration.af.default
    configuration.httpMaximumConnectionsPerHost = max(1, count)
    let session = Session(configuration: configuration)
    let tally = DispatchQueue(label: "af-bench.streams.tally")
    let done = DispatchSemaphore(value: 0)
    nonisolated(unsafe) var finished = 0
    nonisolated(unsafe) var failures = 0
    nonisolated(unsafe) var bytes = 0
    measureRequests(on: tally, start: {
        for index in 0..<count {
            nonisolated(unsafe) var received = 0
            session.streamRequest(url).responseStream(on: DispatchQueue(label: "af-bench.stream.\(index)")) { stream in
                switch stream.event {
                case let .stream(.success(data)):
                    received += data.count
                case let .complete(completion):
                    let total = received
                    tally.async {
                        bytes += total
                        if completion.error != nil { failures += 1 }
                        finished += 1
                        if finished == count { done.signal() }
                    }
                }
            }
        }
    }, until: done) { seconds, usage in
        RunResult(requests: count, failures: failures, seconds: seconds, cpuSeconds: usage.cpuSeconds,
                  maxRSSKiB: usage.maxRSSKiB, connections: count, bytes: bytes)
    }
}
