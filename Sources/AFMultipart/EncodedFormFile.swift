import AFCore
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A whole encoded form in a file, for a form above the threshold none of whose parts is a file:
/// made in a new directory only this process's user can enter (`SpillDirectory`, 0700) and
/// written by `writeEncodedData(to:)` (created exclusively, mode 0600), so no other user can swap
/// it for a link. The upload sends it as a `.file` that the request removes when it ends, as
/// Alamofire removes its temporary file; a URL kept past that end then names no file.
final class EncodedFormFile: Sendable {
    /// The file, inside its own directory.
    let url: URL
    private let directory: String

    /// Writes `form`; on failure nothing is left behind.
    init(_ form: MultipartFormData) throws {
        let directory = try SpillDirectory.make()
        let url = URL(fileURLWithPath: directory).appendingPathComponent("form")
        do {
            try form.writeEncodedData(to: url)
        } catch {
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
