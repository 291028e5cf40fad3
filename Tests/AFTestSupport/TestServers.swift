import AFCore
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The loopback servers the tests talk to, started once per test process by
/// `Tests/Fixtures/servers.py` and stopped when the process ends (the script watches its stdin).
/// Set `AF_TEST_SERVERS` to a JSON file written by `servers.py --detach FILE` to reuse running ones.
package struct TestServers: Sendable {
    /// httpbin served by gunicorn directly (HTTP/1.1).
    package let httpbin: String
    /// nginx in front of httpbin over HTTP/1.1, with `/static/` files.
    package let http: String
    /// nginx in front of httpbin over HTTPS with HTTP/2, certificate from `caFile`.
    package let https: String
    /// nginx speaking only cleartext HTTP/2 (h2c with prior knowledge), same locations as `http`.
    package var h2c: String { all["h2c"]! }
    /// The misbehaving server (`faults.py`).
    package let faults: String
    /// The test CA's certificate.
    package let caFile: String
    /// Everything servers.py described, by key (`tls.<case>` for the trust matrix, `directory`).
    package let all: [String: String]

    package static let shared: TestServers = start()

    private static let keepAlive = Protected<FileHandle?>(nil)

    private static func start() -> TestServers {
        let json: Data
        if let path = ProcessInfo.processInfo.environment["AF_TEST_SERVERS"] {
            guard let data = FileManager.default.contents(atPath: path) else {
                fatalError("AF_TEST_SERVERS names \(path), which cannot be read")
            }
            json = data
        } else {
            json = launch()
        }
        guard let object = try? JSONSerialization.jsonObject(with: json) as? [String: String] else {
            fatalError("servers.py printed no description: \(String(decoding: json, as: UTF8.self))")
        }
        if let error = object["error"] { fatalError("servers.py failed: \(error)") }
        let servers = TestServers(httpbin: object["httpbin"]!, http: object["http"]!, https: object["https"]!,
                                  faults: object["faults"]!, caFile: object["caFile"]!, all: object)
        // Sessions made after this trust the test CA (AF reads SSL_CERT_FILE like OpenSSL does).
        setenv("SSL_CERT_FILE", servers.caFile, 1)
        return servers
    }

    private static func launch() -> Data {
        let script = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/servers.py")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", script.path]
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        do {
            try process.run()
        } catch {
            fatalError("cannot start \(script.path): \(error)")
        }
        // Held open for the life of the process; its closing tells servers.py to stop.
        keepAlive.withLock { $0 = input.fileHandleForWriting }
        var line = Data()
        while true {
            let byte = output.fileHandleForReading.readData(ofLength: 1)
            if byte.isEmpty || byte == Data("\n".utf8) { break }
            line.append(byte)
        }
        return line
    }
}
