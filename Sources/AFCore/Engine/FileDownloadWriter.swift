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

/// Writes a response body to a file as it arrives, so memory does not grow with the body.
/// Bytes are gathered into page-aligned writes of `bufferSize`: curl hands over at most 16 KiB
/// at a time, at offsets shifted by the response head, and the kernel zeroes and re-touches a
/// partly written page on every unaligned write. Engine thread only.
final class FileDownloadWriter {
    /// Bytes gathered before a write: twice curl's pieces. Not larger: how fast the kernel copies
    /// a write into the page cache depends on its size, and not steadily from one machine to
    /// another; writes of 64 KiB and more were measured at half the speed of small ones on some,
    /// while 32 KiB was at or near the fastest everywhere (the benchmarks' transfer rows).
    static let bufferSize = 32 * 1024
    private static let pageSize = 4096

    private let descriptor: Int32
    let url: URL
    /// Set when a write failed (disk full, file size limit, I/O error).
    private(set) var failure: URLError?
    private let buffer = UnsafeMutableRawPointer.allocate(byteCount: bufferSize, alignment: pageSize)
    private var buffered = 0
    /// Where the buffer is written out: full, or short once so later writes start on a page.
    private var flushAt = bufferSize

    /// Opens the file of `target`: emptied, or kept up to `resumeOffset` for a resumed download
    /// (it must hold at least that many bytes). The file is this user's, mode 0600 whatever the
    /// umask, and never reached through a symbolic link planted at its path; it is checked
    /// before anything in it is cut.
    init(target: DownloadTarget) throws(URLError) {
        url = target.file
        let descriptor = open(url.path, O_WRONLY | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            let code = errno
            buffer.deallocate()
            guard code != ELOOP else {
                throw URLError(.cannotCreateFile, userInfo: [NSURLErrorFailingURLErrorKey: url,
                                                             NSLocalizedDescriptionKey: "The download file is a symbolic link."])
            }
            throw Self.error(.cannotCreateFile, url: url, code: code)
        }
        if let problem = Self.problem(with: descriptor, keeping: target.resumeOffset) {
            close(descriptor)
            buffer.deallocate()
            throw URLError(.cannotOpenFile, userInfo: [NSURLErrorFailingURLErrorKey: url, NSLocalizedDescriptionKey: problem])
        }
        self.descriptor = descriptor
    }

    /// Why the open file cannot take the download, after making it 0600 and emptying it when the
    /// download starts from zero; nil when it can. A character device (`/dev/null`) takes the
    /// bytes as they are: only root can make one, so none is planted.
    private static func problem(with descriptor: Int32, keeping resumeOffset: Int64) -> String? {
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { return String(cString: strerror(errno)) }
        if status.st_mode & S_IFMT == S_IFCHR, resumeOffset == 0 { return nil }
        guard status.st_mode & S_IFMT == S_IFREG, status.st_uid == geteuid() else {
            return "The download file is not a regular file of this user's."
        }
        // A second name would make the download's bytes land in another file too.
        guard status.st_nlink == 1 else { return "The download file has another name (a hard link)." }
        if status.st_mode & 0o7777 != 0o600, fchmod(descriptor, 0o600) != 0 { return String(cString: strerror(errno)) }
        if resumeOffset > 0 {
            return Int64(status.st_size) >= resumeOffset ? nil : "The partial download is shorter than its resume data says."
        }
        return truncate(descriptor, to: 0, from: Int64(status.st_size)) ? nil : String(cString: strerror(errno))
    }

    /// Cuts the file to `length` bytes, only when it is longer: on ext4, cutting a file to no
    /// bytes, even an empty one, makes its close wait for the whole file's writeback to start
    /// (the filesystem's guard for files rewritten in place), which stalls the end of a large
    /// download (see Benchmarks/README).
    private static func truncate(_ descriptor: Int32, to length: Int64, from size: Int64) -> Bool {
        size <= length || ftruncate(descriptor, off_t(length)) == 0
    }

    deinit {
        close(descriptor)
        buffer.deallocate()
    }

    /// Appends `count` bytes; false (with `failure` set) when what was gathered could not be written.
    func write(_ bytes: UnsafeRawPointer, count: Int) -> Bool {
        var taken = 0
        while taken < count {
            let chunk = min(count - taken, flushAt - buffered)
            (buffer + buffered).copyMemory(from: bytes + taken, byteCount: chunk)
            buffered += chunk
            taken += chunk
            if buffered == flushAt {
                guard flush() else { return false }
            }
        }
        return true
    }

    /// Writes out what is gathered; false (with `failure` set) when it could not all be written.
    /// Called when the body ends, however it ends, so a partial file holds every byte received.
    func flush() -> Bool {
        var written = 0
        while written < buffered {
            let result = Glibc.write(descriptor, buffer + written, buffered - written)
            if result < 0, errno == EINTR { continue }
            guard result > 0 else {
                failure = Self.error(.cannotWriteToFile, url: url, code: errno)
                buffered = 0
                return false
            }
            written += result
        }
        buffered = 0
        flushAt = Self.bufferSize
        return true
    }

    /// Keeps the first `length` bytes and writes after them: 0 for a new body, the resume
    /// offset for a body that continues the file. Drops what an earlier response left gathered.
    func start(keeping length: Int64) {
        buffered = 0
        var status = stat()
        _ = Self.truncate(descriptor, to: length, from: fstat(descriptor, &status) == 0 ? Int64(status.st_size) : .max)
        _ = lseek(descriptor, off_t(length), SEEK_SET)
        flushAt = Self.bufferSize - Int(length % Int64(Self.pageSize))
    }

    private static func error(_ code: URLError.Code, url: URL, code errorNumber: Int32) -> URLError {
        URLError(code, userInfo: [NSURLErrorFailingURLErrorKey: url,
                                  NSLocalizedDescriptionKey: String(cString: strerror(errorNumber)),
                                  "AFErrno": Int(errorNumber)])
    }
}
