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
    let argv = [path] + arguments
    let envp = (environment ?? ProcessInfo.processInfo.environment).map { "\($0.key)=\($0.value)" }
    let pid = withCStrings(argv) { argv in
        withCStrings(envp) { envp in
            afts_spawn(path, argv, envp, directory, files[0].descriptor, files[1].descriptor, files[2].descriptor)
        }
    }
    guard pid > 0 else { throw ProgramFailure(description: "\(path): \(String(cString: strerror(errno)))") }
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 {
        guard errno == EINTR else { throw ProgramFailure(description: "waitpid: \(String(cString: strerror(errno)))") }
    }
    let signal = status & 0x7f
    return ProgramRun(status: signal == 0 ? (status >> 8) & 0xff : 128 + signal,
                      output: try files[1].contents(), errors: try files[2].contents())
}

/// A temporary file open for reading and writing, not inherited by children (they get a copy
/// of it as one of their standard descriptors).
private struct ScratchFile {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("af-program-\(UUID().uuidString)").path
    let descriptor: Int32

    init() throws {
        descriptor = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw ProgramFailure(description: "\(path): \(String(cString: strerror(errno)))") }
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
