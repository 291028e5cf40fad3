import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// An upload body curl pulls through its buffer as it sends, and can rewind to resend.
package protocol UploadBodyReader: AnyObject {
    /// The body's length in bytes.
    var length: Int64 { get }
    /// Reads up to `count` bytes into `buffer`; 0 at the end, -1 on an error.
    func read(into buffer: UnsafeMutableRawPointer, count: Int) -> Int
    /// Moves to `offset` from the start; false when that fails.
    func seek(to offset: Int64) -> Bool
    /// Why the last read failed, when the reader can say it better than "cannot open file".
    var failure: AFError? { get }
}

/// Reads an upload's file as curl sends it, through curl's buffer: memory does not grow with
/// the file. Engine thread only.
final class FileUploadReader: UploadBodyReader {
    private let descriptor: Int32
    /// The file's size when it was opened.
    let length: Int64
    /// Read errors are reported as `URLError(.cannotOpenFile)`, as URLSession does.
    var failure: AFError? { nil }

    /// Opens `url` for reading; throws the `URLError` a URLSession user would get.
    init(url: URL) throws(URLError) {
        let descriptor = open(url.path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw Self.error(errno, url: url) }
        var status = stat()
        guard fstat(descriptor, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else {
            close(descriptor)
            throw URLError(.fileIsDirectory, userInfo: [NSURLErrorFailingURLErrorKey: url])
        }
        self.descriptor = descriptor
        length = Int64(status.st_size)
    }

    deinit {
        close(descriptor)
    }

    /// Reads up to `count` bytes into `buffer`; 0 at the end, -1 on an error.
    func read(into buffer: UnsafeMutableRawPointer, count: Int) -> Int {
        while true {
            let result = Glibc.read(descriptor, buffer, count)
            if result < 0, errno == EINTR { continue }
            return result
        }
    }

    /// Moves to `offset` from the start; false when that fails.
    func seek(to offset: Int64) -> Bool {
        lseek(descriptor, off_t(offset), SEEK_SET) == off_t(offset)
    }

    private static func error(_ code: Int32, url: URL) -> URLError {
        let info: [String: Any] = [NSURLErrorFailingURLErrorKey: url,
                                   NSLocalizedDescriptionKey: String(cString: strerror(code))]
        switch code {
        case ENOENT, ENOTDIR: return URLError(.fileDoesNotExist, userInfo: info)
        case EACCES, EPERM: return URLError(.noPermissionsToReadFile, userInfo: info)
        case EISDIR: return URLError(.fileIsDirectory, userInfo: info)
        default: return URLError(.cannotOpenFile, userInfo: info)
        }
    }
}
