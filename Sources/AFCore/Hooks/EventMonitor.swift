import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Observes requests and their tasks, with Alamofire's methods. Every method has an empty
/// default, so a monitor implements only what it needs. Events are delivered asynchronously on
/// `queue`, in the order they happened for each request; a slow monitor delays nothing but its
/// own queue.
///
/// The `urlSession(_:…)` events come from AF's engine, not from a URLSession delegate: `session`
/// is the Session's `session` object and the tasks are the requests' `URLSessionTask`s. Metrics
/// are AF's `TaskMetrics` (Linux cannot make a `URLSessionTaskMetrics`). Four events exist for
/// source compatibility and are never sent, because libcurl handles them itself: a session
/// becoming invalid, an authentication challenge (answered with the request's credential), a
/// task needing a new body stream (AF replays bodies itself) and waiting for connectivity.
public protocol EventMonitor: Sendable {
    /// Where this monitor's events are delivered. Default: `.main`.
    var queue: DispatchQueue { get }

    // MARK: Session and task events

    /// Sent once, as the Session is released: it is invalid from then on.
    func urlSession(_ session: URLSession, didBecomeInvalidWithError error: (any Error)?)
    /// Never sent: libcurl answers challenges with the request's credential.
    func urlSession(_ session: URLSession, task: URLSessionTask, didReceive challenge: URLAuthenticationChallenge)
    /// Request body bytes went out.
    func urlSession(_ session: URLSession, task: URLSessionTask, didSendBodyData bytesSent: Int64,
                    totalBytesSent: Int64, totalBytesExpectedToSend: Int64)
    /// Never sent: AF replays a request body itself.
    func urlSession(_ session: URLSession, taskNeedsNewBodyStream task: URLSessionTask)
    /// A redirect is about to be followed with `request`, unless a redirect handler says otherwise.
    func urlSession(_ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
                    newRequest request: URLRequest)
    /// The task's metrics are complete.
    func urlSession(_ session: URLSession, task: URLSessionTask, didFinishCollecting metrics: TaskMetrics)
    /// The task ended, with the error if it failed.
    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?)
    /// Never sent: a request without a connection fails at once.
    func urlSession(_ session: URLSession, taskIsWaitingForConnectivity task: URLSessionTask)

    // MARK: Data task events (data, upload and stream requests)

    /// The head of a final (non-redirect) response arrived.
    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse)
    /// Body bytes arrived.
    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data)
    /// A response is about to be offered to the session's response cache.
    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, willCacheResponse proposedResponse: CachedURLResponse)

    // MARK: Download task events

    /// A download continues a partial file from `fileOffset`.
    func urlSession(_ session: URLSession, downloadTask: URLSessionDownloadTask, didResumeAtOffset fileOffset: Int64,
                    expectedTotalBytes: Int64)
    /// Body bytes were written to the download's file.
    func urlSession(_ session: URLSession, downloadTask: URLSessionDownloadTask, didWriteData bytesWritten: Int64,
                    totalBytesWritten: Int64, totalBytesExpectedToWrite: Int64)
    /// The body is complete in the temporary file at `location`, before it moves to its destination.
    func urlSession(_ session: URLSession, downloadTask: URLSessionDownloadTask, didFinishDownloadingTo location: URL)

    // MARK: Request events

    /// The request's first `URLRequest` was built, before adaptation.
    func request(_ request: Request, didCreateInitialURLRequest urlRequest: URLRequest)
    /// Building the first `URLRequest` failed; the request ends with `error`.
    func request(_ request: Request, didFailToCreateURLRequestWithError error: AFError)
    /// The adapters turned `initialRequest` into `adaptedRequest`.
    func request(_ request: Request, didAdaptInitialRequest initialRequest: URLRequest, to adaptedRequest: URLRequest)
    /// An adapter failed; the request ends with `error` unless a retrier retries it.
    func request(_ request: Request, didFailToAdaptURLRequest initialRequest: URLRequest, withError error: AFError)
    /// The `URLRequest` an attempt sends is final (adapted, checked).
    func request(_ request: Request, didCreateURLRequest urlRequest: URLRequest)
    /// An attempt's task was made (one per attempt; retries make new ones).
    func request(_ request: Request, didCreateTask task: URLSessionTask)
    /// An attempt's metrics are complete.
    func request(_ request: Request, didGatherMetrics metrics: TaskMetrics)
    /// An attempt failed before its task could run (setup refused it).
    func request(_ request: Request, didFailTask task: URLSessionTask, earlyWithError error: AFError)
    /// An attempt's task ended, with the error if it failed.
    func request(_ request: Request, didCompleteTask task: URLSessionTask, with error: AFError?)
    /// A retrier asked for another attempt.
    func requestIsRetrying(_ request: Request)
    /// The request ended: no further attempt, its response handlers may run.
    func requestDidFinish(_ request: Request)
    /// `resume()` was called on the request (or it resumed itself).
    func requestDidResume(_ request: Request)
    /// The current attempt's task was resumed.
    func request(_ request: Request, didResumeTask task: URLSessionTask)
    /// `suspend()` was called on the request.
    func requestDidSuspend(_ request: Request)
    /// The current attempt's task was suspended.
    func request(_ request: Request, didSuspendTask task: URLSessionTask)
    /// `cancel()` was called on the request.
    func requestDidCancel(_ request: Request)
    /// The current attempt's task was cancelled.
    func request(_ request: Request, didCancelTask task: URLSessionTask)

    // MARK: DataRequest events

    /// A validator ran on a data request's response.
    func request(_ request: DataRequest, didValidateRequest urlRequest: URLRequest?, response: HTTPURLResponse,
                 data: Data?, withResult result: Request.ValidationResult)
    /// A data request's unserialized response was handed to a handler.
    func request(_ request: DataRequest, didParseResponse response: DataResponse<Data?, AFError>)
    /// A data request's response was serialized for a handler.
    func request<Value>(_ request: DataRequest, didParseResponse response: DataResponse<Value, AFError>)

    // MARK: UploadRequest events

    /// An upload's body was made ready to send.
    func request(_ request: UploadRequest, didCreateUploadable uploadable: UploadRequest.Uploadable)
    /// An upload's body could not be made; the request ends with `error`.
    func request(_ request: UploadRequest, didFailToCreateUploadableWithError error: AFError)
    /// An `InputStream` body was handed to the engine.
    func request(_ request: UploadRequest, didProvideInputStream stream: InputStream)

    // MARK: DataStreamRequest events

    /// A validator ran on a stream request's response head.
    func request(_ request: DataStreamRequest, didValidateRequest urlRequest: URLRequest?, response: HTTPURLResponse,
                 withResult result: Request.ValidationResult)
    /// A streamed chunk was serialized for a stream handler.
    func request<Value>(_ request: DataStreamRequest, didParseStream result: Result<Value, AFError>)

    // MARK: DownloadRequest events

    /// A download's body reached its destination (or failed to).
    func request(_ request: DownloadRequest, didFinishDownloadingUsing task: URLSessionTask, with result: Result<URL, AFError>)
    /// A download's destination was decided.
    func request(_ request: DownloadRequest, didCreateDestinationURL url: URL)
    /// A validator ran on a download's response.
    func request(_ request: DownloadRequest, didValidateRequest urlRequest: URLRequest?, response: HTTPURLResponse,
                 fileURL: URL?, withResult result: Request.ValidationResult)
    /// A download's unserialized response was handed to a handler.
    func request(_ request: DownloadRequest, didParseResponse response: DownloadResponse<URL?, AFError>)
    /// A download's response was serialized for a handler.
    func request<Value>(_ request: DownloadRequest, didParseResponse response: DownloadResponse<Value, AFError>)
}

extension EventMonitor {
    public var queue: DispatchQueue { .main }

    public func urlSession(_ session: URLSession, didBecomeInvalidWithError error: (any Error)?) {}
    public func urlSession(_ session: URLSession, task: URLSessionTask, didReceive challenge: URLAuthenticationChallenge) {}
    public func urlSession(_ session: URLSession, task: URLSessionTask, didSendBodyData bytesSent: Int64,
                           totalBytesSent: Int64, totalBytesExpectedToSend: Int64) {}
    public func urlSession(_ session: URLSession, taskNeedsNewBodyStream task: URLSessionTask) {}
    public func urlSession(_ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
                           newRequest request: URLRequest) {}
    public func urlSession(_ session: URLSession, task: URLSessionTask, didFinishCollecting metrics: TaskMetrics) {}
    public func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {}
    public func urlSession(_ session: URLSession, taskIsWaitingForConnectivity task: URLSessionTask) {}
    public func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse) {}
    public func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {}
    public func urlSession(_ session: URLSession, dataTask: URLSessionDataTask,
                           willCacheResponse proposedResponse: CachedURLResponse) {}
    public func urlSession(_ session: URLSession, downloadTask: URLSessionDownloadTask, didResumeAtOffset fileOffset: Int64,
                           expectedTotalBytes: Int64) {}
    public func urlSession(_ session: URLSession, downloadTask: URLSessionDownloadTask, didWriteData bytesWritten: Int64,
                           totalBytesWritten: Int64, totalBytesExpectedToWrite: Int64) {}
    public func urlSession(_ session: URLSession, downloadTask: URLSessionDownloadTask, didFinishDownloadingTo location: URL) {}

    public func request(_ request: Request, didCreateInitialURLRequest urlRequest: URLRequest) {}
    public func request(_ request: Request, didFailToCreateURLRequestWithError error: AFError) {}
    public func request(_ request: Request, didAdaptInitialRequest initialRequest: URLRequest, to adaptedRequest: URLRequest) {}
    public func request(_ request: Request, didFailToAdaptURLRequest initialRequest: URLRequest, withError error: AFError) {}
    public func request(_ request: Request, didCreateURLRequest urlRequest: URLRequest) {}
    public func request(_ request: Request, didCreateTask task: URLSessionTask) {}
    public func request(_ request: Request, didGatherMetrics metrics: TaskMetrics) {}
    public func request(_ request: Request, didFailTask task: URLSessionTask, earlyWithError error: AFError) {}
    public func request(_ request: Request, didCompleteTask task: URLSessionTask, with error: AFError?) {}
    public func requestIsRetrying(_ request: Request) {}
    public func requestDidFinish(_ request: Request) {}
    public func requestDidResume(_ request: Request) {}
    public func request(_ request: Request, didResumeTask task: URLSessionTask) {}
    public func requestDidSuspend(_ request: Request) {}
    public func request(_ request: Request, didSuspendTask task: URLSessionTask) {}
    public func requestDidCancel(_ request: Request) {}
    public func request(_ request: Request, didCancelTask task: URLSessionTask) {}

    public func request(_ request: DataRequest, didValidateRequest urlRequest: URLRequest?, response: HTTPURLResponse,
                        data: Data?, withResult result: Request.ValidationResult) {}
    public func request(_ request: DataRequest, didParseResponse response: DataResponse<Data?, AFError>) {}
    public func request<Value>(_ request: DataRequest, didParseResponse response: DataResponse<Value, AFError>) {}

    public func request(_ request: UploadRequest, didCreateUploadable uploadable: UploadRequest.Uploadable) {}
    public func request(_ request: UploadRequest, didFailToCreateUploadableWithError error: AFError) {}
    public func request(_ request: UploadRequest, didProvideInputStream stream: InputStream) {}

    public func request(_ request: DataStreamRequest, didValidateRequest urlRequest: URLRequest?, response: HTTPURLResponse,
                        withResult result: Request.ValidationResult) {}
    public func request<Value>(_ request: DataStreamRequest, didParseStream result: Result<Value, AFError>) {}

    public func request(_ request: DownloadRequest, didFinishDownloadingUsing task: URLSessionTask,
                        with result: Result<URL, AFError>) {}
    public func request(_ request: DownloadRequest, didCreateDestinationURL url: URL) {}
    public func request(_ request: DownloadRequest, didValidateRequest urlRequest: URLRequest?, response: HTTPURLResponse,
                        fileURL: URL?, withResult result: Request.ValidationResult) {}
    public func request(_ request: DownloadRequest, didParseResponse response: DownloadResponse<URL?, AFError>) {}
    public func request<Value>(_ request: DownloadRequest, didParseResponse response: DownloadResponse<Value, AFError>) {}
}
