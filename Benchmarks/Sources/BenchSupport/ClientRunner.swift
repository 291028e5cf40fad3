import Foundation

/// Runs a client executable once and decodes the result line it prints.
public struct ClientRunner {
    public var name: String
    public var executable: URL
    /// Extra trailing arguments after URL, COUNT, INFLIGHT, CAFILE.
    public var extraArguments: [String] = []

    public init(name: String, executable: URL, extraArguments: [String] = []) {
        self.name = name
        self.executable = executable
        self.extraArguments = extraArguments
    }

    public func run(url: String, count: Int, inflight: Int, caFile: String) throws -> RunResult {
        try run(arguments: [url, String(count), String(inflight), caFile] + extraArguments)
    }

    /// Runs a large-body workload (`upload-file`, `upload-stream`, `download`, `stream`) of `megabytes` MiB.
    public func runTransfer(mode: String, url: String, megabytes: Int) throws -> RunResult {
        try run(arguments: [mode, url, String(megabytes)])
    }

    /// Runs `count` sequential GETs of `url` answered by AF's HTTP cache (`cache-hits`).
    public func runCacheHits(url: String, count: Int) throws -> RunResult {
        try run(arguments: ["cache-hits", url, String(count)])
    }

    private func run(arguments: [String]) throws -> RunResult {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0,
              let result = try? JSONDecoder().decode(RunResult.self, from: data) else {
            throw BenchError("\(name) failed (exit \(process.terminationStatus)): \(String(decoding: data, as: UTF8.self))")
        }
        return result
    }
}
