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

    /// Set for a client that can only trust the system's CA bundle (URLSession on Linux): for
    /// HTTPS it runs in a private mount namespace where the fixtures' CA is bind-mounted over
    /// that bundle (root only; the system's own bundle is not touched).
    public var trustsSystemBundleOnly = false

    /// Set where failed requests are a result to report (the scale runs), not a broken run: a
    /// client that exits non-zero but printed its result line is then taken at its word.
    public var reportsFailures = false

    public func run(url: String, count: Int, inflight: Int, caFile: String) throws -> RunResult {
        let arguments = [url, String(count), String(inflight), caFile] + extraArguments
        guard trustsSystemBundleOnly, url.hasPrefix("https:") else { return try run(arguments: arguments) }
        let bundle = "/etc/ssl/certs/ca-certificates.crt"
        let script = "mount --bind \"$0\" \(bundle) && exec \"$@\""
        return try run(executable: URL(fileURLWithPath: "/usr/bin/unshare"),
                       arguments: ["--mount", "--", "/bin/sh", "-c", script, caFile, executable.path] + arguments)
    }

    /// Runs a large-body workload (`download`, `upload-file`, `upload-multipart`, and for AF
    /// `upload-stream`, `stream`) between `url` and the file at `path`.
    public func runTransfer(mode: String, url: String, path: String) throws -> RunResult {
        try run(arguments: [mode, url, path])
    }

    /// Runs `count` sequential GETs of `url` answered by the client's HTTP cache (`cache-hits`;
    /// `mode` names another form, such as AF's `cache-hits-same-queue`); with `keys`, AF's client
    /// hits that many URLs in turn.
    public func runCacheHits(url: String, count: Int, mode: String = "cache-hits", keys: Int? = nil) throws -> RunResult {
        try run(arguments: [mode, url, String(count)] + (keys.map { [String($0)] } ?? []))
    }

    /// One GET of `url` in `phase` (`network`, `store`, `serve`) with an SQLiteURLCache at `file`.
    public func runCacheBody(url: String, phase: String, file: String) throws -> RunResult {
        try run(arguments: ["cache-body", url, phase, file])
    }

    /// `af-bench-client soak`: the result, and the checkpoint lines it wrote to standard error.
    public func runSoak(url: String, count: Int, inflight: Int) throws -> (RunResult, [SoakCheckpoint]) {
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("af-soak-\(UUID().uuidString).log")
        guard FileManager.default.createFile(atPath: log.path, contents: nil) else { throw BenchError("cannot create \(log.path)") }
        defer { try? FileManager.default.removeItem(at: log) }
        let errors = try FileHandle(forWritingTo: log)
        let result = try run(arguments: ["soak", url, String(count), String(inflight)], errors: errors)
        try errors.close()
        let lines = String(decoding: try Data(contentsOf: log), as: UTF8.self).split(separator: "\n")
        return (result, lines.compactMap { try? JSONDecoder().decode(SoakCheckpoint.self, from: Data($0.utf8)) })
    }

    private func run(executable: URL? = nil, arguments: [String], errors: FileHandle? = nil) throws -> RunResult {
        let process = Process()
        process.executableURL = executable ?? self.executable
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        if let errors { process.standardError = errors }
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let decoded = try? JSONDecoder().decode(RunResult.self, from: data)
        if reportsFailures, let decoded, decoded.failures > 0 { return decoded }
        guard process.terminationStatus == 0, let result = decoded else {
            throw BenchError("\(name) failed (exit \(process.terminationStatus)): \(String(decoding: data, as: UTF8.self))")
        }
        return result
    }
}

/// What `af-bench-client soak` reports every 100,000 requests.
public struct SoakCheckpoint: Decodable, Sendable {
    public var finished: Int
    public var seconds: Double
    public var rssKiB: Int
    public var descriptors: Int
    public var threads: Int
}
