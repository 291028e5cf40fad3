import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A multipart upload: the request with the form's `Content-Type`, and the body made once
/// (retries reuse it) — in memory at or below the threshold, else in a temporary file the
/// request removes when it ends.
final class MultipartUpload: UploadConvertible, @unchecked Sendable {
    private let form: MultipartFormData
    private let build: (@Sendable (MultipartFormData) -> Void)?
    private let request: any URLRequestConvertible
    private let threshold: UInt64
    private let fileManager: FileManager
    private let made = Protected<Result<UploadRequest.Uploadable, any Error>?>(nil)

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
        let directory = fileManager.temporaryDirectory
            .appendingPathComponent("org.alamofire.manager/multipart.form.data", isDirectory: true)
        let file = directory.appendingPathComponent(UUID().uuidString)
        do {
            try fileManager.createDirectory(at: directory, withIntermediateDirectories: true)
        } catch {
            throw AFError.multipartEncodingFailed(reason: .outputStreamCreationFailed(for: file))
        }
        try form.writeEncodedData(to: file)
        return .file(file, shouldRemove: true)
    }
}
