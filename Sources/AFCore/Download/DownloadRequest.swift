import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A request whose response body is written to a file as it arrives, then moved to a
/// destination; memory stays flat whatever the body's size.
///
/// Each attempt writes to a temporary file. When the request is cancelled with
/// `cancel(producingResumeData: true)`, or fails on the way (connection lost, timeout), and the
/// server gave a validator, the partial file is kept and `resumeData` tells
/// `Session.download(resumingWith:)` where to continue; otherwise the temporary file is removed.
public final class DownloadRequest: Request, @unchecked Sendable {
    /// What to do at the destination before moving the file there.
    public struct Options: OptionSet, Sendable {
        public let rawValue: Int
        public init(rawValue: Int) { self.rawValue = rawValue }

        /// Creates the directories leading to the destination.
        public static let createIntermediateDirectories = Options(rawValue: 1 << 0)
        /// Replaces a file already at the destination, in one step once the download is
        /// complete; a directory there is left alone and the move fails.
        public static let removePreviousFile = Options(rawValue: 1 << 1)
    }

    /// Where the downloaded file (at `temporaryURL`) goes, given the response.
    public typealias Destination = @Sendable (_ temporaryURL: URL, _ response: HTTPURLResponse)
        -> (destinationURL: URL, options: Options)

    /// What a download starts from.
    public enum Downloadable: @unchecked Sendable {
        /// A new request.
        case request(any URLRequestConvertible)
        /// The resume data of an earlier download.
        case resumeData(Data)
    }

    struct DownloadState {
        /// The file the attempts write to.
        var temporaryFile: URL
        /// Where the next attempt continues from, if anywhere.
        var resumePoint: DownloadResumeData?
        var resumeDataChecked = false
        /// The resume offset of the current attempt.
        var attemptOffset: Int64 = 0
        var resumeData: Data?
        var fileURL: URL?
        var producesResumeDataOnCancel = false
        var cancelHandler: (@Sendable (Data?) -> Void)?
    }

    /// What the download was made from.
    public let downloadable: Downloadable
    /// Where the finished file goes.
    let destination: Destination
    let downloadState: Protected<DownloadState>

    init(id: UUID = .fastRandom(), downloadable: Downloadable, underlyingQueue: DispatchQueue,
         serializationQueue: DispatchQueue, eventMonitor: CompositeEventMonitor?, interceptor: (any RequestInterceptor)?,
         shouldAutomaticallyResume: Bool?, delegate: any RequestDelegate, destination: @escaping Destination) {
        self.downloadable = downloadable
        self.destination = destination
        downloadState = Protected(DownloadState(temporaryFile: Self.newTemporaryFile()))
        super.init(id: id, underlyingQueue: underlyingQueue, serializationQueue: serializationQueue,
                   eventMonitor: eventMonitor, interceptor: interceptor,
                   shouldAutomaticallyResume: shouldAutomaticallyResume, delegate: delegate)
    }

    /// Data to continue the download with `Session.download(resumingWith:)`: set when the
    /// download was cancelled producing resume data, or failed part way, and can be continued.
    public var resumeData: Data? { downloadState.withLock { $0.resumeData } }
    /// Where the downloaded file was moved, once the download finished.
    public var fileURL: URL? { downloadState.withLock { $0.fileURL } }

    override var keepsProgressCurrent: Bool { true }

    static func newTemporaryFile() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("AF-download-\(UUID().uuidString).tmp")
    }

    // MARK: Attempts

    override func makeURLRequest() throws -> URLRequest {
        let base: URLRequest
        switch downloadable {
        case let .request(convertible):
            base = try convertible.asURLRequest()
        case let .resumeData(data):
            base = try adoptResumeData(data).plainRequest
        }
        return downloadState.withLock { state in
            guard let point = state.resumePoint, point.partialFileIsUsable else {
                state.attemptOffset = 0
                return base
            }
            state.attemptOffset = point.offset
            state.temporaryFile = point.partialFile
            return point.continuing(base)
        }
    }

    /// Takes the resume point out of `data` (once); invalid data fails the request.
    private func adoptResumeData(_ data: Data) throws -> DownloadResumeData {
        try downloadState.withLock { state in
            if state.resumeDataChecked, let point = state.resumePoint { return point }
            guard let point = DownloadResumeData(data) else {
                throw AFError.createURLRequestFailed(error: URLError(.cannotDecodeRawData, userInfo: [
                    NSLocalizedDescriptionKey: "The resume data is not AF download resume data."]))
            }
            state.resumeDataChecked = true
            state.resumePoint = point
            return point
        }
    }

    /// The file and offset the engine writes the current attempt to.
    var downloadTarget: DownloadTarget {
        downloadState.withLock { DownloadTarget(file: $0.temporaryFile, resumeOffset: $0.attemptOffset) }
    }

    override func makeSessionTask(for urlRequest: URLRequest, in session: Session) -> SessionTask {
        session.makeSessionTask(for: urlRequest, by: self, download: downloadTarget)
    }

    override func makeURLSessionTask(for task: SessionTask) -> any EngineBackedTask { EngineDownloadTask(task) }

    override func store(_ result: SessionTask.Result) {
        let file = result.download?.file ?? downloadTarget.file
        let wasCancelled = isCancelled
        // The point the attempt continued, if it did: otherwise the file was started afresh.
        let previous = (result.download?.resumeOffset ?? 0) > 0 ? downloadState.withLock { $0.resumePoint } : nil
        let point = DownloadResumeData(after: result.request, response: result.response, bodyIsInFile: result.bodyIsInFile,
                                       file: file, previous: previous)
        if result.error != nil {
            if let answer = result.answerFile { Self.removeTemporaryFile(answer) }
            return didFail(keeping: wasCancelled && !downloadState.withLock({ $0.producesResumeDataOnCancel }) ? nil : point,
                           file: file)
        }
        var bodyFile = file
        var keptPoint: DownloadResumeData?
        if !result.bodyIsInFile {
            // A resumed download got an error answer: its body is in a file of its own (or, with
            // no body, in memory), the partial file stays resumable.
            keptPoint = point
            if let answer = result.answerFile {
                bodyFile = answer
            } else {
                bodyFile = Self.newTemporaryFile()
                do {
                    try result.data.write(to: bodyFile)
                } catch {
                    return didFinishDownloading(result, .failure(.sessionTaskFailed(error: error)), resumePoint: keptPoint)
                }
            }
        }
        // A file URL has no HTTP response: the destination is told of a plain 200 for it.
        let fileResponse = result.request.url.flatMap { $0.isFileURL
            ? HTTPURLResponse(url: $0, statusCode: 200, httpVersion: nil, headerFields: nil) : nil }
        guard let httpResponse = result.response?.httpResponse ?? fileResponse else {
            Self.removeTemporaryFile(bodyFile)
            return didFinishDownloading(result, .failure(.sessionTaskFailed(error: URLError(.badServerResponse))),
                                        resumePoint: keptPoint)
        }
        if let task = mutableState.withLock({ $0.tasks.last }) {
            emitSessionEvent(task, .downloadTaskDidFinishDownloadingToURL) { [bodyFile] monitor, session, task in
                guard let downloadTask = task as? URLSessionDownloadTask else { return }
                monitor.urlSession(session, downloadTask: downloadTask, didFinishDownloadingTo: bodyFile)
            }
        }
        let (destinationURL, options) = destination(bodyFile, httpResponse)
        emit(.requestDidCreateDestinationURL) { $0.request(self, didCreateDestinationURL: destinationURL) }
        do {
            try Self.move(bodyFile, to: destinationURL, options: options, using: session?.delegate.fileManager ?? .default)
            didFinishDownloading(result, .success(destinationURL), resumePoint: keptPoint)
        } catch {
            Self.removeTemporaryFile(bodyFile)
            didFinishDownloading(result, .failure(.downloadedFileMoveFailed(error: error, source: bodyFile,
                                                                            destination: destinationURL)),
                                 resumePoint: keptPoint)
        }
    }

    /// The attempt failed: keep the partial file when it can be continued, else remove it.
    private func didFail(keeping point: DownloadResumeData?, file: URL) {
        // Encoded once: the cancel handler gets the very bytes `resumeData` holds.
        let encoded = point?.encoded
        let handler = downloadState.withLock { state in
            state.resumePoint = point
            state.resumeData = encoded
            state.fileURL = nil
            defer { state.cancelHandler = nil }
            return state.cancelHandler
        }
        if point == nil { Self.removeTemporaryFile(file) }
        handler?(encoded)
    }

    private func didFinishDownloading(_ result: SessionTask.Result, _ outcome: Result<URL, AFError>,
                                      resumePoint: DownloadResumeData?) {
        let handler = downloadState.withLock { state in
            state.resumePoint = resumePoint
            state.resumeData = resumePoint?.encoded
            state.fileURL = try? outcome.get()
            defer { state.cancelHandler = nil }
            return state.cancelHandler
        }
        if case let .failure(error) = outcome { self.error = error }
        if let task = mutableState.withLock({ $0.tasks.last }) {
            emit(.requestDidFinishDownloadingUsingTaskWithResult) {
                $0.request(self, didFinishDownloadingUsing: self.urlSessionTask(for: task), with: outcome)
            }
        }
        handler?(nil)
    }

    override func willFinish() {
        // Ending with the caller's resume point not continued (an adapter failed, or the request
        // was cancelled producing resume data before an exchange began): the partial file stays
        // theirs, and the point is the request's resume data. A plain cancel gives it up, as it
        // does once the download ran.
        let keepsPoint = !isCancelled || downloadState.withLock { $0.producesResumeDataOnCancel }
        downloadState.withLock { state in
            guard keepsPoint, state.resumeData == nil, let point = state.resumePoint,
                  point.partialFile == state.temporaryFile, point.partialFileIsUsable else { return }
            state.resumeData = point.encoded
        }
    }

    override func cleanup() {
        // A partial file with resume data is the caller's to continue; anything else is ours.
        let (file, keep) = downloadState.withLock { ($0.temporaryFile, $0.resumeData != nil) }
        if !keep { Self.removeTemporaryFile(file) }
    }

    /// Removes a temporary file, and only a regular file: never a device or a directory.
    static func removeTemporaryFile(_ file: URL) {
        var status = stat()
        guard lstat(file.path, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { return }
        unlink(file.path)
    }

    // MARK: Cancelling

    /// Cancels the download; with `shouldProduceResumeData`, keeps what was downloaded and sets
    /// `resumeData` when the download can be continued.
    @discardableResult
    public func cancel(producingResumeData shouldProduceResumeData: Bool) -> Self {
        guard shouldProduceResumeData else { return cancel() }
        downloadState.withLock { $0.producesResumeDataOnCancel = true }
        return cancel()
    }

    /// Cancels the download, keeping what was downloaded, and calls `completionHandler` with the
    /// resume data (nil when the download cannot be continued or was not running).
    @discardableResult
    public func cancel(byProducingResumeData completionHandler: @escaping @Sendable (_ data: Data?) -> Void) -> Self {
        enum Answer { case fromTask, afterFinishing, none }
        let answer = mutableState.withLock { state -> Answer in
            guard state.state.canTransition(to: .cancelled) else { return .none }
            let running = state.tasks.last.map { $0.state != .completed } == true
            downloadState.withLock { download in
                download.producesResumeDataOnCancel = true
                if running { download.cancelHandler = completionHandler }
            }
            return running ? .fromTask : .afterFinishing
        }
        cancel()
        switch answer {
        case .fromTask:
            break
        case .afterFinishing:
            // Queued behind the finish `cancel()` queued: a resume point not yet continued is
            // handed back (see `willFinish`).
            underlyingQueue.async { completionHandler(self.resumeData) }
        case .none:
            underlyingQueue.async { completionHandler(nil) }
        }
        return self
    }

    // MARK: Validation

    /// A check of the response and downloaded file, run when the download completes.
    public typealias Validation = @Sendable (_ request: URLRequest?, _ response: HTTPURLResponse,
                                             _ fileURL: URL?) -> ValidationResult

    /// Adds a validation; a failure becomes the request's error.
    @discardableResult
    public func validate(_ validation: @escaping Validation) -> Self {
        let validator: @Sendable () -> Void = { [unowned self] in
            guard error == nil, let response else { return }
            let request = request, fileURL = fileURL
            let result = validation(request, response, fileURL)
            if case let .failure(failure) = result {
                error = failure.asAFError(or: .responseValidationFailed(reason: .customValidationFailed(error: failure)))
            }
            emit(.requestDidValidateRequestResponseFileURLWithResult) {
                $0.request(self, didValidateRequest: request, response: response, fileURL: fileURL, withResult: result)
            }
        }
        mutableState.withLock { $0.validators.append(validator) }
        return self
    }
}
