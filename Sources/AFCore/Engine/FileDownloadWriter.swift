import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Where an exchange writes its response body: a file, and how many bytes of it a resumed
/// download keeps (its first `resumeOffset` bytes, continued by a 206 response).
struct DownloadTarget: Sendable, Equatable {
    var file: URL
    var resumeOffset: Int64 = 0
}

/// Writes a response body straight to a file as it arrives, so memory does not grow with the
/// body. Engine thread only.
final class FileDownloadWriter {
    private let descriptor: Int32
    let url: URL
    /// Set when a write failed (disk full, file size limit, I/O error).
    private(set) var failure: URLError?

    /// Opens the file of `target`: emptied, or kept up to `resumeOffset` for a resumed download
    /// (it must hold at least that many bytes).
    init(target: DownloadTarget) throws(URLError) {
        url = target.file
        let flags = O_WRONLY | O_CREAT | O_CLOEXEC | (target.resumeOffset > 0 ? 0 : O_TRUNC)
        let descriptor = open(url.path, flags, 0o600)
        guard descriptor >= 0 else {
            throw Self.error(.cannotCreateFile, url: url, code: errno)
        }
        self.descriptor = descriptor
        if target.resumeOffset > 0 {
            var status = stat()
            guard fstat(descriptor, &status) == 0, Int64(status.st_size) >= target.resumeOffset else {
                throw URLError(.cannotOpenFile, userInfo: [NSURLErrorFailingURLErrorKey: url,
                                                           NSLocalizedDescriptionKey: "The partial download is shorter than its resume data says."])
            }
        }
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
                failure = Self.error(.cannotWriteToFile, url: url, code: errno)
                return false
            }
            written += result
        }
        return true
    }

    /// Keeps the first `length` bytes and writes after them: 0 for a new body, the resume
    /// offset for a body that continues the file.
    func start(keeping length: Int64) {
        _ = ftruncate(descriptor, off_t(length))
        _ = lseek(descriptor, off_t(length), SEEK_SET)
    }

    private static func error(_ code: URLError.Code, url: URL, code errorNumber: Int32) -> URLError {
        URLError(code, userInfo: [NSURLErrorFailingURLErrorKey: url,
                                  NSLocalizedDescriptionKey: String(cString: strerror(errorNumber)),
                                  "AFErrno": Int(errorNumber)])
    }
}
