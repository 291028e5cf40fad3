import AFCore
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A whole encoded form in a file, for a form above the threshold none of whose parts is a file:
/// made in a new directory only this process's user can enter (`SpillDirectory`, 0700) and
/// created exclusively with mode 0600, so no other user can swap it for a link. The upload sends
/// it as a `.file` that the request removes when it ends, as Alamofire removes its temporary
/// file; a URL kept past that end then names no file.
final class EncodedFormFile: Sendable {
    /// The file, inside its own directory.
    let url: URL
    private let directory: String

    /// Writes `parts` encoded with `boundary`; on failure nothing is left behind.
    init(parts: [BodyPart], boundary: String) throws {
        let directory = try SpillDirectory.make()
        let url = URL(fileURLWithPath: directory).appendingPathComponent("form")
        do {
            let output = try EncodedFileOutput(url: url)
            do {
                try MultipartEncoder(boundary: boundary).encode(parts, to: output.write)
                try output.close()
            } catch {
                try? output.close()
                throw error
            }
        } catch {
            unlink(url.path)
            rmdir(directory)
            throw error
        }
        self.url = url
        self.directory = directory
    }

    /// Removes the file, when the request has not, and its directory.
    func discard() {
        unlink(url.path)
        rmdir(directory)
    }
}
