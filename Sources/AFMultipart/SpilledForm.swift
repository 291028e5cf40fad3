import AFCore
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Parts of a form that cannot stay in memory or be read twice, written into a file that has no
/// name: it is created in a new directory only this process's user can enter (`mkdtemp`, 0700),
/// which is removed with the file's name at once, and read through its descriptor
/// (`/proc/self/fd/N` opens the same file, never a path another user could swap). Replays
/// (retries, 307/308) read it again; the descriptor closes when the request ends, and the bytes
/// go with it. Nothing is left in the temporary directory.
final class SpilledForm: @unchecked Sendable {
    private let descriptor: Protected<Int32>

    /// Where the engine reads the spilled bytes.
    let url: URL
    /// How many bytes were written.
    let size: UInt64
    /// The directory the file was made in, removed since (for tests).
    let directory: String

    /// Creates the file and lets `fill` write into it.
    init(_ fill: (EncodedFileOutput) throws -> Void) throws {
        let directory = try SpillDirectory.make()
        self.directory = directory
        let file = URL(fileURLWithPath: directory).appendingPathComponent("form")
        let output: EncodedFileOutput
        do {
            output = try EncodedFileOutput(url: file, readable: true)
        } catch {
            rmdir(directory)
            throw error
        }
        unlink(file.path)
        rmdir(directory)
        do {
            try fill(output)
        } catch {
            try? output.close()
            throw error
        }
        let descriptor = output.detach()
        size = UInt64(max(0, lseek(descriptor, 0, SEEK_END)))
        self.descriptor = Protected(descriptor)
        url = URL(fileURLWithPath: "/proc/self/fd/\(descriptor)")
    }

    /// Closes the descriptor (once).
    func close() {
        let open = descriptor.withLock { descriptor -> Int32 in
            defer { descriptor = -1 }
            return descriptor
        }
        if open >= 0 { _ = Glibc.close(open) }
    }

    deinit { close() }
}

/// A private directory for one spilled form, made with `mkdtemp` (mode 0700, a name no one
/// could have prepared) under the temporary directory.
enum SpillDirectory {
    static func make() throws -> String {
        var template = Array((FileManager.default.temporaryDirectory.path + "/AF-multipart-XXXXXX").utf8CString)
        guard let created = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            throw AFError.multipartEncodingFailed(reason: .outputStreamCreationFailed(
                for: FileManager.default.temporaryDirectory))
        }
        return String(cString: created)
    }
}
