import CTestSpawn
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// What a program run by `runProgram` left: its exit status and what it wrote.
package struct ProgramRun: Sendable {
    /// The exit status; 128 + the signal's number when a signal ended it.
    package let status: Int32
    package let output: Data
    package let errors: Data

    /// The output as text.
    package var text: String { String(decoding: output, as: UTF8.self) }
}

/// A program the tests could not start.
package struct ProgramFailure: Error, CustomStringConvertible {
    package let description: String

    /// `call` failed with the current `errno`.
    static func errno(_ call: String) -> ProgramFailure {
        ProgramFailure(description: "\(call): \(String(cString: strerror(Glibc.errno)))")
    }
}

/// Runs the program at `path` with `arguments` to its end: `input` on its standard input, its
/// output and errors kept in temporary files (not pipes, so a process it leaves behind cannot
/// hold the run open), every other descriptor closed in it. `environment`: this process's when
/// nil.
///
/// Not Foundation's `Process`: on Linux its `run()` copies 256 bytes of each `/proc/self/fd`
/// entry's name, reading past readdir's buffer once the process holds more than about a
/// thousand descriptors (swift-corelibs-foundation#5472), which the suite does while its tests
/// run side by side (over 2,000 at its peak); the test process then crashed.
package func runProgram(_ path: String, _ arguments: [String], input: Data = Data(),
                        environment: [String: String]? = nil, directory: String? = nil) throws -> ProgramRun {
    let files = try (0..<3).map { _ in try ScratchFile() }
    defer { files.forEach { $0.remove() } }
    try files[0].write(input)
    let pid = try spawn(path, arguments, environment: environment, directory: directory,
                        descriptors: (files[0].descriptor, files[1].descriptor, files[2].descriptor))
    return ProgramRun(status: try waitForEnd(of: pid), output: try files[1].contents(), errors: try files[2].contents())
}

/// A program started by `startProgram`, running until `stop()`.
package final class StartedProgram: Sendable {
    private let pid: pid_t
    /// The read end of its standard output.
    package let output: FileHandle
    private let errorsFile: ScratchFile

    fileprivate init(pid: pid_t, output: FileHandle, errorsFile: ScratchFile) {
        self.pid = pid
        self.output = output
        self.errorsFile = errorsFile
    }

    deinit {
        errorsFile.remove()
    }

    /// What it wrote to its standard error so far, as text: for a failing expectation's message.
    package var errors: String {
        String(decoding: (try? errorsFile.contents()) ?? Data(), as: UTF8.self)
    }

    /// Kills it (SIGKILL) and waits for its end.
    package func stop() {
        kill(pid, SIGKILL)
        _ = try? waitForEnd(of: pid)
        try? output.close()
    }

    /// Sends it `signal`.
    package func send(_ signal: Int32) {
        kill(pid, signal)
    }

    /// Waits for its end (off the caller's thread); its exit status, as `ProgramRun.status`.
    package func end() async throws -> Int32 {
        let pid = pid
        return try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread { continuation.resume(with: Result { try waitForEnd(of: pid) }) }
        }
    }

    /// Reads its output until a line holding `marker`; that line, or nil when the output ended first.
    package func line(containing marker: String) async -> String? {
        let output = output
        return await withCheckedContinuation { continuation in
            Thread.detachNewThread {
                var pending = Data()
                while true {
                    let chunk = output.availableData
                    if chunk.isEmpty { return continuation.resume(returning: nil) }
                    pending.append(chunk)
                    while let newline = pending.firstIndex(of: 0x0a) {
                        let line = String(decoding: pending[..<newline], as: UTF8.self)
                        pending.removeSubrange(...newline)
                        if line.contains(marker) { return continuation.resume(returning: line) }
                    }
                }
            }
        }
    }
}

/// Starts the program at `path` with `arguments` (see `runProgram`), its standard output a pipe
/// to read, its errors kept in a temporary file (`StartedProgram.errors`), its input
/// `/dev/null`. `environment`: this process's when nil.
package func startProgram(_ path: String, _ arguments: [String], environment: [String: String]? = nil) throws -> StartedProgram {
    var ends: [Int32] = [-1, -1]
    guard pipe(&ends) == 0 else { throw ProgramFailure.errno("pipe") }
    ends.forEach { _ = fcntl($0, F_SETFD, FD_CLOEXEC) }
    let null = open("/dev/null", O_RDWR | O_CLOEXEC)
    defer {
        close(null)
        close(ends[1])
    }
    do {
        let errorsFile = try ScratchFile()
        do {
            let pid = try spawn(path, arguments, environment: environment, directory: nil,
                                descriptors: (null, ends[1], errorsFile.descriptor))
            return StartedProgram(pid: pid, output: FileHandle(fileDescriptor: ends[0], closeOnDealloc: true),
                                  errorsFile: errorsFile)
        } catch {
            errorsFile.remove()
            throw error
        }
    } catch {
        close(ends[0])
        throw error
    }
}

/// Starts this test binary running only its Swift Testing suite `suite`, with `variables` added
/// to this process's environment (one of them enables the suite): for a test that changes what
/// belongs to the whole process (the umask, a limit, a signal's fate) without reaching the tests
/// running beside it.
package func startChildSuite(_ suite: String, adding variables: [String: String]) throws -> StartedProgram {
    let environment = ProcessInfo.processInfo.environment.merging(variables) { $1 }
    return try startProgram(CommandLine.arguments[0], ["--testing-library", "swift-testing", "--filter", suite],
                            environment: environment)
}

/// Starts the program with the given standard input, output and error; returns its pid.
private func spawn(_ path: String, _ arguments: [String], environment: [String: String]?, directory: String?,
                   descriptors: (input: Int32, output: Int32, errors: Int32)) throws -> pid_t {
    let envp = (environment ?? ProcessInfo.processInfo.environment).map { "\($0.key)=\($0.value)" }
    let pid = withCStrings([path] + arguments) { argv in
        withCStrings(envp) { envp in
            afts_spawn(path, argv, envp, directory, descriptors.input, descriptors.output, descriptors.errors)
        }
    }
    guard pid > 0 else { throw ProgramFailure.errno(path) }
    return pid
}

/// Waits for the child `pid` to end; returns its exit status (128 + the signal's number when a
/// signal ended it).
private func waitForEnd(of pid: pid_t) throws -> Int32 {
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 {
        guard errno == EINTR else { throw ProgramFailure.errno("waitpid") }
    }
    let signal = status & 0x7f
    return signal == 0 ? (status >> 8) & 0xff : 128 + signal
}

/// A temporary file open for reading and writing, not inherited by children (they get a copy
/// of it as one of their standard descriptors). Writes append, so a child still writing to its
/// copy never overwrites what was written while `contents()` read from the start.
private struct ScratchFile: Sendable {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("af-program-\(UUID().uuidString)").path
    let descriptor: Int32

    init() throws {
        descriptor = open(path, O_RDWR | O_CREAT | O_EXCL | O_APPEND | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw ProgramFailure.errno(path) }
    }

    func write(_ data: Data) throws {
        try FileHandle(fileDescriptor: descriptor, closeOnDealloc: false).write(contentsOf: data)
        lseek(descriptor, 0, SEEK_SET)
    }

    /// Read through the descriptor: `Data(contentsOf:)` leaks a 4 KiB buffer on an empty file
    /// (FoundationEssentials' readBytesFromFile, seen under -sanitize=address).
    func contents() throws -> Data {
        lseek(descriptor, 0, SEEK_SET)
        return try FileHandle(fileDescriptor: descriptor, closeOnDealloc: false).readToEnd() ?? Data()
    }

    func remove() {
        close(descriptor)
        unlink(path)
    }
}

/// Calls `body` with `strings` as a NULL-terminated array of C strings.
private func withCStrings<Result>(_ strings: [String], _ body: ([UnsafeMutablePointer<CChar>?]) -> Result) -> Result {
    let pointers = strings.map { strdup($0) } + [nil]
    defer { pointers.forEach { free($0) } }
    return body(pointers)
}
