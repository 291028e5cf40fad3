import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Observes requests and their tasks. Every method has an empty default, so a monitor implements
/// only what it needs. Events are delivered asynchronously on `queue`, in the order they happened
/// for each request; a slow monitor delays nothing but its own queue.
///
/// The `session(_:task:...)` events are AF's counterparts of the URLSession delegate events
/// Alamofire forwards as `urlSession(_:task:...)`: they come from the engine.
public protocol EventMonitor: Sendable {
    /// Where this monitor's events are delivered. Default: `.main`.
    var queue: DispatchQueue { get }

    // MARK: Engine events

    /// The head of a final (non-redirect) response arrived.
    func session(_ session: Session, task: SessionTask, didReceive response: HTTPURLResponse)
    /// Body bytes arrived.
    func session(_ session: Session, task: SessionTask, didReceive data: Data)
    /// Request body bytes went out.
    func session(_ session: Session, task: SessionTask, didSendBodyData bytesSent: Int64,
                 totalBytesSent: Int64, totalBytesExpectedToSend: Int64)
    /// A redirect is about to be followed with `request`, unless a redirect handler says otherwise.
    func session(_ session: Session, task: SessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
                 newRequest request: URLRequest)
    /// A response is about to be offered to the session's response cache.
    func session(_ session: Session, task: SessionTask, willCacheResponse proposedResponse: CachedURLResponse)
    /// The task's metrics are complete.
    func session(_ session: Session, task: SessionTask, didFinishCollecting metrics: TaskMetrics)
    /// The task ended, with the error if it failed.
    func session(_ session: Session, task: SessionTask, didCompleteWithError error: (any Error)?)

    // MARK: Request events

    func request(_ request: Request, didCreateInitialURLRequest urlRequest: URLRequest)
    func request(_ request: Request, didFailToCreateURLRequestWithError error: AFError)
    func request(_ request: Request, didAdaptInitialRequest initialRequest: URLRequest, to adaptedRequest: URLRequest)
    func request(_ request: Request, didFailToAdaptURLRequest initialRequest: URLRequest, withError error: AFError)
    func request(_ request: Request, didCreateURLRequest urlRequest: URLRequest)
    func request(_ request: Request, didCreateTask task: SessionTask)
    func request(_ request: Request, didGatherMetrics metrics: TaskMetrics)
    func request(_ request: Request, didFailTask task: SessionTask, earlyWithError error: AFError)
    func request(_ request: Request, didCompleteTask task: SessionTask, with error: AFError?)
    func requestIsRetrying(_ request: Request)
    func requestDidFinish(_ request: Request)
    func requestDidResume(_ request: Request)
    func request(_ request: Request, didResumeTask task: SessionTask)
    func requestDidSuspend(_ request: Request)
    func request(_ request: Request, didSuspendTask task: SessionTask)
    func requestDidCancel(_ request: Request)
    func request(_ request: Request, didCancelTask task: SessionTask)

    // MARK: DataRequest events

    func request(_ request: DataRequest, didValidateRequest urlRequest: URLRequest?, response: HTTPURLResponse,
                 data: Data?, withResult result: Request.ValidationResult)
    func request(_ request: DataRequest, didParseResponse response: DataResponse<Data?, AFError>)
    func request<Value>(_ request: DataRequest, didParseResponse response: DataResponse<Value, AFError>)

    // MARK: UploadRequest events

    func request(_ request: UploadRequest, didCreateUploadable uploadable: UploadRequest.Uploadable)
    func request(_ request: UploadRequest, didFailToCreateUploadableWithError error: AFError)

    // MARK: DataStreamRequest events

    func request(_ request: DataStreamRequest, didValidateRequest urlRequest: URLRequest?, response: HTTPURLResponse,
                 withResult result: Request.ValidationResult)
    func request<Value>(_ request: DataStreamRequest, didParseStream result: Result<Value, AFError>)

    // MARK: DownloadRequest events

    func request(_ request: DownloadRequest, didFinishDownloadingUsing task: SessionTask, with result: Result<URL, AFError>)
    func request(_ request: DownloadRequest, didCreateDestinationURL url: URL)
    func request(_ request: DownloadRequest, didValidateRequest urlRequest: URLRequest?, response: HTTPURLResponse,
                 fileURL: URL?, withResult result: Request.ValidationResult)
    func request(_ request: DownloadRequest, didParseResponse response: DownloadResponse<URL?, AFError>)
    func request<Value>(_ request: DownloadRequest, didParseResponse response: DownloadResponse<Value, AFError>)
}

extension EventMonitor {
    public var queue: DispatchQueue { .main }

    public func session(_ session: Session, task: SessionTask, didReceive response: HTTPURLResponse) {}
    public func session(_ session: Session, task: SessionTask, didReceive data: Data) {}
    public func session(_ session: Session, task: SessionTask, didSendBodyData bytesSent: Int64,
                        totalBytesSent: Int64, totalBytesExpectedToSend: Int64) {}
    public func session(_ session: Session, task: SessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
                        newRequest request: URLRequest) {}
    public func session(_ session: Session, task: SessionTask, willCacheResponse proposedResponse: CachedURLResponse) {}
    public func session(_ session: Session, task: SessionTask, didFinishCollecting metrics: TaskMetrics) {}
    public func session(_ session: Session, task: SessionTask, didCompleteWithError error: (any Error)?) {}

    public func request(_ request: Request, didCreateInitialURLRequest urlRequest: URLRequest) {}
    public func request(_ request: Request, didFailToCreateURLRequestWithError error: AFError) {}
    public func request(_ request: Request, didAdaptInitialRequest initialRequest: URLRequest, to adaptedRequest: URLRequest) {}
    public func request(_ request: Request, didFailToAdaptURLRequest initialRequest: URLRequest, withError error: AFError) {}
    public func request(_ request: Request, didCreateURLRequest urlRequest: URLRequest) {}
    public func request(_ request: Request, didCreateTask task: SessionTask) {}
    public func request(_ request: Request, didGatherMetrics metrics: TaskMetrics) {}
    public func request(_ request: Request, didFailTask task: SessionTask, earlyWithError error: AFError) {}
    public func request(_ request: Request, didCompleteTask task: SessionTask, with error: AFError?) {}
    public func requestIsRetrying(_ request: Request) {}
    public func requestDidFinish(_ request: Request) {}
    public func requestDidResume(_ request: Request) {}
    public func request(_ request: Request, didResumeTask task: SessionTask) {}
    public func requestDidSuspend(_ request: Request) {}
    public func request(_ request: Request, didSuspendTask task: SessionTask) {}
    public func requestDidCancel(_ request: Request) {}
    public func request(_ request: Request, didCancelTask task: SessionTask) {}

    public func request(_ request: DataRequest, didValidateRequest urlRequest: URLRequest?, response: HTTPURLResponse,
                        data: Data?, withResult result: Request.ValidationResult) {}
    public func request(_ request: DataRequest, didParseResponse response: DataResponse<Data?, AFError>) {}
    public func request<Value>(_ request: DataRequest, didParseResponse response: DataResponse<Value, AFError>) {}

    public func request(_ request: UploadRequest, didCreateUploadable uploadable: UploadRequest.Uploadable) {}
    public func request(_ request: UploadRequest, didFailToCreateUploadableWithError error: AFError) {}

    public func request(_ request: DataStreamRequest, didValidateRequest urlRequest: URLRequest?, response: HTTPURLResponse,
                        withResult result: Request.ValidationResult) {}
    public func request<Value>(_ request: DataStreamRequest, didParseStream result: Result<Value, AFError>) {}

    public func request(_ request: DownloadRequest, didFinishDownloadingUsing task: SessionTask, with result: Result<URL, AFError>) {}
    public func request(_ request: DownloadRequest, didCreateDestinationURL url: URL) {}
    public func request(_ request: DownloadRequest, didValidateRequest urlRequest: URLRequest?, response: HTTPURLResponse,
                        fileURL: URL?, withResult result: Request.ValidationResult) {}
    public func request(_ request: DownloadRequest, didParseResponse response: DownloadResponse<URL?, AFError>) {}
    public func request<Value>(_ request: DownloadRequest, didParseResponse response: DownloadResponse<Value, AFError>) {}
}
