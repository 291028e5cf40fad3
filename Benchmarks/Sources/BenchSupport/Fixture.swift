import Foundation

/// The project's test servers (Tests/Fixtures/servers.py), started for the length of a run.
public final class Fixture {
    public struct Endpoints: Decodable {
        public var http: String
        public var https: String
        public var faults: String
        public var caFile: String
        /// The servers' scratch folder; nginx serves its `static/` under `/static/`.
        public var directory: String
    }

    public let endpoints: Endpoints
    private let servers: ServerScript

    /// Starts the servers and waits until they answer.
    public init(script: URL) throws {
        servers = try ServerScript(script)
        do {
            endpoints = try JSONDecoder().decode(Endpoints.self, from: servers.readyLine)
        } catch {
            servers.stop()
            throw BenchError("test servers did not start: \(String(decoding: servers.readyLine, as: UTF8.self))")
        }
    }

    /// Stops the servers.
    public func stop() { servers.stop() }
}

/// A fixture script run with python3: it prints one line once it serves (what it serves, as
/// JSON) and exits when its standard input closes.
public final class ServerScript {
    /// The line the script printed when ready.
    public let readyLine: Data
    private let process = Process()
    private let input = Pipe()

    public init(_ script: URL) throws {
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", script.path]
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        var line = Data()
        while let byte = try output.fileHandleForReading.read(upToCount: 1), !byte.isEmpty, byte != Data("\n".utf8) {
            line.append(byte)
        }
        readyLine = line
    }

    /// Closes the script's standard input and waits for it to exit.
    public func stop() {
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
    }
}

/// A failure that ends the benchmark run with a message.
public struct BenchError: Error, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}
