import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A multipart upload: the request with the form's `Content-Type`, and the body made once
/// (retries reuse it). At or below the threshold it is encoded in memory. Above it, a form with
/// no file parts is written whole to an `EncodedFormFile` and uploaded as a `.file` the request
/// removes when it ends, as Alamofire does; a form with file parts is sent from its parts
/// (`FormSegments`: files read where they are, so a large file is not copied, and what cannot be
/// read twice in a `SpilledForm`, a file without a name that is closed when the request ends).
final class MultipartUpload: UploadConvertible, UploadEndObserving, @unchecked Sendable {
    private let form: MultipartFormData
    private let build: (@Sendable (MultipartFormData) -> Void)?
    private let request: any URLRequestConvertible
    private let threshold: UInt64
    private let fileManager: FileManager
    private let made = Protected<Result<UploadRequest.Uploadable, any Error>?>(nil)
    private let held = Protected(Held())

    /// The files the body is read from, until the request ends. A request cancelled while its
    /// body is being made ends first: the files made after that are let go at once.
    private struct Held {
        var ended = false
        var spill: SpilledForm?
        var file: EncodedFormFile?
    }

    init(form: MultipartFormData, build: (@Sendable (MultipartFormData) -> Void)?, request: any URLRequestConvertible,
         threshold: UInt64, fileManager: FileManager) {
        self.form = form
        self.build = build
        self.request = request
        self.threshold = threshold
        self.fileManager = fileManager
    }

    func asURLRequest() throws -> URLRequest {
        var urlRequest = try request.asURLRequest()
        urlRequest.setValue(form.contentType, forHTTPHeaderField: "Content-Type")
        return urlRequest
    }

    func createUploadable() throws -> UploadRequest.Uploadable {
        try made.withLock { made in
            if let made { return try made.get() }
            let result = Result { try makeUploadable() }
            made = result
            return try result.get()
        }
    }

    private func makeUploadable() throws -> UploadRequest.Uploadable {
        build?(form)
        if form.contentLength <= threshold {
            return .data(try form.encode())
        }
        let parts = try form.checkedParts()
        guard parts.contains(where: \.isFile) else {
            let file = try EncodedFormFile(parts: parts, boundary: form.boundary)
            if held.withLock({ held in held.file = held.ended ? nil : file; return held.ended }) { file.discard() }
            return .file(file.url, shouldRemove: true)
        }
        let segments = try FormSegments(parts: parts, boundary: form.boundary, threshold: threshold)
        if held.withLock({ held in held.spill = held.ended ? nil : segments.spill; return held.ended }) {
            segments.spill?.close()
        }
        return .stream(FormPartsStream(segments.segments))
    }

    func uploadDidEnd() {
        let (spill, file) = held.withLock { held in
            defer { held = Held(ended: true) }
            return (held.spill, held.file)
        }
        spill?.close()
        file?.discard()
    }
}
