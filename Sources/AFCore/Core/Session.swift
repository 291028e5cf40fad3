import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The shared `Session`.
public let AF = Session.default

/// Creates and runs requests over one curl engine (one multi handle on its own thread).
open class Session: @unchecked Sendable {
    /// When a request's setup (URL request creation, adaptation, task creation) runs.
    public enum RequestSetup: Sendable {
        /// On the first `resume()` (the default).
        case lazy
        /// As soon as the request is created.
        case eager
    }

    /// The shared instance, made with `Session()`.
    public static let `default` = Session()

    /// The configuration the session's tasks follow; copied at init, later changes are ignored.
    public let sessionConfiguration: URLSessionConfiguration
    /// The serial queue that orders every internal event.
    public let rootQueue: DispatchQueue
    /// Whether requests start when their first response handler is added.
    public let startRequestsImmediately: Bool
    /// When request setup runs.
    public let requestSetup: RequestSetup
    /// Queue on which URL requests are built.
    public let requestQueue: DispatchQueue
    /// Queue on which response serializers run.
    public let serializationQueue: DispatchQueue

    /// Adapts and retries every request, before each request's own interceptor.
    public let interceptor: (any RequestInterceptor)?
    /// Decides redirects for requests without their own handler.
    public let redirectHandler: (any RedirectHandler)?
    /// Decides caching for requests without their own handler.
    public let cachedResponseHandler: (any CachedResponseHandler)?
    /// Chooses the trust evaluator of each host (AFTrust's `ServerTrustManager`); nil leaves
    /// every host to OpenSSL's default verification.
    public let serverTrustManager: ServerTrustManager?
    /// Every monitor of the session, as one: `defaultEventMonitors`, then those given.
    public let eventMonitor: CompositeEventMonitor
    /// The monitors every Session has: `AlamofireNotifications`.
    public let defaultEventMonitors: [any EventMonitor] = [AlamofireNotifications()]
    /// Kept for Alamofire's API; its `FileManager` moves downloaded files.
    public let delegate: SessionDelegate
    /// Which HTTP versions the session's requests may speak.
    public var httpVersionPolicy: HTTPVersionPolicy { taskConfiguration.httpVersion }
    /// How far content-coded responses may expand as they are decoded; nil: no limit.
    public var decompressionLimit: DecompressionLimit? { taskConfiguration.decompressionLimit }

    /// A `URLSession` standing for this Session where Alamofire's API names one (the
    /// `urlSession(_:…)` events of `EventMonitor`). AF's engine never uses it; it is made on
    /// first use, with `sessionConfiguration` and `delegate` as its delegate (as Alamofire's).
    public var session: URLSession {
        urlSession.withLock { stored in
            if let stored { return stored }
            let made = URLSession(configuration: sessionConfiguration, delegate: delegate, delegateQueue: nil)
            stored = made
            return made
        }
    }

    private let urlSession = Protected<URLSession?>(nil)
    /// Whether requests made without an interceptor of their own get a queue of their own (see
    /// `queues(forRequestWith:)`): nothing of the session's (an interceptor, a redirect or cache
    /// handler, a monitor, queues of its caller's) needs their events in one order.
    let givesRequestsOwnQueues: Bool
    /// The queues of requests that have one of their own.
    let requestQueues = RequestQueues()
    let engine: CurlEngine
    let taskConfiguration: TaskConfiguration
    let activeRequests = Protected(ActiveRequests())
    /// Where `shutdown()` stands.
    let shutdownState = Protected(ShutdownState())

    /// Creates a session from `session`'s configuration, as Alamofire's does from the session
    /// itself. `session` is what `session` returns; AF's engine does not use it.
    public convenience init(session: URLSession,
                            delegate: SessionDelegate,
                            rootQueue: DispatchQueue,
                            startRequestsImmediately: Bool = true,
                            requestSetup: RequestSetup = .lazy,
                            requestQueue: DispatchQueue? = nil,
                            serializationQueue: DispatchQueue? = nil,
                            interceptor: (any RequestInterceptor)? = nil,
                            serverTrustManager: ServerTrustManager? = nil,
                            redirectHandler: (any RedirectHandler)? = nil,
                            cachedResponseHandler: (any CachedResponseHandler)? = nil,
                            eventMonitors: [any EventMonitor] = []) {
        self.init(configuration: session.configuration, delegate: delegate, rootQueue: rootQueue,
                  startRequestsImmediately: startRequestsImmediately, requestSetup: requestSetup, requestQueue: requestQueue,
                  serializationQueue: serializationQueue, interceptor: interceptor,
                  serverTrustManager: serverTrustManager, redirectHandler: redirectHandler,
                  cachedResponseHandler: cachedResponseHandler, eventMonitors: eventMonitors,
                  environment: ProcessInfo.processInfo.environment)
        urlSession.withLock { $0 = session }
    }

    /// Creates a session. CA files (`SSL_CERT_FILE`, `SSL_CERT_DIR`) and proxy variables are read
    /// from `environment`, the process's by default. With `followsNetworkChanges` (the default),
    /// a connection whose path goes (its address removed, its interface down or without carrier,
    /// the route to its peer gone or moved) is reset at once, so a request on it fails with
    /// `URLError.networkConnectionLost` (which retriers retry) instead of waiting out its
    /// timeout, and a request with no usable path fails with `URLError.notConnectedToInternet`.
    /// `tcpKeepAlive` probes quiet connections (nil: no probes).
    public init(configuration: URLSessionConfiguration = URLSessionConfiguration.af.default,
                delegate: SessionDelegate = SessionDelegate(),
                rootQueue: DispatchQueue = DispatchQueue(label: "org.alamofire.session.rootQueue"),
                startRequestsImmediately: Bool = true,
                requestSetup: RequestSetup = .lazy,
                requestQueue: DispatchQueue? = nil,
                serializationQueue: DispatchQueue? = nil,
                interceptor: (any RequestInterceptor)? = nil,
                serverTrustManager: ServerTrustManager? = nil,
                redirectHandler: (any RedirectHandler)? = nil,
                cachedResponseHandler: (any CachedResponseHandler)? = nil,
                eventMonitors: [any EventMonitor] = [],
                httpVersionPolicy: HTTPVersionPolicy = .automatic,
                decompressionLimit: DecompressionLimit? = .default,
                followsNetworkChanges: Bool = true,
                tcpKeepAlive: TCPKeepAlive? = .default,
                environment: [String: String] = ProcessInfo.processInfo.environment) {
        self.delegate = delegate
        let serialRootQueue = rootQueue === DispatchQueue.main
            ? rootQueue
            : DispatchQueue(label: rootQueue.label, target: rootQueue)
        self.sessionConfiguration = configuration.copy() as? URLSessionConfiguration ?? configuration
        self.rootQueue = serialRootQueue
        serialRootQueue.markForCurrentCheck()
        self.startRequestsImmediately = startRequestsImmediately
        self.requestSetup = requestSetup
        // The default queues only run behind rootQueue: work for them that starts on rootQueue
        // runs there at once (see `runBehindOrAsync`).
        self.requestQueue = requestQueue ?? DispatchQueue(label: "\(rootQueue.label).requestQueue", target: serialRootQueue)
            .runningBehind(serialRootQueue)
        self.serializationQueue = serializationQueue
            ?? DispatchQueue(label: "\(rootQueue.label).serializationQueue", target: serialRootQueue)
            .runningBehind(serialRootQueue)
        givesRequestsOwnQueues = requestSetup == .lazy && requestQueue == nil && serializationQueue == nil
            && interceptor == nil && redirectHandler == nil && cachedResponseHandler == nil && eventMonitors.isEmpty
        self.interceptor = interceptor
        self.redirectHandler = redirectHandler
        self.cachedResponseHandler = cachedResponseHandler
        self.serverTrustManager = serverTrustManager
        eventMonitor = CompositeEventMonitor(queue: DispatchQueue(label: "\(rootQueue.label).eventMonitor",
                                                                  target: serialRootQueue),
                                             monitors: defaultEventMonitors + eventMonitors)
        taskConfiguration = TaskConfiguration(configuration, environment: environment, serverTrustManager: serverTrustManager,
                                              httpVersion: httpVersionPolicy, decompressionLimit: decompressionLimit)
        let perHost = max(1, configuration.httpMaximumConnectionsPerHost)
        engine = CurlEngine(limits: .init(maximumConnectionsPerHost: perHost,
                                          maximumCachedConnections: max(128, perHost * 4),
                                          followsNetworkChanges: followsNetworkChanges, tcpKeepAlive: tcpKeepAlive),
                            name: "org.alamofire.session.engine")
    }

    deinit {
        // Requests not started yet would otherwise wait forever for a session that is gone;
        // running ones end the same way when the engine cancels their transfers.
        for request in activeRequests.value.all {
            // Their tasks end too, started or not, as URLSession's do when it is invalidated.
            request.mutableState.withLock { $0.tasks.last }?.cancel()
            request.underlyingQueue.async { request.finish(error: .sessionDeinitialized) }
        }
        engine.shutdown()
        // The session is invalid from now on, as Alamofire's after `invalidateAndCancel()`.
        let invalidated = urlSession.value
        if eventMonitor.hasObservers {
            let reported = invalidated ?? URLSession(configuration: sessionConfiguration)
            eventMonitor.performEvent { $0.urlSession(reported, didBecomeInvalidWithError: nil) }
        }
        // It holds its delegate until invalidated.
        invalidated?.invalidateAndCancel()
    }

    /// The queues of a new data request's internal events and of its serializers. Alamofire
    /// runs every request's on `rootQueue`, one event at a time across the session, which only
    /// the session's hooks can tell: with none (see `givesRequestsOwnQueues`) and no interceptor
    /// given, a request gets a serial queue of its own for both. Its setup then runs on the
    /// caller's thread and its end on its handler's queue, with no trip to `rootQueue` (see
    /// "Life of a request"). Two kinds of request share `rootQueue` while others are active:
    /// one made inside a Swift task, which is most likely awaited (an awaited request's end has
    /// no handler queue to go to and resumes its task from `rootQueue`'s batch either way; a
    /// queue of its own only added a step there, measured slower), and any made while
    /// `RequestQueues.capacity` requests are active, so that queues are reused rather than made
    /// and released per request.
    func queues(forRequestWith interceptor: (any RequestInterceptor)?) -> (underlying: DispatchQueue, serialization: DispatchQueue) {
        guard givesRequestsOwnQueues, interceptor == nil else {
            return (rootQueue, serializationQueue)
        }
        let active = activeRequests.withLock { $0.count }
        if active > 0, active >= RequestQueues.capacity || Self.runsInSwiftTask {
            return (rootQueue, serializationQueue)
        }
        let queue = requestQueues.take()
        return (queue, queue)
    }

    /// Whether the caller runs inside a Swift task. A match on the case, not `!= nil`: the
    /// task's type is opaque outside its library, and a comparison copies it through its
    /// value witnesses, a cost every request of a hookless session paid.
    private static var runsInSwiftTask: Bool {
        withUnsafeCurrentTask { task in
            if case .some = task { true } else { false }
        }
    }

    /// Calls `action` on `rootQueue` with the requests that have not finished.
    public func withAllRequests(perform action: @escaping @Sendable (Set<Request>) -> Void) {
        rootQueue.async { action(self.activeRequests.value.all) }
    }

    /// Cancels every active request, then calls `completion` on `queue`.
    public func cancelAllRequests(completingOnQueue queue: DispatchQueue = .main,
                                  completion: (@Sendable () -> Void)? = nil) {
        withAllRequests { requests in
            requests.forEach { $0.cancel() }
            queue.async { completion?() }
        }
    }

    // MARK: Data requests (open, as in Alamofire: a subclass may override them)

    /// A `DataRequest` for `convertible` with `Parameters` encoded by `encoding`.
    open func request(_ convertible: any URLConvertible,
                      method: HTTPMethod = .get,
                      parameters: Parameters? = nil,
                      encoding: any ParameterEncoding = URLEncoding.default,
                      headers: HTTPHeaders? = nil,
                      interceptor: (any RequestInterceptor)? = nil,
                      shouldAutomaticallyResume: Bool? = nil,
                      requestModifier: RequestModifier? = nil) -> DataRequest {
        let convertible = RequestConvertible(url: convertible, method: method, parameters: parameters,
                                             encoding: encoding, headers: headers, requestModifier: requestModifier)
        return request(convertible, interceptor: interceptor, shouldAutomaticallyResume: shouldAutomaticallyResume)
    }

    /// A `DataRequest` for `convertible` with `Encodable` parameters encoded by `encoder`.
    open func request<Parameters: Encodable & Sendable>(_ convertible: any URLConvertible,
                                                        method: HTTPMethod = .get,
                                                        parameters: Parameters? = nil,
                                                        encoder: any ParameterEncoder = URLEncodedFormParameterEncoder.default,
                                                        headers: HTTPHeaders? = nil,
                                                        interceptor: (any RequestInterceptor)? = nil,
                                                        shouldAutomaticallyResume: Bool? = nil,
                                                        requestModifier: RequestModifier? = nil) -> DataRequest {
        let convertible = RequestEncodableConvertible(url: convertible, method: method, parameters: parameters,
                                                      encoder: encoder, headers: headers, requestModifier: requestModifier)
        return request(convertible, interceptor: interceptor, shouldAutomaticallyResume: shouldAutomaticallyResume)
    }

    /// A `DataRequest` for a prebuilt request.
    open func request(_ convertible: any URLRequestConvertible,
                      interceptor: (any RequestInterceptor)? = nil,
                      shouldAutomaticallyResume: Bool? = nil) -> DataRequest {
        let queues = queues(forRequestWith: interceptor)
        let request = DataRequest(convertible: convertible, underlyingQueue: queues.underlying,
                                  serializationQueue: queues.serialization, eventMonitor: eventMonitor,
                                  interceptor: interceptor,
                                  shouldAutomaticallyResume: shouldAutomaticallyResume, delegate: self)
        perform(request)
        return request
    }

    // MARK: Stream requests (open, as in Alamofire: a subclass may override them)

    /// A `DataStreamRequest` for `convertible` with `Encodable` parameters encoded by `encoder`.
    open func streamRequest<Parameters: Encodable & Sendable>(_ convertible: any URLConvertible,
                                                              method: HTTPMethod = .get,
                                                              parameters: Parameters? = nil,
                                                              encoder: any ParameterEncoder = URLEncodedFormParameterEncoder.default,
                                                              headers: HTTPHeaders? = nil,
                                                              automaticallyCancelOnStreamError: Bool = false,
                                                              interceptor: (any RequestInterceptor)? = nil,
                                                              shouldAutomaticallyResume: Bool? = nil,
                                                              requestModifier: RequestModifier? = nil) -> DataStreamRequest {
        let convertible = RequestEncodableConvertible(url: convertible, method: method, parameters: parameters,
                                                      encoder: encoder, headers: headers, requestModifier: requestModifier)
        return streamRequest(convertible, automaticallyCancelOnStreamError: automaticallyCancelOnStreamError,
                             interceptor: interceptor, shouldAutomaticallyResume: shouldAutomaticallyResume)
    }

    /// A `DataStreamRequest` for `convertible` without parameters.
    open func streamRequest(_ convertible: any URLConvertible,
                            method: HTTPMethod = .get,
                            headers: HTTPHeaders? = nil,
                            automaticallyCancelOnStreamError: Bool = false,
                            interceptor: (any RequestInterceptor)? = nil,
                            shouldAutomaticallyResume: Bool? = nil,
                            requestModifier: RequestModifier? = nil) -> DataStreamRequest {
        let convertible = RequestConvertible(url: convertible, method: method, parameters: nil, encoding: URLEncoding.default,
                                             headers: headers, requestModifier: requestModifier)
        return streamRequest(convertible, automaticallyCancelOnStreamError: automaticallyCancelOnStreamError,
                             interceptor: interceptor, shouldAutomaticallyResume: shouldAutomaticallyResume)
    }

    /// A `DataStreamRequest` for a prebuilt request.
    open func streamRequest(_ convertible: any URLRequestConvertible,
                            automaticallyCancelOnStreamError: Bool = false,
                            interceptor: (any RequestInterceptor)? = nil,
                            shouldAutomaticallyResume: Bool? = nil) -> DataStreamRequest {
        let request = DataStreamRequest(convertible: convertible, automaticallyCancelOnStreamError: automaticallyCancelOnStreamError,
                                        underlyingQueue: rootQueue, serializationQueue: serializationQueue,
                                        eventMonitor: eventMonitor, interceptor: interceptor,
                                        shouldAutomaticallyResume: shouldAutomaticallyResume, delegate: self)
        perform(request)
        return request
    }

    // MARK: Download requests (open, as in Alamofire: a subclass may override them)

    /// A `DownloadRequest` for `convertible` with `Parameters` encoded by `encoding`; the file
    /// goes to `destination` (by default, the temporary directory).
    open func download(_ convertible: any URLConvertible,
                       method: HTTPMethod = .get,
                       parameters: Parameters? = nil,
                       encoding: any ParameterEncoding = URLEncoding.default,
                       headers: HTTPHeaders? = nil,
                       interceptor: (any RequestInterceptor)? = nil,
                       shouldAutomaticallyResume: Bool? = nil,
                       requestModifier: RequestModifier? = nil,
                       to destination: DownloadRequest.Destination? = nil) -> DownloadRequest {
        let convertible = RequestConvertible(url: convertible, method: method, parameters: parameters,
                                             encoding: encoding, headers: headers, requestModifier: requestModifier)
        return download(convertible, interceptor: interceptor, shouldAutomaticallyResume: shouldAutomaticallyResume,
                        to: destination)
    }

    /// A `DownloadRequest` for `convertible` with `Encodable` parameters encoded by `encoder`.
    open func download<Parameters: Encodable & Sendable>(_ convertible: any URLConvertible,
                                                         method: HTTPMethod = .get,
                                                         parameters: Parameters? = nil,
                                                         encoder: any ParameterEncoder = URLEncodedFormParameterEncoder.default,
                                                         headers: HTTPHeaders? = nil,
                                                         interceptor: (any RequestInterceptor)? = nil,
                                                         shouldAutomaticallyResume: Bool? = nil,
                                                         requestModifier: RequestModifier? = nil,
                                                         to destination: DownloadRequest.Destination? = nil) -> DownloadRequest {
        let convertible = RequestEncodableConvertible(url: convertible, method: method, parameters: parameters,
                                                      encoder: encoder, headers: headers, requestModifier: requestModifier)
        return download(convertible, interceptor: interceptor, shouldAutomaticallyResume: shouldAutomaticallyResume,
                        to: destination)
    }

    /// A `DownloadRequest` for a prebuilt request.
    open func download(_ convertible: any URLRequestConvertible,
                       interceptor: (any RequestInterceptor)? = nil,
                       shouldAutomaticallyResume: Bool? = nil,
                       to destination: DownloadRequest.Destination? = nil) -> DownloadRequest {
        download(.request(convertible), interceptor: interceptor, shouldAutomaticallyResume: shouldAutomaticallyResume,
                 to: destination)
    }

    /// Continues the download `data` describes (a `DownloadRequest`'s `resumeData`): a Range
    /// request guarded by the validator the server gave; when the server sends the whole body
    /// instead, the download starts again from zero. Resume data that is not AF's fails the
    /// request with `createURLRequestFailed`.
    open func download(resumingWith data: Data,
                       interceptor: (any RequestInterceptor)? = nil,
                       shouldAutomaticallyResume: Bool? = nil,
                       to destination: DownloadRequest.Destination? = nil) -> DownloadRequest {
        download(.resumeData(data), interceptor: interceptor, shouldAutomaticallyResume: shouldAutomaticallyResume,
                 to: destination)
    }

    // MARK: Upload requests (open, as in Alamofire: a subclass may override them)

    /// Uploads `data` to `convertible` (POST by default).
    open func upload(_ data: Data, to convertible: any URLConvertible, method: HTTPMethod = .post,
                     headers: HTTPHeaders? = nil, interceptor: (any RequestInterceptor)? = nil,
                     shouldAutomaticallyResume: Bool? = nil, fileManager: FileManager = .default,
                     requestModifier: RequestModifier? = nil) -> UploadRequest {
        upload(.data(data), to: convertible, method: method, headers: headers, interceptor: interceptor,
               shouldAutomaticallyResume: shouldAutomaticallyResume, fileManager: fileManager,
               requestModifier: requestModifier)
    }

    /// Uploads `data` with a prebuilt request.
    open func upload(_ data: Data, with convertible: any URLRequestConvertible,
                     interceptor: (any RequestInterceptor)? = nil, shouldAutomaticallyResume: Bool? = nil,
                     fileManager: FileManager = .default) -> UploadRequest {
        upload(Upload(request: convertible, uploadable: UploadRequest.Uploadable.data(data)),
               interceptor: interceptor, shouldAutomaticallyResume: shouldAutomaticallyResume, fileManager: fileManager)
    }

    /// Uploads the file at `fileURL`, read as it is sent, to `convertible` (POST by default).
    open func upload(_ fileURL: URL, to convertible: any URLConvertible, method: HTTPMethod = .post,
                     headers: HTTPHeaders? = nil, interceptor: (any RequestInterceptor)? = nil,
                     shouldAutomaticallyResume: Bool? = nil, fileManager: FileManager = .default,
                     requestModifier: RequestModifier? = nil) -> UploadRequest {
        upload(.file(fileURL, shouldRemove: false), to: convertible, method: method, headers: headers,
               interceptor: interceptor, shouldAutomaticallyResume: shouldAutomaticallyResume,
               fileManager: fileManager, requestModifier: requestModifier)
    }

    /// Uploads the file at `fileURL` with a prebuilt request.
    open func upload(_ fileURL: URL, with convertible: any URLRequestConvertible,
                     interceptor: (any RequestInterceptor)? = nil, shouldAutomaticallyResume: Bool? = nil,
                     fileManager: FileManager = .default) -> UploadRequest {
        upload(Upload(request: convertible, uploadable: UploadRequest.Uploadable.file(fileURL, shouldRemove: false)),
               interceptor: interceptor, shouldAutomaticallyResume: shouldAutomaticallyResume, fileManager: fileManager)
    }

    /// Uploads what `stream` gives, read as it is sent (chunked unless a Content-Length header is
    /// set). A stream can be sent once: a 307/308 redirect fails with `requestBodyStreamExhausted`.
    open func upload(_ stream: InputStream, to convertible: any URLConvertible, method: HTTPMethod = .post,
                     headers: HTTPHeaders? = nil, interceptor: (any RequestInterceptor)? = nil,
                     fileManager: FileManager = .default, requestModifier: RequestModifier? = nil) -> UploadRequest {
        upload(.stream(stream), to: convertible, method: method, headers: headers, interceptor: interceptor,
               shouldAutomaticallyResume: nil, fileManager: fileManager, requestModifier: requestModifier)
    }

    /// Uploads what `stream` gives with a prebuilt request.
    open func upload(_ stream: InputStream, with convertible: any URLRequestConvertible,
                     interceptor: (any RequestInterceptor)? = nil, shouldAutomaticallyResume: Bool? = nil,
                     fileManager: FileManager = .default) -> UploadRequest {
        upload(Upload(request: convertible, uploadable: UploadRequest.Uploadable.stream(stream)),
               interceptor: interceptor, shouldAutomaticallyResume: shouldAutomaticallyResume, fileManager: fileManager)
    }

    /// Uploads whatever `convertible` describes.
    open func upload(_ convertible: any UploadConvertible, interceptor: (any RequestInterceptor)? = nil,
                     shouldAutomaticallyResume: Bool? = nil, fileManager: FileManager = .default) -> UploadRequest {
        let request = UploadRequest(convertible: convertible, underlyingQueue: rootQueue,
                                    serializationQueue: serializationQueue, eventMonitor: eventMonitor,
                                    interceptor: interceptor, shouldAutomaticallyResume: shouldAutomaticallyResume,
                                    fileManager: fileManager, delegate: self)
        perform(request)
        return request
    }
}
