import AFTestSupport
import Foundation
import Testing

/// The `af` tool, run as a process against the loopback servers.
@Suite(.timeLimit(.minutes(1))) struct CLITests {
    struct Run {
        var status: Int32
        var output: String
        var errors: String
        var json: [String: Any] { (try? JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any]) ?? [:] }
    }

    /// Runs `af arguments` in `directory`; returns when the tool has exited (see `runProgram`).
    /// `launcher` runs the tool in its stead (`setpriv` with its options, say).
    static func af(_ arguments: [String], in directory: URL? = nil, launcher: [String] = [], input: Data = Data()) throws -> Run {
        let tool = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("af")
        var environment = ProcessInfo.processInfo.environment
        environment["SSL_CERT_FILE"] = TestServers.shared.caFile
        let run = try runProgram(launcher.first ?? tool.path,
                                 launcher.isEmpty ? arguments : Array(launcher.dropFirst()) + [tool.path] + arguments,
                                 input: input, environment: environment, directory: directory?.path)
        return Run(status: run.status, output: run.text, errors: String(decoding: run.errors, as: UTF8.self))
    }

    @Test func jsonFieldsQueryAndHeaders() throws {
        let run = try Self.af(["POST", Server.httpbin("/post"), "name=af", "count:=3", "tags:=[1,2]", "q==search", "X-Demo:yes"])
        #expect(run.status == 0, "\(run.errors)")
        #expect(run.json["json"] as? NSDictionary == ["name": "af", "count": 3, "tags": [1, 2]] as NSDictionary)
        #expect((run.json["args"] as? [String: String])?["q"] == "search")
        #expect((run.json["headers"] as? [String: String])?["X-Demo"] == "yes")
        #expect(run.errors.contains("200 OK"))
    }

    @Test func formMultipartAndUpload() throws {
        let form = try Self.af(["-f", Server.httpbin("/post"), "a=1", "b=x y&z"])
        #expect(form.json["form"] as? [String: String] == ["a": "1", "b": "x y&z"])
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("af-cli-\(UUID().uuidString).txt")
        defer { try? FileManager.default.removeItem(at: file) }
        try Data("file body\n".utf8).write(to: file)
        let multipart = try Self.af([Server.httpbin("/post"), "note=hi", "doc@\(file.path)"])
        #expect(multipart.json["files"] as? [String: String] == ["doc": "file body\n"])
        #expect(multipart.json["form"] as? [String: String] == ["note": "hi"])
        let upload = try Self.af(["--upload", file.path, "PUT", Server.httpbin("/put")])
        #expect(upload.json["data"] as? String == "file body\n")
        #expect(try Self.af(["--upload", "/no/such/file", Server.httpbin("/put")]).status == 6)
    }

    @Test func exitStatuses() throws {
        #expect(try Self.af([Server.httpbin("/status/404")]).status == 4)
        #expect(try Self.af([Server.httpbin("/status/503")]).status == 5)
        let usage = try Self.af(["--bogus", Server.httpbin("/get")])
        #expect(usage.status == 2 && usage.errors.lowercased().contains("unknown option '--bogus'")
                    && usage.errors.contains("try 'af --help'"), "\(usage.errors)")
        #expect(usage.errors.split(separator: "\n").count == 2, "an error is said in two lines, not the usage text")
        for wait in ["--wait-for-network=inf", "--wait-for-network=1e300", "--wait-for-network=nan"] {
            let run = try Self.af([wait, Server.httpbin("/get")])
            #expect(run.status == 2 && run.errors.contains("--wait-for-network= needs seconds"), "\(wait): \(run.errors)")
        }
        let refused = try Self.af([Server.faults("/garbage")])
        #expect(refused.status == 3 && refused.errors.hasPrefix("af: "))
    }

    @Test func aDownloadCutPartWayResumesOnTheNextRun() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("af-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let cut = try Self.af(["-d", "-o", "body.bin", Server.faults("/resumable?size=100000&cut=30000")], in: directory)
        #expect(cut.status == 3 && cut.errors.contains("run the same command again to resume"), "\(cut.errors)")
        #expect(FileManager.default.fileExists(atPath: directory.appendingPathComponent("body.bin.af-resume").path))
        let resumed = try Self.af(["-d", "-o", "body.bin", Server.faults("/resumable?size=100000&cut=30000")], in: directory)
        #expect(resumed.status == 0 && resumed.errors.contains("resuming") && resumed.errors.contains("206"), "\(resumed.errors)")
        let body = try Data(contentsOf: directory.appendingPathComponent("body.bin"))
        #expect(body == patternBytes(100_000) { UInt8((7 * $0 + 3) % 256) })
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("body.bin.af-resume").path))
    }

    @Test func aResumeFileForAnotherURLIsNotFollowed() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("af-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        // A real resume file, left by a download of another URL, planted under this output name.
        let other = try Self.af(["-d", "-o", "body.bin", Server.faults("/resumable?size=100000&cut=30000")], in: directory)
        #expect(other.status == 3)
        let resumeFile = directory.appendingPathComponent("body.bin.af-resume")
        let saved = try JSONSerialization.jsonObject(with: Data(contentsOf: resumeFile)) as? [String: Any]
        let partialName = try #require(saved?["partialFileName"] as? String)
        let stalePartial = FileManager.default.temporaryDirectory.appendingPathComponent(partialName)
        #expect(FileManager.default.fileExists(atPath: stalePartial.path))
        let asked = Server.http("/bench.json")
        let run = try Self.af(["-d", "-o", "body.bin", asked], in: directory)
        #expect(run.status == 0 && run.errors.contains("starting afresh") && !run.errors.contains("resuming"), "\(run.errors)")
        #expect(try Data(contentsOf: directory.appendingPathComponent("body.bin")) == Data(#"{"hello":"world"}"#.utf8))
        #expect(!FileManager.default.fileExists(atPath: resumeFile.path))
        #expect(!FileManager.default.fileExists(atPath: stalePartial.path), "the partial file it named is not left behind")
    }

    @Test func cachePinsRetryAndHTTP2() throws {
        let database = FileManager.default.temporaryDirectory.appendingPathComponent("af-cli-\(UUID().uuidString).sqlite")
        defer { ["", "-wal", "-shm"].forEach { try? FileManager.default.removeItem(atPath: database.path + $0) } }
        _ = try Self.af(["--cache", database.path, Server.httpbin("/cache/60")])
        #expect(try Self.af(["-v", "--cache", database.path, Server.httpbin("/cache/60")]).errors.contains("(cache)"))

        let directory = TestServers.shared.all["directory"]!
        let certificate = try String(contentsOfFile: "\(directory)/server.pem", encoding: .utf8)
        let pin = try #require(CertificatePin.sha256(ofPEM: certificate))
        #expect(try Self.af(["--pin", pin, Server.https("/get")]).status == 0)
        let mismatch = try Self.af(["--pin", "sha256/" + Data(count: 32).base64EncodedString(), Server.https("/get")])
        #expect(mismatch.status == 3 && mismatch.errors.contains("pinning"), "\(mismatch.errors)")

        let key = uniqueKey()
        #expect(try Self.af(["--retry", "2", Server.faults("/flaky/\(key)?fail=2")]).status == 0)
        #expect(try Self.af(["--retry", "1", Server.faults("/flaky/\(uniqueKey())?fail=2")]).status == 5)
    }

    @Test func waitingForTheNetworkOnlyWaitsWhenItIsGone() throws {
        // The network is up: a request goes through, and a refused connection fails at once
        // rather than waiting (a 120 s wait would overrun this suite's one-minute limit).
        #expect(try Self.af(["--wait-for-network=120", Server.httpbin("/get")]).status == 0)
        let refused = try Self.af(["--wait-for-network=120", "http://127.0.0.1:9/"])
        #expect(refused.status == 3 && refused.errors.hasPrefix("af: "), "\(refused.errors)")
        let usage = try Self.af(["--wait-for-network=soon", Server.httpbin("/get")])
        #expect(usage.status == 2 && usage.errors.contains("'soon' is invalid for '--wait-for-network"), "\(usage.errors)")
    }

    @Test func httpVersionOptions() throws {
        let negotiated = try Self.af(["--http2", Server.https("/get")])
        #expect(negotiated.status == 0 && negotiated.errors.contains("h2 200"), "\(negotiated.errors)")
        let cleartext = try Self.af(["--http2", Server.h2c("/get")])
        #expect(cleartext.status == 0 && cleartext.errors.contains("h2 200"), "\(cleartext.errors)")
        let refused = try Self.af(["--http2", Server.httpbin("/get")])
        #expect(refused.status == 3 && refused.errors.hasPrefix("af: "), "\(refused.errors)")
        let http1 = try Self.af(["--http1.1", Server.https("/get")])
        #expect(http1.status == 0 && http1.errors.contains("http/1.1 200"), "\(http1.errors)")
        let both = try Self.af(["--http1.1", "--http2", Server.https("/get")])
        #expect(both.status == 2 && both.errors.contains("cannot both be given"))
    }

    @Test func theDemoRunsAgainstItsOwnHttpbinAndLeavesNothingBehind() throws {
        let demo = try Self.af(["demo"])
        #expect(demo.status == 0, "\(demo.output)")
        #expect(demo.output.contains("== POST JSON to") && demo.output.contains("redirects: 2"), "\(demo.output)")
        let port = try #require(demo.output.firstMatch(of: /127\.0\.0\.1:(\d+)/).flatMap { UInt16($0.1) })
        #expect(!Self.somethingListens(onPort: port), "the demo's server outlived it")
    }

    /// Whether a TCP connection to 127.0.0.1:`port` is accepted.
    static func somethingListens(onPort port: UInt16) -> Bool {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
    }
}

/// A certificate's public key pin (`sha256/<base64 of its SPKI's SHA-256>`), computed with the
/// openssl tool, as curl's documentation shows.
enum CertificatePin {
    static func sha256(ofPEM pem: String) -> String? {
        let script = "openssl x509 -pubkey -noout | openssl pkey -pubin -outform der | openssl dgst -sha256 -binary | base64"
        guard let run = try? runProgram("/bin/sh", ["-c", script], input: Data(pem.utf8)) else { return nil }
        let text = run.text.trimmingCharacters(in: .whitespacesAndNewlines)
        return text.isEmpty ? nil : "sha256/" + text
    }
}
