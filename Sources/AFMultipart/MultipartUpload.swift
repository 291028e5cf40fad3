import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A multipart upload: the request with the form's `Content-Type`, and the body made once
/// (retries reuse it). At or below the threshold it is encoded in memory. Above it, a form with
/// no file parts is written whole to a `SpilledForm` (a file without a name, closed when the
/// request ends) and uploaded as a `.file`, as Alamofire uploads its temporary file; a form with
/// file parts is sent from its parts (`FormSegments`: files read where they are, so a large file
/// is not copied).
final class MultipartUpload: UploadConvertible, UploadEndObserving, @unchecked Sendable {
    private let form: MultipartFormData
    private let build: (@Sendable (MultipartFormData) -> Void)?
    private let request: any URLRequestConvertible
    private let threshold: UInt64
    private let fileManager: FileManager
    private let made = Protected<Result<UploadRequest.Uploadable, any Error>?>(nil)
    private let spilled = Protected<SpilledForm?>(nil)

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
            let encoder = MultipartEncoder(boundary: form.boundary)
            let whole = try SpilledForm { output in try encoder.encode(parts, to: output.write) }
            spilled.withLock { $0 = whole }
            return .file(whole.url, shouldRemove: false)
        }
        let segments = try FormSegments(parts: parts, boundary: form.boundary, threshold: threshold)
        spilled.withLock { $0 = segments.spill }
        return .stream(FormPartsStream(segments.segments))
    }

    func uploadDidEnd() {
        spilled.withLock { $0 }?.close()
    }
}
