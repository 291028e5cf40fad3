import AFTestSupport
import Foundation
import Testing

/// `af` as curl and httpie users expect it: help and errors, standard input, authentication,
/// localhost shorthand, and downloads that never write where the server says.
@Suite(.timeLimit(.minutes(1))) struct CLIHabitsTests {
    private func scratchDirectory() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("af-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    @Test func noArgumentsAndHelp() throws {
        let bare = try CLITests.af([])
        #expect(bare.status == 2 && bare.errors.contains("no URL") && bare.errors.contains("try 'af --help'"), "\(bare.errors)")
        let help = try CLITests.af(["--help"])
        #expect(help.status == 0 && help.output.contains("af [options] [METHOD] URL [ITEM ...]") && help.output.contains("Exit status"),
                "\(help.output)")
        let version = try CLITests.af(["--version"])
        #expect(version.status == 0 && version.output.split(separator: ".").count == 3, "\(version.output)")
        for shell in ["bash", "zsh", "fish"] {
            let completion = try CLITests.af(["--generate-completion-script", shell])
            #expect(completion.status == 0 && completion.output.contains("download-errors"), "\(shell): \(completion.errors)")
        }
        let badRetry = try CLITests.af(["--retry", "-1", Server.httpbin("/get")])
        #expect(badRetry.status == 2, "\(badRetry.errors)")
    }

    @Test func aBodyPipedToStandardInputIsSent() throws {
        let run = try CLITests.af(["POST", Server.httpbin("/post")], input: Data(#"{"x":1}"#.utf8))
        #expect(run.status == 0, "\(run.errors)")
        #expect(run.json["json"] as? NSDictionary == ["x": 1] as NSDictionary)
        #expect((run.json["headers"] as? [String: String])?["Content-Type"] == "application/json")
        let ignored = try CLITests.af(["--ignore-stdin", "POST", Server.httpbin("/post")], input: Data("x".utf8))
        #expect(ignored.json["data"] as? String == "")
        let get = try CLITests.af([Server.httpbin("/get")], input: Data("x".utf8))
        #expect(get.status == 0, "a GET does not read standard input")
    }

    @Test func authJSONAndLocalhostShorthand() throws {
        #expect(try CLITests.af(["-a", "user:secret", Server.httpbin("/basic-auth/user/secret")]).status == 0)
        #expect(try CLITests.af(["-u", "user:wrong", Server.httpbin("/basic-auth/user/secret")]).status == 4)
        let json = try CLITests.af(["--json", Server.httpbin("/get")])
        #expect((json.json["headers"] as? [String: String])?["Accept"] == "application/json, */*;q=0.5")
        let port = try #require(URL(string: Server.httpbin("/"))?.port)
        let short = try CLITests.af([":\(port)/get"])
        #expect(short.status == 0 && (short.json["url"] as? String)?.hasPrefix("http://localhost:\(port)/get") == true,
                "\(short.errors)")
    }

    @Test func aServersNameForTheFileStaysInTheWorkingDirectory() throws {
        let outer = try scratchDirectory()
        defer { try? FileManager.default.removeItem(at: outer) }
        let directory = outer.appendingPathComponent("a/b")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let run = try CLITests.af(["-d", Server.httpbin("/anything/x/..%2F..%2Fpwn.txt")], in: directory)
        #expect(run.status == 0, "\(run.errors)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["..%2F..%2Fpwn.txt"])
        #expect(!FileManager.default.fileExists(atPath: outer.appendingPathComponent("pwn.txt").path))
        #expect(!FileManager.default.fileExists(atPath: outer.appendingPathComponent("a/pwn.txt").path))
        let name = "af-absolute-\(UUID().uuidString)"
        let absolute = try CLITests.af(["-d", Server.httpbin("/anything/%2Ftmp%2F\(name)")], in: directory)
        #expect(absolute.status == 0, "\(absolute.errors)")
        #expect(FileManager.default.fileExists(atPath: directory.appendingPathComponent("%2Ftmp%2F\(name)").path))
        #expect(!FileManager.default.fileExists(atPath: "/tmp/\(name)"))
        let dots = try CLITests.af(["-d", Server.httpbin("/get/..")], in: directory)
        #expect(dots.status == 0 && FileManager.default.fileExists(atPath: directory.appendingPathComponent("index.html").path),
                "\(dots.errors)")
    }

    @Test func anExistingFileIsKeptAndAnswersOtherThan2xxAreNotSaved() throws {
        let directory = try scratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let kept = directory.appendingPathComponent("get")
        try Data("mine".utf8).write(to: kept)
        let second = try CLITests.af(["-d", Server.httpbin("/get")], in: directory)
        #expect(second.status == 0 && second.errors.contains("get-1"), "\(second.errors)")
        #expect(try Data(contentsOf: kept) == Data("mine".utf8))
        #expect(FileManager.default.fileExists(atPath: directory.appendingPathComponent("get-1").path))

        let missing = try CLITests.af(["-o", "get", Server.httpbin("/status/404")], in: directory)
        #expect(missing.status == 4 && missing.errors.contains("404: nothing saved"), "\(missing.errors)")
        #expect(try Data(contentsOf: kept) == Data("mine".utf8), "an error answer replaces nothing")
        let kept404 = try CLITests.af(["--download-errors", "-o", "error.txt", Server.httpbin("/status/404")], in: directory)
        #expect(kept404.status == 4 && FileManager.default.fileExists(atPath: directory.appendingPathComponent("error.txt").path))

        let saved = try CLITests.af(["-o", "out.json", Server.httpbin("/get")], in: directory)
        #expect(saved.status == 0 && FileManager.default.fileExists(atPath: directory.appendingPathComponent("out.json").path),
                "-o saves without -d")
    }

    @Test func verboseShowsTheRequestsHeadersAndNoControlCharacters() throws {
        let run = try CLITests.af(["-v", Server.faults("/terminal-escape")])
        #expect(run.errors.contains("> User-Agent: "), "\(run.errors)")
        #expect(!run.errors.contains("\u{1B}") && !run.errors.contains("\u{07}"))
        #expect(run.errors.contains("\\x1B]0;pwned\\x07"), "\(run.errors)")
    }

    @Test func aConnectionFailureIsOneSentenceAndCurlsDetailComesWithVerbose() throws {
        let run = try CLITests.af(["http://127.0.0.1:9/get"])
        #expect(run.status == 3)
        #expect(run.errors == "af: cannot connect to the server (127.0.0.1)\n", "\(run.errors)")
        let verbose = try CLITests.af(["-v", "http://127.0.0.1:9/get"])
        let detail = verbose.errors.split(separator: "\n").filter { $0.hasPrefix("af: detail: ") }
        // curl's summary: "Couldn't connect to server" in older releases, "Could not …" in newer ones.
        #expect(detail.count == 1 && detail[0].components(separatedBy: "connect to server").count == 2,
                "curl's detail, its summary said once: \(verbose.errors)")
    }
}
