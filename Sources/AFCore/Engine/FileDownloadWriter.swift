import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Writes a response body straight to a file as it arrives, so memory does not grow with the
/// body. Engine thread only.
final class FileDownloadWriter {
    private let descriptor: Int32
    let url: URL
    /// Set when a write failed (disk full, file size limit, I/O error).
    private(set) var failure: URLError?

    /// Creates (or empties) the file at `url`.
    init(url: URL) throws(URLError) {
        let descriptor = open(url.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw URLError(.cannotCreateFile, userInfo: [NSURLErrorFailingURLErrorKey: url,
                                                         NSLocalizedDescriptionKey: String(cString: strerror(errno))])
        }
        self.descriptor = descriptor
        self.url = url
    }

    deinit {
        close(descriptor)
    }

    /// Appends `count` bytes; false (with `failure` set) when they could not all be written.
    func write(_ bytes: UnsafeRawPointer, count: Int) -> Bool {
        var written = 0
        while written < count {
            let result = Glibc.write(descriptor, bytes + written, count - written)
            if result < 0, errno == EINTR { continue }
            guard result > 0 else {
                let code = errno
                failure = URLError(.cannotWriteToFile, userInfo: [NSURLErrorFailingURLErrorKey: url,
                                                                  NSLocalizedDescriptionKey: String(cString: strerror(code)),
                                                                  "AFErrno": Int(code)])
                return false
            }
            written += result
        }
        return true
    }

    /// Empties the file: a new response (after an auth probe) replaces the previous body.
    func truncate() {
        _ = ftruncate(descriptor, 0)
        _ = lseek(descriptor, 0, SEEK_SET)
    }
}
