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
    /// What lets go of the files the body is read from, run when the request ends. A request
    /// cancelled while its body is being made ends first: files made after that go at once.
    private let held = Protected<(ended: Bool, releases: [@Sendable () -> Void])>((false, []))

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
            let file = try EncodedFormFile(form)
            releaseAtEnd(file.discard)
            return .file(file.url, shouldRemove: true)
        }
        let segments = try FormSegments(parts: parts, boundary: form.boundary, threshold: threshold)
        if let spill = segments.spill { releaseAtEnd(spill.close) }
        return .stream(FormPartsStream(segments.segments))
    }

    /// Runs `release` when the request ends, or now if it already has.
    private func releaseAtEnd(_ release: @escaping @Sendable () -> Void) {
        let ended = held.withLock { held in
            if !held.ended { held.releases.append(release) }
            return held.ended
        }
        if ended { release() }
    }

    func uploadDidEnd() {
        let releases = held.withLock { held in
            defer { held = (true, []) }
            return held.releases
        }
        for release in releases { release() }
    }
}
