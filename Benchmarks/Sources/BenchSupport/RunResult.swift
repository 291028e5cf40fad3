import Foundation

/// What one client run reports on its single line of JSON output.
public struct RunResult: Codable, Sendable {
    public var requests: Int
    public var failures: Int
    public var seconds: Double
    public var cpuSeconds: Double
    public var maxRSSKiB: Int
    public var connections: Int
    public var bytes: Int
    /// Cache workloads: how many measured requests reached the server instead of the cache.
    public var cacheMisses: Int?
    /// When the measured work started, in seconds on the monotonic clock (`CLOCK_MONOTONIC`,
    /// which a server on the same host can read too).
    public var startedAt: Double?

    public init(requests: Int, failures: Int, seconds: Double, cpuSeconds: Double,
                maxRSSKiB: Int, connections: Int, bytes: Int, cacheMisses: Int? = nil) {
        self.requests = requests
        self.failures = failures
        self.seconds = seconds
        self.cpuSeconds = cpuSeconds
        self.maxRSSKiB = maxRSSKiB
        self.connections = connections
        self.bytes = bytes
        self.cacheMisses = cacheMisses
    }

    public var requestsPerSecond: Double { Double(requests) / seconds }
    /// Transfer workloads: body bytes moved per second, in MB (10⁶ bytes).
    public var megabytesPerSecond: Double { Double(bytes) / seconds / 1e6 }
    public var cpuMillisecondsPer1000: Double { cpuSeconds * 1000 * 1000 / Double(requests) }
}

/// This process's CPU time and peak resident size.
public struct ProcessUsage: Sendable {
    public var cpuSeconds: Double
    public var maxRSSKiB: Int

    public static func current() -> ProcessUsage {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        let cpu = Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6
            + Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) / 1e6
        return ProcessUsage(cpuSeconds: cpu, maxRSSKiB: usage.ru_maxrss)
    }
}

extension RunResult {
    /// Prints the result as the one JSON line `ClientRunner` reads and exits: 0, or 1 when
    /// some requests failed.
    public func report() -> Never {
        var result = self
        // Reported as soon as the work ends: its start is `seconds` before now.
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        result.startedAt = result.startedAt ?? Double(now.tv_sec) + Double(now.tv_nsec) / 1e9 - seconds
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        FileHandle.standardOutput.write((try? encoder.encode(result)).map { $0 + Data("\n".utf8) } ?? Data())
        exit(failures == 0 ? 0 : 1)
    }
}

/// Times a request workload: runs `start` on `queue` (the handlers' queue, which keeps the
/// counters), waits for `done`, then builds the result on `queue` from the elapsed seconds and
/// the process's usage, and reports it.
public func measureRequests(on queue: DispatchQueue, start: () -> Void, until done: DispatchSemaphore,
                            result: (_ seconds: Double, _ usage: ProcessUsage) -> RunResult) -> Never {
    let startTime = DispatchTime.now()
    queue.sync(execute: start)
    done.wait()
    let seconds = Double(DispatchTime.now().uptimeNanoseconds - startTime.uptimeNanoseconds) / 1e9
    let usage = ProcessUsage.current()
    queue.sync { result(seconds, usage) }.report()
}
