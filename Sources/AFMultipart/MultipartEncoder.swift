import AFCore
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Writes parts as multipart/form-data: `--boundary CRLF`, the part's headers, `CRLF`, its body,
/// and `CRLF --boundary-- CRLF` after the last one. Files and streams are copied a buffer at a
/// time, so memory does not grow with the body.
struct MultipartEncoder {
    static let bufferSize = 64 << 10

    let boundary: String

    func encode(_ parts: [BodyPart], to write: (UnsafeRawBufferPointer) throws -> Void) throws {
        for (index, part) in parts.enumerated() {
            try emit(head(of: part, at: index), to: write)
            try copyBody(of: part, to: write)
        }
        if !parts.isEmpty {
            try emit(closing, to: write)
        }
    }

    /// What goes before the body of the part at `index`: its boundary line and headers.
    func head(of part: BodyPart, at index: Int) -> String {
        var head = (index == 0 ? "--" : "\r\n--") + boundary + "\r\n"
        for header in part.headers { head += "\(header.name): \(header.value)\r\n" }
        return head + "\r\n"
    }

    /// What follows the last part.
    var closing: String { "\r\n--" + boundary + "--\r\n" }

    /// The bytes `encode` writes around the parts' bodies: every boundary line, header and the
    /// closing line.
    func framingLength(of parts: [BodyPart]) -> Int {
        guard !parts.isEmpty else { return 0 }
        return parts.indices.reduce(closing.utf8.count) { total, index in
            total + head(of: parts[index], at: index).utf8.count
        }
    }

    private func emit(_ text: String, to write: (UnsafeRawBufferPointer) throws -> Void) throws {
        var text = text
        try text.withUTF8 { try write(UnsafeRawBufferPointer($0)) }
    }

    func copyBody(of part: BodyPart, to write: (UnsafeRawBufferPointer) throws -> Void) throws {
        switch part.source {
        case let .data(data):
            try data.withUnsafeBytes { try write($0) }
        case let .file(url):
            let descriptor = open(url.path, O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else {
                throw AFError.multipartEncodingFailed(reason: .bodyPartInputStreamCreationFailed(for: url))
            }
            defer { close(descriptor) }
            try copy(expected: part.length, to: write) { buffer, count in Glibc.read(descriptor, buffer, count) }
        case let .stream(stream):
            stream.open()
            defer { stream.close() }
            try copy(expected: part.length, to: write) { buffer, count in
                stream.read(buffer.assumingMemoryBound(to: UInt8.self), maxLength: count)
            }
        }
    }

    /// Copies exactly `expected` bytes from `read`, as Alamofire does: a longer source is read
    /// only that far (the part's declared length is what the framing promises); fewer bytes or a
    /// read error fail with `inputStreamReadFailed`.
    private func copy(expected: UInt64, to write: (UnsafeRawBufferPointer) throws -> Void,
                      read: (UnsafeMutableRawPointer, Int) -> Int) throws {
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: Self.bufferSize, alignment: 16)
        defer { buffer.deallocate() }
        var copied: UInt64 = 0
        while copied < expected {
            let wanted = Int(min(UInt64(Self.bufferSize), expected - copied))
            let count = read(buffer, wanted)
            if count < 0 {
                throw AFError.multipartEncodingFailed(reason: .inputStreamReadFailed(
                    error: POSIXError.current))
            }
            if count == 0 { break }
            try write(UnsafeRawBufferPointer(start: buffer, count: count))
            copied += UInt64(count)
        }
        guard copied == expected else {
            throw AFError.multipartEncodingFailed(reason: .inputStreamReadFailed(
                error: AFError.UnexpectedInputStreamLength(bytesExpected: expected, bytesRead: copied)))
        }
    }
}

/// The file an encoded form is written to, created exclusively (never through a link) with
/// mode 0600.
final class EncodedFileOutput {
    private(set) var descriptor: Int32
    private let url: URL

    /// `readable`: opened for reading too, so the body can be sent from this descriptor.
    init(url: URL, readable: Bool = false) throws {
        self.url = url
        descriptor = open(url.path, (readable ? O_RDWR : O_WRONLY) | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            if errno == EEXIST {
                throw AFError.multipartEncodingFailed(reason: .outputStreamFileAlreadyExists(at: url))
            }
            throw AFError.multipartEncodingFailed(reason: .outputStreamCreationFailed(for: url))
        }
    }

    /// Hands the open descriptor over to the caller, who closes it.
    func detach() -> Int32 {
        defer { descriptor = -1 }
        return descriptor
    }

    func write(_ bytes: UnsafeRawBufferPointer) throws {
        var written = 0
        while written < bytes.count {
            let result = Glibc.write(descriptor, bytes.baseAddress! + written, bytes.count - written)
            if result < 0, errno == EINTR { continue }
            guard result > 0 else {
                throw AFError.multipartEncodingFailed(reason: .outputStreamWriteFailed(
                    error: POSIXError.current))
            }
            written += result
        }
    }

    func close() throws {
        guard descriptor >= 0 else { return }
        let result = Glibc.close(descriptor)
        descriptor = -1
        if result != 0 {
            throw AFError.multipartEncodingFailed(reason: .outputStreamWriteFailed(
                error: POSIXError.current))
        }
    }

    deinit { try? close() }
}
