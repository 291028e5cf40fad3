import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// An `EventMonitor` made of closures, one optional closure per event. The closures may be set
/// and replaced from any thread.
public final class ClosureEventMonitor: EventMonitor, @unchecked Sendable {
    public let queue: DispatchQueue

    private struct Closures {
        var dataTaskDidReceiveResponse: (@Sendable (Session, SessionTask, HTTPURLResponse) -> Void)?
        var taskDidSendBodyData: (@Sendable (Session, SessionTask, Int64, Int64, Int64) -> Void)?
        var dataTaskDidReceiveData: (@Sendable (Session, SessionTask, Data) -> Void)?
        var taskWillPerformHTTPRedirection: (@Sendable (Session, SessionTask, HTTPURLResponse, URLRequest) -> Void)?
        var dataTaskWillCacheResponse: (@Sendable (Session, SessionTask, CachedURLResponse) -> Void)?
        var taskDidFinishCollectingMetrics: (@Sendable (Session, SessionTask, TaskMetrics) -> Void)?
        var taskDidComplete: (@Sendable (Session, SessionTask, (any Error)?) -> Void)?
        var requestDidCreateInitialURLRequest: (@Sendable (Request, URLRequest) -> Void)?
        var requestDidFailToCreateURLRequestWithError: (@Sendable (Request, AFError) -> Void)?
        var requestDidAdaptInitialRequestToAdaptedRequest: (@Sendable (Request, URLRequest, URLRequest) -> Void)?
        var requestDidFailToAdaptURLRequestWithError: (@Sendable (Request, URLRequest, AFError) -> Void)?
        var requestDidCreateURLRequest: (@Sendable (Request, URLRequest) -> Void)?
        var requestDidCreateTask: (@Sendable (Request, SessionTask) -> Void)?
        var requestDidGatherMetrics: (@Sendable (Request, TaskMetrics) -> Void)?
        var requestDidFailTaskEarlyWithError: (@Sendable (Request, SessionTask, AFError) -> Void)?
        var requestDidCompleteTaskWithError: (@Sendable (Request, SessionTask, AFError?) -> Void)?
        var requestIsRetrying: (@Sendable (Request) -> Void)?
        var requestDidFinish: (@Sendable (Request) -> Void)?
        var requestDidResume: (@Sendable (Request) -> Void)?
        var requestDidResumeTask: (@Sendable (Request, SessionTask) -> Void)?
        var requestDidSuspend: (@Sendable (Request) -> Void)?
        var requestDidSuspendTask: (@Sendable (Request, SessionTask) -> Void)?
        var requestDidCancel: (@Sendable (Request) -> Void)?
        var requestDidCancelTask: (@Sendable (Request, SessionTask) -> Void)?
        var requestDidValidateRequestResponseDataWithResult: (@Sendable (DataRequest, URLRequest?, HTTPURLResponse, Data?, Request.ValidationResult) -> Void)?
        var requestDidCreateUploadable: (@Sendable (UploadRequest, UploadRequest.Uploadable) -> Void)?
        var requestDidFailToCreateUploadableWithError: (@Sendable (UploadRequest, AFError) -> Void)?
        var requestDidParseResponse: (@Sendable (DataRequest, DataResponse<Data?, AFError>) -> Void)?
        var requestDidValidateRequestResponseWithResult: (@Sendable (DataStreamRequest, URLRequest?, HTTPURLResponse, Request.ValidationResult) -> Void)?
        var requestDidFinishDownloadingUsingTaskWithResult: (@Sendable (DownloadRequest, SessionTask, Result<URL, AFError>) -> Void)?
        var requestDidCreateDestinationURL: (@Sendable (DownloadRequest, URL) -> Void)?
        var requestDidValidateRequestResponseFileURLWithResult: (@Sendable (DownloadRequest, URLRequest?, HTTPURLResponse, URL?, Request.ValidationResult) -> Void)?
        var requestDidParseDownloadResponse: (@Sendable (DownloadRequest, DownloadResponse<URL?, AFError>) -> Void)?
    }

    private let closures = Protected(Closures())

    /// Creates a monitor whose closures run on `queue`.
    public init(queue: DispatchQueue = .main) {
        self.queue = queue
    }

    /// The head of a final response arrived.
    public var dataTaskDidReceiveResponse: (@Sendable (Session, SessionTask, HTTPURLResponse) -> Void)? {
        get { closures.withLock { $0.dataTaskDidReceiveResponse } }
        set { closures.withLock { $0.dataTaskDidReceiveResponse = newValue } }
    }

    /// Request body bytes went out.
    public var taskDidSendBodyData: (@Sendable (Session, SessionTask, Int64, Int64, Int64) -> Void)? {
        get { closures.withLock { $0.taskDidSendBodyData } }
        set { closures.withLock { $0.taskDidSendBodyData = newValue } }
    }

    /// Body bytes arrived.
    public var dataTaskDidReceiveData: (@Sendable (Session, SessionTask, Data) -> Void)? {
        get { closures.withLock { $0.dataTaskDidReceiveData } }
        set { closures.withLock { $0.dataTaskDidReceiveData = newValue } }
    }

    /// A redirect is about to be followed.
    public var taskWillPerformHTTPRedirection: (@Sendable (Session, SessionTask, HTTPURLResponse, URLRequest) -> Void)? {
        get { closures.withLock { $0.taskWillPerformHTTPRedirection } }
        set { closures.withLock { $0.taskWillPerformHTTPRedirection = newValue } }
    }

    /// A response is about to be offered to the cache.
    public var dataTaskWillCacheResponse: (@Sendable (Session, SessionTask, CachedURLResponse) -> Void)? {
        get { closures.withLock { $0.dataTaskWillCacheResponse } }
        set { closures.withLock { $0.dataTaskWillCacheResponse = newValue } }
    }

    /// A task's metrics are complete.
    public var taskDidFinishCollectingMetrics: (@Sendable (Session, SessionTask, TaskMetrics) -> Void)? {
        get { closures.withLock { $0.taskDidFinishCollectingMetrics } }
        set { closures.withLock { $0.taskDidFinishCollectingMetrics = newValue } }
    }

    /// A task ended.
    public var taskDidComplete: (@Sendable (Session, SessionTask, (any Error)?) -> Void)? {
        get { closures.withLock { $0.taskDidComplete } }
        set { closures.withLock { $0.taskDidComplete = newValue } }
    }

    /// The first URLRequest of an attempt was built.
    public var requestDidCreateInitialURLRequest: (@Sendable (Request, URLRequest) -> Void)? {
        get { closures.withLock { $0.requestDidCreateInitialURLRequest } }
        set { closures.withLock { $0.requestDidCreateInitialURLRequest = newValue } }
    }

    /// Building the URLRequest failed.
    public var requestDidFailToCreateURLRequestWithError: (@Sendable (Request, AFError) -> Void)? {
        get { closures.withLock { $0.requestDidFailToCreateURLRequestWithError } }
        set { closures.withLock { $0.requestDidFailToCreateURLRequestWithError = newValue } }
    }

    /// The adapters changed the request.
    public var requestDidAdaptInitialRequestToAdaptedRequest: (@Sendable (Request, URLRequest, URLRequest) -> Void)? {
        get { closures.withLock { $0.requestDidAdaptInitialRequestToAdaptedRequest } }
        set { closures.withLock { $0.requestDidAdaptInitialRequestToAdaptedRequest = newValue } }
    }

    /// An adapter failed.
    public var requestDidFailToAdaptURLRequestWithError: (@Sendable (Request, URLRequest, AFError) -> Void)? {
        get { closures.withLock { $0.requestDidFailToAdaptURLRequestWithError } }
        set { closures.withLock { $0.requestDidFailToAdaptURLRequestWithError = newValue } }
    }

    /// The URLRequest to send is final.
    public var requestDidCreateURLRequest: (@Sendable (Request, URLRequest) -> Void)? {
        get { closures.withLock { $0.requestDidCreateURLRequest } }
        set { closures.withLock { $0.requestDidCreateURLRequest = newValue } }
    }

    /// A task was made.
    public var requestDidCreateTask: (@Sendable (Request, SessionTask) -> Void)? {
        get { closures.withLock { $0.requestDidCreateTask } }
        set { closures.withLock { $0.requestDidCreateTask = newValue } }
    }

    /// An attempt's metrics arrived.
    public var requestDidGatherMetrics: (@Sendable (Request, TaskMetrics) -> Void)? {
        get { closures.withLock { $0.requestDidGatherMetrics } }
        set { closures.withLock { $0.requestDidGatherMetrics = newValue } }
    }

    /// A task failed before its transfer ended.
    public var requestDidFailTaskEarlyWithError: (@Sendable (Request, SessionTask, AFError) -> Void)? {
        get { closures.withLock { $0.requestDidFailTaskEarlyWithError } }
        set { closures.withLock { $0.requestDidFailTaskEarlyWithError = newValue } }
    }

    /// A task completed.
    public var requestDidCompleteTaskWithError: (@Sendable (Request, SessionTask, AFError?) -> Void)? {
        get { closures.withLock { $0.requestDidCompleteTaskWithError } }
        set { closures.withLock { $0.requestDidCompleteTaskWithError = newValue } }
    }

    /// A retry is about to start.
    public var requestIsRetrying: (@Sendable (Request) -> Void)? {
        get { closures.withLock { $0.requestIsRetrying } }
        set { closures.withLock { $0.requestIsRetrying = newValue } }
    }

    /// The request finished.
    public var requestDidFinish: (@Sendable (Request) -> Void)? {
        get { closures.withLock { $0.requestDidFinish } }
        set { closures.withLock { $0.requestDidFinish = newValue } }
    }

    /// The request was resumed.
    public var requestDidResume: (@Sendable (Request) -> Void)? {
        get { closures.withLock { $0.requestDidResume } }
        set { closures.withLock { $0.requestDidResume = newValue } }
    }

    /// A task was resumed.
    public var requestDidResumeTask: (@Sendable (Request, SessionTask) -> Void)? {
        get { closures.withLock { $0.requestDidResumeTask } }
        set { closures.withLock { $0.requestDidResumeTask = newValue } }
    }

    /// The request was suspended.
    public var requestDidSuspend: (@Sendable (Request) -> Void)? {
        get { closures.withLock { $0.requestDidSuspend } }
        set { closures.withLock { $0.requestDidSuspend = newValue } }
    }

    /// A task was suspended.
    public var requestDidSuspendTask: (@Sendable (Request, SessionTask) -> Void)? {
        get { closures.withLock { $0.requestDidSuspendTask } }
        set { closures.withLock { $0.requestDidSuspendTask = newValue } }
    }

    /// The request was cancelled.
    public var requestDidCancel: (@Sendable (Request) -> Void)? {
        get { closures.withLock { $0.requestDidCancel } }
        set { closures.withLock { $0.requestDidCancel = newValue } }
    }

    /// A task was cancelled.
    public var requestDidCancelTask: (@Sendable (Request, SessionTask) -> Void)? {
        get { closures.withLock { $0.requestDidCancelTask } }
        set { closures.withLock { $0.requestDidCancelTask = newValue } }
    }

    /// A validator ran.
    public var requestDidValidateRequestResponseDataWithResult: (@Sendable (DataRequest, URLRequest?, HTTPURLResponse, Data?, Request.ValidationResult) -> Void)? {
        get { closures.withLock { $0.requestDidValidateRequestResponseDataWithResult } }
        set { closures.withLock { $0.requestDidValidateRequestResponseDataWithResult = newValue } }
    }

    /// An upload's body was made.
    public var requestDidCreateUploadable: (@Sendable (UploadRequest, UploadRequest.Uploadable) -> Void)? {
        get { closures.withLock { $0.requestDidCreateUploadable } }
        set { closures.withLock { $0.requestDidCreateUploadable = newValue } }
    }

    /// Making an upload's body failed.
    public var requestDidFailToCreateUploadableWithError: (@Sendable (UploadRequest, AFError) -> Void)? {
        get { closures.withLock { $0.requestDidFailToCreateUploadableWithError } }
        set { closures.withLock { $0.requestDidFailToCreateUploadableWithError = newValue } }
    }

    /// An unserialized response was produced.
    public var requestDidParseResponse: (@Sendable (DataRequest, DataResponse<Data?, AFError>) -> Void)? {
        get { closures.withLock { $0.requestDidParseResponse } }
        set { closures.withLock { $0.requestDidParseResponse = newValue } }
    }

    /// A stream's validator ran on the response head.
    public var requestDidValidateRequestResponseWithResult: (@Sendable (DataStreamRequest, URLRequest?, HTTPURLResponse, Request.ValidationResult) -> Void)? {
        get { closures.withLock { $0.requestDidValidateRequestResponseWithResult } }
        set { closures.withLock { $0.requestDidValidateRequestResponseWithResult = newValue } }
    }

    /// A download's file was moved to its destination, or could not be.
    public var requestDidFinishDownloadingUsingTaskWithResult: (@Sendable (DownloadRequest, SessionTask, Result<URL, AFError>) -> Void)? {
        get { closures.withLock { $0.requestDidFinishDownloadingUsingTaskWithResult } }
        set { closures.withLock { $0.requestDidFinishDownloadingUsingTaskWithResult = newValue } }
    }

    /// A download's destination was chosen.
    public var requestDidCreateDestinationURL: (@Sendable (DownloadRequest, URL) -> Void)? {
        get { closures.withLock { $0.requestDidCreateDestinationURL } }
        set { closures.withLock { $0.requestDidCreateDestinationURL = newValue } }
    }

    /// A download's validator ran.
    public var requestDidValidateRequestResponseFileURLWithResult: (@Sendable (DownloadRequest, URLRequest?, HTTPURLResponse, URL?, Request.ValidationResult) -> Void)? {
        get { closures.withLock { $0.requestDidValidateRequestResponseFileURLWithResult } }
        set { closures.withLock { $0.requestDidValidateRequestResponseFileURLWithResult = newValue } }
    }

    /// A download's unserialized response was produced.
    public var requestDidParseDownloadResponse: (@Sendable (DownloadRequest, DownloadResponse<URL?, AFError>) -> Void)? {
        get { closures.withLock { $0.requestDidParseDownloadResponse } }
        set { closures.withLock { $0.requestDidParseDownloadResponse = newValue } }
    }

    public func session(_ session: Session, task: SessionTask, didReceive response: HTTPURLResponse) {
        dataTaskDidReceiveResponse?(session, task, response)
    }
    public func session(_ session: Session, task: SessionTask, didSendBodyData bytesSent: Int64,
                        totalBytesSent: Int64, totalBytesExpectedToSend: Int64) {
        taskDidSendBodyData?(session, task, bytesSent, totalBytesSent, totalBytesExpectedToSend)
    }

    public func session(_ session: Session, task: SessionTask, didReceive data: Data) {
        dataTaskDidReceiveData?(session, task, data)
    }
    public func session(_ session: Session, task: SessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
                        newRequest request: URLRequest) {
        taskWillPerformHTTPRedirection?(session, task, response, request)
    }
    public func session(_ session: Session, task: SessionTask, willCacheResponse proposedResponse: CachedURLResponse) {
        dataTaskWillCacheResponse?(session, task, proposedResponse)
    }
    public func session(_ session: Session, task: SessionTask, didFinishCollecting metrics: TaskMetrics) {
        taskDidFinishCollectingMetrics?(session, task, metrics)
    }
    public func session(_ session: Session, task: SessionTask, didCompleteWithError error: (any Error)?) {
        taskDidComplete?(session, task, error)
    }
    public func request(_ request: Request, didCreateInitialURLRequest urlRequest: URLRequest) {
        requestDidCreateInitialURLRequest?(request, urlRequest)
    }
    public func request(_ request: Request, didFailToCreateURLRequestWithError error: AFError) {
        requestDidFailToCreateURLRequestWithError?(request, error)
    }
    public func request(_ request: Request, didAdaptInitialRequest initialRequest: URLRequest, to adaptedRequest: URLRequest) {
        requestDidAdaptInitialRequestToAdaptedRequest?(request, initialRequest, adaptedRequest)
    }
    public func request(_ request: Request, didFailToAdaptURLRequest initialRequest: URLRequest, withError error: AFError) {
        requestDidFailToAdaptURLRequestWithError?(request, initialRequest, error)
    }
    public func request(_ request: Request, didCreateURLRequest urlRequest: URLRequest) {
        requestDidCreateURLRequest?(request, urlRequest)
    }
    public func request(_ request: Request, didCreateTask task: SessionTask) {
        requestDidCreateTask?(request, task)
    }
    public func request(_ request: Request, didGatherMetrics metrics: TaskMetrics) {
        requestDidGatherMetrics?(request, metrics)
    }
    public func request(_ request: Request, didFailTask task: SessionTask, earlyWithError error: AFError) {
        requestDidFailTaskEarlyWithError?(request, task, error)
    }
    public func request(_ request: Request, didCompleteTask task: SessionTask, with error: AFError?) {
        requestDidCompleteTaskWithError?(request, task, error)
    }
    public func requestIsRetrying(_ request: Request) {
        requestIsRetrying?(request)
    }
    public func requestDidFinish(_ request: Request) {
        requestDidFinish?(request)
    }
    public func requestDidResume(_ request: Request) {
        requestDidResume?(request)
    }
    public func request(_ request: Request, didResumeTask task: SessionTask) {
        requestDidResumeTask?(request, task)
    }
    public func requestDidSuspend(_ request: Request) {
        requestDidSuspend?(request)
    }
    public func request(_ request: Request, didSuspendTask task: SessionTask) {
        requestDidSuspendTask?(request, task)
    }
    public func requestDidCancel(_ request: Request) {
        requestDidCancel?(request)
    }
    public func request(_ request: Request, didCancelTask task: SessionTask) {
        requestDidCancelTask?(request, task)
    }
    public func request(_ request: DataRequest, didValidateRequest urlRequest: URLRequest?, response: HTTPURLResponse,
                        data: Data?, withResult result: Request.ValidationResult) {
        requestDidValidateRequestResponseDataWithResult?(request, urlRequest, response, data, result)
    }
    public func request(_ request: DataRequest, didParseResponse response: DataResponse<Data?, AFError>) {
        requestDidParseResponse?(request, response)
    }

    public func request(_ request: UploadRequest, didCreateUploadable uploadable: UploadRequest.Uploadable) {
        requestDidCreateUploadable?(request, uploadable)
    }

    public func request(_ request: UploadRequest, didFailToCreateUploadableWithError error: AFError) {
        requestDidFailToCreateUploadableWithError?(request, error)
    }

    public func request(_ request: DataStreamRequest, didValidateRequest urlRequest: URLRequest?, response: HTTPURLResponse,
                        withResult result: Request.ValidationResult) {
        requestDidValidateRequestResponseWithResult?(request, urlRequest, response, result)
    }

    public func request(_ request: DownloadRequest, didFinishDownloadingUsing task: SessionTask, with result: Result<URL, AFError>) {
        requestDidFinishDownloadingUsingTaskWithResult?(request, task, result)
    }

    public func request(_ request: DownloadRequest, didCreateDestinationURL url: URL) {
        requestDidCreateDestinationURL?(request, url)
    }

    public func request(_ request: DownloadRequest, didValidateRequest urlRequest: URLRequest?, response: HTTPURLResponse,
                        fileURL: URL?, withResult result: Request.ValidationResult) {
        requestDidValidateRequestResponseFileURLWithResult?(request, urlRequest, response, fileURL, result)
    }

    public func request(_ request: DownloadRequest, didParseResponse response: DownloadResponse<URL?, AFError>) {
        requestDidParseDownloadResponse?(request, response)
    }
}
