import Foundation
import Synchronization
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// An `EventMonitor` made of closures, one optional closure per event, with Alamofire's
/// property names. The closures may be set and replaced from any thread.
///
/// An event is heard if its closure is set when the event is delivered on `queue`, as in
/// Alamofire. A transfer's head, data and byte counts are the exception: an exchange reports
/// them only if their closures were set as it started. A subclass gets every event.
open class ClosureEventMonitor: EventMonitor, @unchecked Sendable {
    public let queue: DispatchQueue

    private struct Closures {
        var sessionDidBecomeInvalidWithError: (@Sendable (URLSession, (any Error)?) -> Void)?
        var taskDidReceiveChallenge: (@Sendable (URLSession, URLSessionTask, URLAuthenticationChallenge) -> Void)?
        var taskDidSendBodyData: (@Sendable (URLSession, URLSessionTask, Int64, Int64, Int64) -> Void)?
        var taskNeedNewBodyStream: (@Sendable (URLSession, URLSessionTask) -> Void)?
        var taskWillPerformHTTPRedirection: (@Sendable (URLSession, URLSessionTask, HTTPURLResponse, URLRequest) -> Void)?
        var taskDidFinishCollectingMetrics: (@Sendable (URLSession, URLSessionTask, TaskMetrics) -> Void)?
        var taskDidComplete: (@Sendable (URLSession, URLSessionTask, (any Error)?) -> Void)?
        var taskIsWaitingForConnectivity: (@Sendable (URLSession, URLSessionTask) -> Void)?
        var dataTaskDidReceiveResponse: (@Sendable (URLSession, URLSessionDataTask, URLResponse) -> Void)?
        var dataTaskDidReceiveData: (@Sendable (URLSession, URLSessionDataTask, Data) -> Void)?
        var dataTaskWillCacheResponse: (@Sendable (URLSession, URLSessionDataTask, CachedURLResponse) -> Void)?
        var downloadTaskDidFinishDownloadingToURL: (@Sendable (URLSession, URLSessionDownloadTask, URL) -> Void)?
        var downloadTaskDidWriteData: (@Sendable (URLSession, URLSessionDownloadTask, Int64, Int64, Int64) -> Void)?
        var downloadTaskDidResumeAtOffset: (@Sendable (URLSession, URLSessionDownloadTask, Int64, Int64) -> Void)?
        var requestDidCreateInitialURLRequest: (@Sendable (Request, URLRequest) -> Void)?
        var requestDidFailToCreateURLRequestWithError: (@Sendable (Request, AFError) -> Void)?
        var requestDidAdaptInitialRequestToAdaptedRequest: (@Sendable (Request, URLRequest, URLRequest) -> Void)?
        var requestDidFailToAdaptURLRequestWithError: (@Sendable (Request, URLRequest, AFError) -> Void)?
        var requestDidCreateURLRequest: (@Sendable (Request, URLRequest) -> Void)?
        var requestDidCreateTask: (@Sendable (Request, URLSessionTask) -> Void)?
        var requestDidGatherMetrics: (@Sendable (Request, TaskMetrics) -> Void)?
        var requestDidFailTaskEarlyWithError: (@Sendable (Request, URLSessionTask, AFError) -> Void)?
        var requestDidCompleteTaskWithError: (@Sendable (Request, URLSessionTask, AFError?) -> Void)?
        var requestIsRetrying: (@Sendable (Request) -> Void)?
        var requestDidFinish: (@Sendable (Request) -> Void)?
        var requestDidResume: (@Sendable (Request) -> Void)?
        var requestDidResumeTask: (@Sendable (Request, URLSessionTask) -> Void)?
        var requestDidSuspend: (@Sendable (Request) -> Void)?
        var requestDidSuspendTask: (@Sendable (Request, URLSessionTask) -> Void)?
        var requestDidCancel: (@Sendable (Request) -> Void)?
        var requestDidCancelTask: (@Sendable (Request, URLSessionTask) -> Void)?
        var requestDidValidateRequestResponseDataWithResult: (@Sendable (DataRequest, URLRequest?, HTTPURLResponse, Data?, Request.ValidationResult) -> Void)?
        var requestDidParseResponse: (@Sendable (DataRequest, DataResponse<Data?, AFError>) -> Void)?
        var requestDidValidateRequestResponseWithResult: (@Sendable (DataStreamRequest, URLRequest?, HTTPURLResponse, Request.ValidationResult) -> Void)?
        var requestDidCreateUploadable: (@Sendable (UploadRequest, UploadRequest.Uploadable) -> Void)?
        var requestDidFailToCreateUploadableWithError: (@Sendable (UploadRequest, AFError) -> Void)?
        var requestDidProvideInputStream: (@Sendable (UploadRequest, InputStream) -> Void)?
        var requestDidFinishDownloadingUsingTaskWithResult: (@Sendable (DownloadRequest, URLSessionTask, Result<URL, AFError>) -> Void)?
        var requestDidCreateDestinationURL: (@Sendable (DownloadRequest, URL) -> Void)?
        var requestDidValidateRequestResponseFileURLWithResult: (@Sendable (DownloadRequest, URLRequest?, HTTPURLResponse, URL?, Request.ValidationResult) -> Void)?
        var requestDidParseDownloadResponse: (@Sendable (DownloadRequest, DownloadResponse<URL?, AFError>) -> Void)?
    }

    private let closures = Protected(Closures())
    /// One bit per event (`MonitoredEvent.bit`) whose closure is set; written under `closures`.
    private let setClosures = Atomic<UInt64>(0)

    /// Creates a monitor whose closures run on `queue`.
    public init(queue: DispatchQueue = .main) {
        self.queue = queue
    }

    /// Whether the closure that hears `event` is set (see `MonitoredEvent`), read without the
    /// lock as each event is delivered.
    func hasClosure(for event: MonitoredEvent) -> Bool {
        setClosures.load(ordering: .acquiring) & event.bit != 0
    }

    /// Stores `value` as the closure at `path`, which hears `event`. The closure it replaces is
    /// released after the lock.
    private func store<Closure>(_ value: Closure?, at path: WritableKeyPath<Closures, Closure?>, hearing event: MonitoredEvent) {
        // The replaced closure is returned out of the lock and dropped after it.
        _ = closures.withLock { closures in
            let replaced = closures[keyPath: path]
            closures[keyPath: path] = value
            let set = setClosures.load(ordering: .relaxed)
            setClosures.store(value == nil ? set & ~event.bit : set | event.bit, ordering: .releasing)
            return replaced
        }
    }

    /// Never sent (see `EventMonitor`).
    open var sessionDidBecomeInvalidWithError: (@Sendable (URLSession, (any Error)?) -> Void)? {
        get { closures.withLock { $0.sessionDidBecomeInvalidWithError } }
        set { store(newValue, at: \.sessionDidBecomeInvalidWithError, hearing: .sessionDidBecomeInvalidWithError) }
    }

    /// Never sent (see `EventMonitor`).
    open var taskDidReceiveChallenge: (@Sendable (URLSession, URLSessionTask, URLAuthenticationChallenge) -> Void)? {
        get { closures.withLock { $0.taskDidReceiveChallenge } }
        set { store(newValue, at: \.taskDidReceiveChallenge, hearing: .taskDidReceiveChallenge) }
    }

    /// Request body bytes went out.
    open var taskDidSendBodyData: (@Sendable (URLSession, URLSessionTask, Int64, Int64, Int64) -> Void)? {
        get { closures.withLock { $0.taskDidSendBodyData } }
        set { store(newValue, at: \.taskDidSendBodyData, hearing: .taskDidSendBodyData) }
    }

    /// Never sent (see `EventMonitor`).
    open var taskNeedNewBodyStream: (@Sendable (URLSession, URLSessionTask) -> Void)? {
        get { closures.withLock { $0.taskNeedNewBodyStream } }
        set { store(newValue, at: \.taskNeedNewBodyStream, hearing: .taskNeedNewBodyStream) }
    }

    /// A redirect is about to be followed.
    open var taskWillPerformHTTPRedirection: (@Sendable (URLSession, URLSessionTask, HTTPURLResponse, URLRequest) -> Void)? {
        get { closures.withLock { $0.taskWillPerformHTTPRedirection } }
        set { store(newValue, at: \.taskWillPerformHTTPRedirection, hearing: .taskWillPerformHTTPRedirection) }
    }

    /// A task's metrics are complete.
    open var taskDidFinishCollectingMetrics: (@Sendable (URLSession, URLSessionTask, TaskMetrics) -> Void)? {
        get { closures.withLock { $0.taskDidFinishCollectingMetrics } }
        set { store(newValue, at: \.taskDidFinishCollectingMetrics, hearing: .taskDidFinishCollectingMetrics) }
    }

    /// A task ended.
    open var taskDidComplete: (@Sendable (URLSession, URLSessionTask, (any Error)?) -> Void)? {
        get { closures.withLock { $0.taskDidComplete } }
        set { store(newValue, at: \.taskDidComplete, hearing: .taskDidComplete) }
    }

    /// Never sent (see `EventMonitor`).
    open var taskIsWaitingForConnectivity: (@Sendable (URLSession, URLSessionTask) -> Void)? {
        get { closures.withLock { $0.taskIsWaitingForConnectivity } }
        set { store(newValue, at: \.taskIsWaitingForConnectivity, hearing: .taskIsWaitingForConnectivity) }
    }

    /// The head of a final response arrived.
    open var dataTaskDidReceiveResponse: (@Sendable (URLSession, URLSessionDataTask, URLResponse) -> Void)? {
        get { closures.withLock { $0.dataTaskDidReceiveResponse } }
        set { store(newValue, at: \.dataTaskDidReceiveResponse, hearing: .dataTaskDidReceiveResponse) }
    }

    /// Body bytes arrived.
    open var dataTaskDidReceiveData: (@Sendable (URLSession, URLSessionDataTask, Data) -> Void)? {
        get { closures.withLock { $0.dataTaskDidReceiveData } }
        set { store(newValue, at: \.dataTaskDidReceiveData, hearing: .dataTaskDidReceiveData) }
    }

    /// A response is about to be offered to the cache.
    open var dataTaskWillCacheResponse: (@Sendable (URLSession, URLSessionDataTask, CachedURLResponse) -> Void)? {
        get { closures.withLock { $0.dataTaskWillCacheResponse } }
        set { store(newValue, at: \.dataTaskWillCacheResponse, hearing: .dataTaskWillCacheResponse) }
    }

    /// A download's body is complete in its temporary file.
    open var downloadTaskDidFinishDownloadingToURL: (@Sendable (URLSession, URLSessionDownloadTask, URL) -> Void)? {
        get { closures.withLock { $0.downloadTaskDidFinishDownloadingToURL } }
        set { store(newValue, at: \.downloadTaskDidFinishDownloadingToURL, hearing: .downloadTaskDidFinishDownloadingToURL) }
    }

    /// Body bytes were written to a download's file.
    open var downloadTaskDidWriteData: (@Sendable (URLSession, URLSessionDownloadTask, Int64, Int64, Int64) -> Void)? {
        get { closures.withLock { $0.downloadTaskDidWriteData } }
        set { store(newValue, at: \.downloadTaskDidWriteData, hearing: .downloadTaskDidWriteData) }
    }

    /// A download continues a partial file.
    open var downloadTaskDidResumeAtOffset: (@Sendable (URLSession, URLSessionDownloadTask, Int64, Int64) -> Void)? {
        get { closures.withLock { $0.downloadTaskDidResumeAtOffset } }
        set { store(newValue, at: \.downloadTaskDidResumeAtOffset, hearing: .downloadTaskDidResumeAtOffset) }
    }

    /// The first URLRequest of an attempt was built.
    open var requestDidCreateInitialURLRequest: (@Sendable (Request, URLRequest) -> Void)? {
        get { closures.withLock { $0.requestDidCreateInitialURLRequest } }
        set { store(newValue, at: \.requestDidCreateInitialURLRequest, hearing: .requestDidCreateInitialURLRequest) }
    }

    /// Building the URLRequest failed.
    open var requestDidFailToCreateURLRequestWithError: (@Sendable (Request, AFError) -> Void)? {
        get { closures.withLock { $0.requestDidFailToCreateURLRequestWithError } }
        set { store(newValue, at: \.requestDidFailToCreateURLRequestWithError, hearing: .requestDidFailToCreateURLRequestWithError) }
    }

    /// The adapters changed the request.
    open var requestDidAdaptInitialRequestToAdaptedRequest: (@Sendable (Request, URLRequest, URLRequest) -> Void)? {
        get { closures.withLock { $0.requestDidAdaptInitialRequestToAdaptedRequest } }
        set { store(newValue, at: \.requestDidAdaptInitialRequestToAdaptedRequest, hearing: .requestDidAdaptInitialRequestToAdaptedRequest) }
    }

    /// An adapter failed.
    open var requestDidFailToAdaptURLRequestWithError: (@Sendable (Request, URLRequest, AFError) -> Void)? {
        get { closures.withLock { $0.requestDidFailToAdaptURLRequestWithError } }
        set { store(newValue, at: \.requestDidFailToAdaptURLRequestWithError, hearing: .requestDidFailToAdaptURLRequestWithError) }
    }

    /// The URLRequest to send is final.
    open var requestDidCreateURLRequest: (@Sendable (Request, URLRequest) -> Void)? {
        get { closures.withLock { $0.requestDidCreateURLRequest } }
        set { store(newValue, at: \.requestDidCreateURLRequest, hearing: .requestDidCreateURLRequest) }
    }

    /// A task was made.
    open var requestDidCreateTask: (@Sendable (Request, URLSessionTask) -> Void)? {
        get { closures.withLock { $0.requestDidCreateTask } }
        set { store(newValue, at: \.requestDidCreateTask, hearing: .requestDidCreateTask) }
    }

    /// An attempt's metrics arrived.
    open var requestDidGatherMetrics: (@Sendable (Request, TaskMetrics) -> Void)? {
        get { closures.withLock { $0.requestDidGatherMetrics } }
        set { store(newValue, at: \.requestDidGatherMetrics, hearing: .requestDidGatherMetrics) }
    }

    /// A task failed before its transfer ended.
    open var requestDidFailTaskEarlyWithError: (@Sendable (Request, URLSessionTask, AFError) -> Void)? {
        get { closures.withLock { $0.requestDidFailTaskEarlyWithError } }
        set { store(newValue, at: \.requestDidFailTaskEarlyWithError, hearing: .requestDidFailTaskEarlyWithError) }
    }

    /// A task completed.
    open var requestDidCompleteTaskWithError: (@Sendable (Request, URLSessionTask, AFError?) -> Void)? {
        get { closures.withLock { $0.requestDidCompleteTaskWithError } }
        set { store(newValue, at: \.requestDidCompleteTaskWithError, hearing: .requestDidCompleteTaskWithError) }
    }

    /// A retry is about to start.
    open var requestIsRetrying: (@Sendable (Request) -> Void)? {
        get { closures.withLock { $0.requestIsRetrying } }
        set { store(newValue, at: \.requestIsRetrying, hearing: .requestIsRetrying) }
    }

    /// The request finished.
    open var requestDidFinish: (@Sendable (Request) -> Void)? {
        get { closures.withLock { $0.requestDidFinish } }
        set { store(newValue, at: \.requestDidFinish, hearing: .requestDidFinish) }
    }

    /// The request was resumed.
    open var requestDidResume: (@Sendable (Request) -> Void)? {
        get { closures.withLock { $0.requestDidResume } }
        set { store(newValue, at: \.requestDidResume, hearing: .requestDidResume) }
    }

    /// A task was resumed.
    open var requestDidResumeTask: (@Sendable (Request, URLSessionTask) -> Void)? {
        get { closures.withLock { $0.requestDidResumeTask } }
        set { store(newValue, at: \.requestDidResumeTask, hearing: .requestDidResumeTask) }
    }

    /// The request was suspended.
    open var requestDidSuspend: (@Sendable (Request) -> Void)? {
        get { closures.withLock { $0.requestDidSuspend } }
        set { store(newValue, at: \.requestDidSuspend, hearing: .requestDidSuspend) }
    }

    /// A task was suspended.
    open var requestDidSuspendTask: (@Sendable (Request, URLSessionTask) -> Void)? {
        get { closures.withLock { $0.requestDidSuspendTask } }
        set { store(newValue, at: \.requestDidSuspendTask, hearing: .requestDidSuspendTask) }
    }

    /// The request was cancelled.
    open var requestDidCancel: (@Sendable (Request) -> Void)? {
        get { closures.withLock { $0.requestDidCancel } }
        set { store(newValue, at: \.requestDidCancel, hearing: .requestDidCancel) }
    }

    /// A task was cancelled.
    open var requestDidCancelTask: (@Sendable (Request, URLSessionTask) -> Void)? {
        get { closures.withLock { $0.requestDidCancelTask } }
        set { store(newValue, at: \.requestDidCancelTask, hearing: .requestDidCancelTask) }
    }

    /// A validator ran.
    open var requestDidValidateRequestResponseDataWithResult: (@Sendable (DataRequest, URLRequest?, HTTPURLResponse, Data?, Request.ValidationResult) -> Void)? {
        get { closures.withLock { $0.requestDidValidateRequestResponseDataWithResult } }
        set { store(newValue, at: \.requestDidValidateRequestResponseDataWithResult, hearing: .requestDidValidateRequestResponseDataWithResult) }
    }

    /// An unserialized response was produced.
    open var requestDidParseResponse: (@Sendable (DataRequest, DataResponse<Data?, AFError>) -> Void)? {
        get { closures.withLock { $0.requestDidParseResponse } }
        set { store(newValue, at: \.requestDidParseResponse, hearing: .requestDidParseResponse) }
    }

    /// A stream's validator ran on the response head.
    open var requestDidValidateRequestResponseWithResult: (@Sendable (DataStreamRequest, URLRequest?, HTTPURLResponse, Request.ValidationResult) -> Void)? {
        get { closures.withLock { $0.requestDidValidateRequestResponseWithResult } }
        set { store(newValue, at: \.requestDidValidateRequestResponseWithResult, hearing: .requestDidValidateRequestResponseWithResult) }
    }

    /// An upload's body was made.
    open var requestDidCreateUploadable: (@Sendable (UploadRequest, UploadRequest.Uploadable) -> Void)? {
        get { closures.withLock { $0.requestDidCreateUploadable } }
        set { store(newValue, at: \.requestDidCreateUploadable, hearing: .requestDidCreateUploadable) }
    }

    /// Making an upload's body failed.
    open var requestDidFailToCreateUploadableWithError: (@Sendable (UploadRequest, AFError) -> Void)? {
        get { closures.withLock { $0.requestDidFailToCreateUploadableWithError } }
        set { store(newValue, at: \.requestDidFailToCreateUploadableWithError, hearing: .requestDidFailToCreateUploadableWithError) }
    }

    /// An upload's InputStream was handed to the engine.
    open var requestDidProvideInputStream: (@Sendable (UploadRequest, InputStream) -> Void)? {
        get { closures.withLock { $0.requestDidProvideInputStream } }
        set { store(newValue, at: \.requestDidProvideInputStream, hearing: .requestDidProvideInputStream) }
    }

    /// A download's file was moved to its destination, or could not be.
    open var requestDidFinishDownloadingUsingTaskWithResult: (@Sendable (DownloadRequest, URLSessionTask, Result<URL, AFError>) -> Void)? {
        get { closures.withLock { $0.requestDidFinishDownloadingUsingTaskWithResult } }
        set { store(newValue, at: \.requestDidFinishDownloadingUsingTaskWithResult, hearing: .requestDidFinishDownloadingUsingTaskWithResult) }
    }

    /// A download's destination was chosen.
    open var requestDidCreateDestinationURL: (@Sendable (DownloadRequest, URL) -> Void)? {
        get { closures.withLock { $0.requestDidCreateDestinationURL } }
        set { store(newValue, at: \.requestDidCreateDestinationURL, hearing: .requestDidCreateDestinationURL) }
    }

    /// A download's validator ran.
    open var requestDidValidateRequestResponseFileURLWithResult: (@Sendable (DownloadRequest, URLRequest?, HTTPURLResponse, URL?, Request.ValidationResult) -> Void)? {
        get { closures.withLock { $0.requestDidValidateRequestResponseFileURLWithResult } }
        set { store(newValue, at: \.requestDidValidateRequestResponseFileURLWithResult, hearing: .requestDidValidateRequestResponseFileURLWithResult) }
    }

    /// A download's unserialized response was produced.
    open var requestDidParseDownloadResponse: (@Sendable (DownloadRequest, DownloadResponse<URL?, AFError>) -> Void)? {
        get { closures.withLock { $0.requestDidParseDownloadResponse } }
        set { store(newValue, at: \.requestDidParseDownloadResponse, hearing: .requestDidParseDownloadResponse) }
    }

    open func urlSession(_ session: URLSession, didBecomeInvalidWithError error: (any Error)?) {
        sessionDidBecomeInvalidWithError?(session, error)
    }

    open func urlSession(_ session: URLSession, task: URLSessionTask, didReceive challenge: URLAuthenticationChallenge) {
        taskDidReceiveChallenge?(session, task, challenge)
    }

    open func urlSession(_ session: URLSession, task: URLSessionTask, didSendBodyData bytesSent: Int64,
                         totalBytesSent: Int64, totalBytesExpectedToSend: Int64) {
        taskDidSendBodyData?(session, task, bytesSent, totalBytesSent, totalBytesExpectedToSend)
    }

    open func urlSession(_ session: URLSession, taskNeedsNewBodyStream task: URLSessionTask) {
        taskNeedNewBodyStream?(session, task)
    }

    open func urlSession(_ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
                         newRequest request: URLRequest) {
        taskWillPerformHTTPRedirection?(session, task, response, request)
    }

    open func urlSession(_ session: URLSession, task: URLSessionTask, didFinishCollecting metrics: TaskMetrics) {
        taskDidFinishCollectingMetrics?(session, task, metrics)
    }

    open func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        taskDidComplete?(session, task, error)
    }

    open func urlSession(_ session: URLSession, taskIsWaitingForConnectivity task: URLSessionTask) {
        taskIsWaitingForConnectivity?(session, task)
    }

    open func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse) {
        dataTaskDidReceiveResponse?(session, dataTask, response)
    }

    open func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        dataTaskDidReceiveData?(session, dataTask, data)
    }

    open func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, willCacheResponse proposedResponse: CachedURLResponse) {
        dataTaskWillCacheResponse?(session, dataTask, proposedResponse)
    }

    open func urlSession(_ session: URLSession, downloadTask: URLSessionDownloadTask, didFinishDownloadingTo location: URL) {
        downloadTaskDidFinishDownloadingToURL?(session, downloadTask, location)
    }

    open func urlSession(_ session: URLSession, downloadTask: URLSessionDownloadTask, didWriteData bytesWritten: Int64,
                         totalBytesWritten: Int64, totalBytesExpectedToWrite: Int64) {
        downloadTaskDidWriteData?(session, downloadTask, bytesWritten, totalBytesWritten, totalBytesExpectedToWrite)
    }

    open func urlSession(_ session: URLSession, downloadTask: URLSessionDownloadTask, didResumeAtOffset fileOffset: Int64,
                         expectedTotalBytes: Int64) {
        downloadTaskDidResumeAtOffset?(session, downloadTask, fileOffset, expectedTotalBytes)
    }

    open func request(_ request: Request, didCreateInitialURLRequest urlRequest: URLRequest) {
        requestDidCreateInitialURLRequest?(request, urlRequest)
    }

    open func request(_ request: Request, didFailToCreateURLRequestWithError error: AFError) {
        requestDidFailToCreateURLRequestWithError?(request, error)
    }

    open func request(_ request: Request, didAdaptInitialRequest initialRequest: URLRequest, to adaptedRequest: URLRequest) {
        requestDidAdaptInitialRequestToAdaptedRequest?(request, initialRequest, adaptedRequest)
    }

    open func request(_ request: Request, didFailToAdaptURLRequest initialRequest: URLRequest, withError error: AFError) {
        requestDidFailToAdaptURLRequestWithError?(request, initialRequest, error)
    }

    open func request(_ request: Request, didCreateURLRequest urlRequest: URLRequest) {
        requestDidCreateURLRequest?(request, urlRequest)
    }

    open func request(_ request: Request, didCreateTask task: URLSessionTask) {
        requestDidCreateTask?(request, task)
    }

    open func request(_ request: Request, didGatherMetrics metrics: TaskMetrics) {
        requestDidGatherMetrics?(request, metrics)
    }

    open func request(_ request: Request, didFailTask task: URLSessionTask, earlyWithError error: AFError) {
        requestDidFailTaskEarlyWithError?(request, task, error)
    }

    open func request(_ request: Request, didCompleteTask task: URLSessionTask, with error: AFError?) {
        requestDidCompleteTaskWithError?(request, task, error)
    }

    open func requestIsRetrying(_ request: Request) {
        requestIsRetrying?(request)
    }

    open func requestDidFinish(_ request: Request) {
        requestDidFinish?(request)
    }

    open func requestDidResume(_ request: Request) {
        requestDidResume?(request)
    }

    open func request(_ request: Request, didResumeTask task: URLSessionTask) {
        requestDidResumeTask?(request, task)
    }

    open func requestDidSuspend(_ request: Request) {
        requestDidSuspend?(request)
    }

    open func request(_ request: Request, didSuspendTask task: URLSessionTask) {
        requestDidSuspendTask?(request, task)
    }

    open func requestDidCancel(_ request: Request) {
        requestDidCancel?(request)
    }

    open func request(_ request: Request, didCancelTask task: URLSessionTask) {
        requestDidCancelTask?(request, task)
    }

    open func request(_ request: DataRequest, didValidateRequest urlRequest: URLRequest?, response: HTTPURLResponse,
                      data: Data?, withResult result: Request.ValidationResult) {
        requestDidValidateRequestResponseDataWithResult?(request, urlRequest, response, data, result)
    }

    open func request(_ request: DataRequest, didParseResponse response: DataResponse<Data?, AFError>) {
        requestDidParseResponse?(request, response)
    }

    open func request(_ request: DataStreamRequest, didValidateRequest urlRequest: URLRequest?, response: HTTPURLResponse,
                      withResult result: Request.ValidationResult) {
        requestDidValidateRequestResponseWithResult?(request, urlRequest, response, result)
    }

    open func request(_ request: UploadRequest, didCreateUploadable uploadable: UploadRequest.Uploadable) {
        requestDidCreateUploadable?(request, uploadable)
    }

    open func request(_ request: UploadRequest, didFailToCreateUploadableWithError error: AFError) {
        requestDidFailToCreateUploadableWithError?(request, error)
    }

    open func request(_ request: UploadRequest, didProvideInputStream stream: InputStream) {
        requestDidProvideInputStream?(request, stream)
    }

    open func request(_ request: DownloadRequest, didFinishDownloadingUsing task: URLSessionTask, with result: Result<URL, AFError>) {
        requestDidFinishDownloadingUsingTaskWithResult?(request, task, result)
    }

    open func request(_ request: DownloadRequest, didCreateDestinationURL url: URL) {
        requestDidCreateDestinationURL?(request, url)
    }

    open func request(_ request: DownloadRequest, didValidateRequest urlRequest: URLRequest?, response: HTTPURLResponse,
                      fileURL: URL?, withResult result: Request.ValidationResult) {
        requestDidValidateRequestResponseFileURLWithResult?(request, urlRequest, response, fileURL, result)
    }

    open func request(_ request: DownloadRequest, didParseResponse response: DownloadResponse<URL?, AFError>) {
        requestDidParseDownloadResponse?(request, response)
    }
}
