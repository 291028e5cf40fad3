import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Reads `UploadSegments` in order into the caller's buffer, opening each file when it is
/// reached and checking it is as long as when the body was made; rewinds for a resend. A file
/// that is gone, changed size or ends early fails the read with
/// `AFError.multipartEncodingFailed` naming it. Not thread-safe: one reader per exchange.
package final class SegmentedUploadReader: UploadBodyReader {
    private let body: UploadSegments
    private var index = 0
    /// Bytes of the current segment already read.
    private var done: UInt64 = 0
    private var descriptor: Int32 = -1
    /// Why the last read failed.
    package private(set) var failure: AFError?

    package var length: Int64 { Int64(body.length) }

    package init(_ body: UploadSegments) {
        self.body = body
    }

    deinit {
        closeFile()
    }

    /// Why `body` cannot be sent as it was made (a file gone, or of another size), checked before
    /// any byte goes out; nil when it can.
    package static func problem(in body: UploadSegments) -> AFError? {
        for case let .file(url, _, _, fileSize) in body.segments {
            var status = stat()
            guard stat(url.path, &status) == 0 else { return unreachable(url) }
            if let problem = sizeProblem(url, status: status, expected: fileSize) { return problem }
        }
        return nil
    }

    /// The file at `url` could not be opened or read (the reason in `errno`).
    private static func unreachable(_ url: URL) -> AFError {
        .multipartEncodingFailed(reason: .bodyPartFileNotReachableWithError(
            atURL: url, error: POSIXError.current))
    }

    /// The file at `url` gave `found` bytes where `expected` were promised.
    private static func resized(_ url: URL, expected: UInt64, found: UInt64) -> AFError {
        .multipartEncodingFailed(reason: .bodyPartFileSizeQueryFailedWithError(
            forURL: url, error: AFError.UnexpectedInputStreamLength(bytesExpected: expected, bytesRead: found)))
    }

    /// Why a file of `status` is not the `expected` bytes long; nil when it is.
    private static func sizeProblem(_ url: URL, status: stat, expected: UInt64) -> AFError? {
        let size = UInt64(max(0, status.st_size))
        return size == expected ? nil : resized(url, expected: expected, found: size)
    }

    /// Reads up to `count` bytes into `buffer`; 0 at the end, -1 on an error (see `failure`).
    package func read(into buffer: UnsafeMutableRawPointer, count: Int) -> Int {
        var filled = 0
        while filled < count, index < body.segments.count {
            let segment = body.segments[index]
            let wanted = Int(min(UInt64(count - filled), segment.length - done))
            let got: Int
            switch segment {
            case let .bytes(data):
                data.withUnsafeBytes { (buffer + filled).copyMemory(from: $0.baseAddress! + Int(done), byteCount: wanted) }
                got = wanted
            case let .file(url, offset, length, fileSize):
                if descriptor < 0, !openFile(url, at: offset + done, size: fileSize) { return -1 }
                got = wanted == 0 ? 0 : readFile(into: buffer + filled, count: wanted)
                if got < 0 { return fail(Self.unreachable(url)) }
                if got == 0, done < length { return fail(Self.resized(url, expected: length, found: done)) }
            }
            filled += got
            done += UInt64(got)
            if done == segment.length {
                closeFile()
                index += 1
                done = 0
            }
        }
        return filled
    }

    /// Moves to `offset` from the start; false when it is past the end.
    package func seek(to offset: Int64) -> Bool {
        guard offset >= 0, UInt64(offset) <= body.length else { return false }
        closeFile()
        var left = UInt64(offset)
        index = 0
        while index < body.segments.count, left >= body.segments[index].length, left > 0 {
            left -= body.segments[index].length
            index += 1
        }
        done = left
        return true
    }

    private func openFile(_ url: URL, at position: UInt64, size: UInt64) -> Bool {
        let opened = open(url.path, O_RDONLY | O_CLOEXEC)
        guard opened >= 0 else {
            _ = fail(Self.unreachable(url))
            return false
        }
        var status = stat()
        let problem = fstat(opened, &status) != 0 || lseek(opened, off_t(position), SEEK_SET) != off_t(position)
            ? Self.resized(url, expected: size, found: UInt64(max(0, status.st_size)))
            : Self.sizeProblem(url, status: status, expected: size)
        if let problem {
            close(opened)
            _ = fail(problem)
            return false
        }
        descriptor = opened
        return true
    }

    private func readFile(into buffer: UnsafeMutableRawPointer, count: Int) -> Int {
        while true {
            let result = Glibc.read(descriptor, buffer, count)
            if result < 0, errno == EINTR { continue }
            return result
        }
    }

    private func closeFile() {
        if descriptor >= 0 { close(descriptor) }
        descriptor = -1
    }

    private func fail(_ error: AFError) -> Int {
        failure = error
        closeFile()
        return -1
    }
}
