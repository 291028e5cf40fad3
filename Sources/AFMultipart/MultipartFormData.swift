import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A multipart/form-data body (RFC 7578) built from data, files and streams. Files and streams
/// are read only when the body is encoded; errors found while appending are reported then.
open class MultipartFormData: @unchecked Sendable {
    /// Forms whose `contentLength` exceeds this many bytes are sent from their parts; smaller
    /// ones are encoded in memory.
    public static let encodingMemoryThreshold: UInt64 = 10_000_000

    /// The `Content-Type` header of the body, with its boundary.
    open var contentType: String {
        get { state.withLock { $0.contentType } }
        set { state.withLock { $0.contentType = newValue } }
    }

    /// The bytes of the parts' bodies (headers and boundaries not counted); `UInt64.max` when
    /// the declared lengths add up to more.
    public var contentLength: UInt64 {
        state.withLock { Self.bodiesLength(of: $0.parts) }
    }

    /// The parts' body lengths added up, `UInt64.max` past it.
    static func bodiesLength(of parts: [BodyPart]) -> UInt64 {
        parts.reduce(0) { total, part in
            let (sum, overflow) = total.addingReportingOverflow(part.length)
            return overflow ? .max : sum
        }
    }

    /// The boundary between parts: 128 random bits, so a part cannot contain it by chance nor
    /// by design.
    public let boundary: String

    /// Used to inspect files and remove a failed output file.
    public let fileManager: FileManager

    private struct State {
        var contentType: String
        var parts: [BodyPart] = []
        var error: AFError?
    }

    private let state: Protected<State>

    /// Creates an empty form; `boundary` defaults to a random one.
    public init(fileManager: FileManager = .default, boundary: String? = nil) {
        self.fileManager = fileManager
        let boundary = boundary ?? Self.randomBoundary()
        self.boundary = boundary
        state = Protected(State(contentType: "multipart/form-data; boundary=\(boundary)"))
    }

    /// Alamofire's form: `alamofire.boundary.` and 16 hexadecimal digits, 64 random bits (no
    /// part can be made to contain it without guessing them), so that a form's size is Alamofire's.
    static func randomBoundary() -> String {
        var generator = SystemRandomNumberGenerator()
        let high = generator.next() as UInt32
        let low = generator.next() as UInt32
        return "alamofire.boundary." + String(format: "%08x%08x", high, low)
    }

    // MARK: Appending

    /// Adds a part with `data` as its body.
    public func append(_ data: Data, withName name: String, fileName: String? = nil, mimeType: String? = nil) {
        append(BodyPart(headers: PartHeaders.make(name: name, fileName: fileName, mimeType: mimeType),
                        source: .data(data), length: UInt64(data.count)))
    }

    /// Adds the file at `fileURL`, named after its last path component, typed from its extension.
    public func append(_ fileURL: URL, withName name: String) {
        let fileName = fileURL.lastPathComponent
        guard !fileName.isEmpty, fileName != "/" else {
            return fail(.bodyPartFilenameInvalid(in: fileURL))
        }
        append(fileURL, withName: name, fileName: fileName,
               mimeType: MIMETypes.mimeType(forPathExtension: fileURL.pathExtension))
    }

    /// Adds the file at `fileURL` with the given file name and MIME type. The file must be a
    /// readable regular file; it is read when the form is encoded.
    public func append(_ fileURL: URL, withName name: String, fileName: String, mimeType: String) {
        guard fileURL.isFileURL else { return fail(.bodyPartURLInvalid(url: fileURL)) }
        var isDirectory: ObjCBool = false
        guard fileManager.fileExists(atPath: fileURL.path, isDirectory: &isDirectory) else {
            return fail(.bodyPartFileNotReachableWithError(atURL: fileURL, error: CocoaError(.fileNoSuchFile)))
        }
        guard !isDirectory.boolValue else { return fail(.bodyPartFileIsDirectory(at: fileURL)) }
        let size: UInt64
        do {
            guard let value = try fileManager.attributesOfItem(atPath: fileURL.path)[.size] as? NSNumber else {
                return fail(.bodyPartFileSizeNotAvailable(at: fileURL))
            }
            size = value.uint64Value
        } catch {
            return fail(.bodyPartFileSizeQueryFailedWithError(forURL: fileURL, error: error))
        }
        guard fileManager.isReadableFile(atPath: fileURL.path) else {
            return fail(.bodyPartInputStreamCreationFailed(for: fileURL))
        }
        append(BodyPart(headers: PartHeaders.make(name: name, fileName: fileName, mimeType: mimeType),
                        source: .file(fileURL), length: size))
    }

    /// Adds `length` bytes read from `stream` as a part.
    public func append(_ stream: InputStream, withLength length: UInt64, name: String, fileName: String, mimeType: String) {
        append(stream, withLength: length, headers: PartHeaders.make(name: name, fileName: fileName, mimeType: mimeType))
    }

    /// Adds `length` bytes read from `stream` as a part with the given headers (CR and LF in
    /// their values are percent-encoded).
    public func append(_ stream: InputStream, withLength length: UInt64, headers: HTTPHeaders) {
        var safe = HTTPHeaders()
        for header in headers { safe.add(name: header.name, value: PartHeaders.sanitized(header.value)) }
        append(BodyPart(headers: safe, source: .stream(stream), length: length))
    }

    private func append(_ part: BodyPart) {
        state.withLock { $0.parts.append(part) }
    }

    /// Keeps the first error; it is thrown when the form is encoded.
    private func fail(_ reason: AFError.MultipartEncodingFailureReason) {
        state.withLock { $0.error = $0.error ?? AFError.multipartEncodingFailed(reason: reason) }
    }

    // MARK: Encoding

    /// The whole body in memory.
    public func encode() throws -> Data {
        let parts = try checkedParts()
        let encoder = MultipartEncoder(boundary: boundary)
        // The framing is in memory already; the bodies are reserved up to the size a form is
        // encoded in memory at, as a stream's declared length may be anything (it is checked
        // against what the stream gives as it is read).
        let bodies = min(Self.bodiesLength(of: parts), Self.encodingMemoryThreshold)
        var data = Data()
        data.reserveCapacity(encoder.framingLength(of: parts) + Int(bodies))
        try encoder.encode(parts) { bytes in data.append(contentsOf: bytes) }
        return data
    }

    /// Writes the body to a new file at `fileURL` (which must not exist), a buffer at a time.
    /// On failure the partial file is removed.
    public func writeEncodedData(to fileURL: URL) throws {
        let parts = try checkedParts()
        guard fileURL.isFileURL else {
            throw AFError.multipartEncodingFailed(reason: .outputStreamURLInvalid(url: fileURL))
        }
        guard !fileManager.fileExists(atPath: fileURL.path) else {
            throw AFError.multipartEncodingFailed(reason: .outputStreamFileAlreadyExists(at: fileURL))
        }
        let output = try EncodedFileOutput(url: fileURL)
        do {
            try MultipartEncoder(boundary: boundary).encode(parts) { bytes in try output.write(bytes) }
            try output.close()
        } catch {
            try? output.close()
            try? fileManager.removeItem(at: fileURL)
            throw error
        }
    }

    func checkedParts() throws -> [BodyPart] {
        let (parts, error) = state.withLock { ($0.parts, $0.error) }
        if let error { throw error }
        return parts
    }
}
