import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Something that can produce an upload's body.
public protocol UploadableConvertible: Sendable {
    /// The body to send; throwing ends the request with `createUploadableFailed`.
    func createUploadable() throws -> UploadRequest.Uploadable
}

/// A request and its upload body in one value.
public protocol UploadConvertible: UploadableConvertible & URLRequestConvertible {}

/// A `DataRequest` whose body comes from `Data` or a file read as it is sent.
public final class UploadRequest: DataRequest, @unchecked Sendable {
    /// Where the body comes from.
    public enum Uploadable: @unchecked Sendable {
        /// Bytes in memory.
        case data(Data)
        /// A file read as it is sent; removed when the request ends if `shouldRemove`.
        case file(URL, shouldRemove: Bool)
        /// A stream read as it is sent.
        case stream(InputStream)
    }

    /// What the body is made from.
    public let upload: any UploadableConvertible
    /// Removes the file of a `.file(_, shouldRemove: true)` upload.
    public let fileManager: FileManager
    private let uploadableState = Protected<Uploadable?>(nil)

    /// The body of the latest attempt, once made.
    public var uploadable: Uploadable? { uploadableState.withLock { $0 } }

    init(id: UUID = .fastRandom(), convertible: any UploadConvertible, underlyingQueue: DispatchQueue,
         serializationQueue: DispatchQueue, eventMonitor: CompositeEventMonitor?, interceptor: (any RequestInterceptor)?,
         shouldAutomaticallyResume: Bool?, fileManager: FileManager, delegate: any RequestDelegate) {
        upload = convertible
        self.fileManager = fileManager
        super.init(id: id, convertible: convertible, underlyingQueue: underlyingQueue,
                   serializationQueue: serializationQueue, eventMonitor: eventMonitor, interceptor: interceptor,
                   shouldAutomaticallyResume: shouldAutomaticallyResume, delegate: delegate)
    }

    override var keepsProgressCurrent: Bool { true }

    override func makeSessionTask(for urlRequest: URLRequest, in session: Session) -> SessionTask {
        session.makeSessionTask(for: urlRequest, by: self, upload: transferUpload)
    }

    override func makeURLSessionTask(for task: SessionTask) -> any EngineBackedTask { EngineUploadTask(task) }

    override func prepareBody() -> BodyStep? {
        do {
            let uploadable = try upload.createUploadable()
            return { self.didCreateUploadable(uploadable); return true }
        } catch {
            let error = error.asAFError(or: .createUploadableFailed(error: error))
            return { self.didFailToCreateUploadable(with: error); return false }
        }
    }

    func didCreateUploadable(_ uploadable: Uploadable) {
        uploadableState.withLock { $0 = uploadable }
        emit(.requestDidCreateUploadable) { $0.request(self, didCreateUploadable: uploadable) }
        if case let .stream(stream) = uploadable {
            nonisolated(unsafe) let stream = stream  // handed to monitors as Alamofire does; they only look
            emit(.requestDidProvideInputStream) { $0.request(self, didProvideInputStream: stream) }
        }
    }

    func didFailToCreateUploadable(with error: AFError) {
        self.error = error
        emit(.requestDidFailToCreateUploadableWithError) { $0.request(self, didFailToCreateUploadableWithError: error) }
        retryOrFinish(error: error)
    }

    /// The body as the engine takes it.
    var transferUpload: TransferUpload? {
        switch uploadable {
        case let .data(data): .data(data)
        case let .file(url, _): .file(url)
        case let .stream(stream): (stream as? any UploadSegmentsProviding).map { .segments($0.uploadSegments) } ?? .stream(stream)
        case nil: nil
        }
    }

    override func cleanup() {
        if case let .file(url, shouldRemove: true) = uploadable {
            try? fileManager.removeItem(at: url)
        }
        (upload as? any UploadEndObserving)?.uploadDidEnd()
    }
}

/// An upload body that holds something until its request ends (AFMultipart's spilled parts keep
/// the descriptor of an unlinked file, its encoded form file has a private directory): told once
/// the request ends.
package protocol UploadEndObserving: Sendable {
    func uploadDidEnd()
}

extension UploadRequest.Uploadable: UploadableConvertible {
    public func createUploadable() throws -> UploadRequest.Uploadable { self }
}

/// A `URLRequestConvertible` and an `UploadableConvertible` as one `UploadConvertible`.
struct Upload: UploadConvertible {
    let request: any URLRequestConvertible
    let uploadable: any UploadableConvertible

    func createUploadable() throws -> UploadRequest.Uploadable { try uploadable.createUploadable() }
    func asURLRequest() throws -> URLRequest { try request.asURLRequest() }
}
