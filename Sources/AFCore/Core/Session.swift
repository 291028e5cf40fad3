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

    let engine: CurlEngine
    let taskConfiguration: TaskConfiguration
    let activeRequests = Protected<Set<Request>>([])

    /// Creates a session.
    public convenience init(configuration: URLSessionConfiguration = URLSessionConfiguration.af.default,
                            rootQueue: DispatchQueue = DispatchQueue(label: "org.alamofire.session.rootQueue"),
                            startRequestsImmediately: Bool = true,
                            requestSetup: RequestSetup = .lazy,
                            requestQueue: DispatchQueue? = nil,
                            serializationQueue: DispatchQueue? = nil) {
        self.init(configuration: configuration, rootQueue: rootQueue,
                  startRequestsImmediately: startRequestsImmediately, requestSetup: requestSetup,
                  requestQueue: requestQueue, serializationQueue: serializationQueue,
                  environment: ProcessInfo.processInfo.environment)
    }

    /// Creates a session reading CA and proxy settings from `environment`.
    init(configuration: URLSessionConfiguration,
         rootQueue: DispatchQueue,
         startRequestsImmediately: Bool,
         requestSetup: RequestSetup,
         requestQueue: DispatchQueue?,
         serializationQueue: DispatchQueue?,
         environment: [String: String]) {
        let serialRootQueue = rootQueue === DispatchQueue.main
            ? rootQueue
            : DispatchQueue(label: rootQueue.label, target: rootQueue)
        self.sessionConfiguration = configuration.copy() as? URLSessionConfiguration ?? configuration
        self.rootQueue = serialRootQueue
        self.startRequestsImmediately = startRequestsImmediately
        self.requestSetup = requestSetup
        self.requestQueue = requestQueue ?? DispatchQueue(label: "\(rootQueue.label).requestQueue", target: serialRootQueue)
        self.serializationQueue = serializationQueue
            ?? DispatchQueue(label: "\(rootQueue.label).serializationQueue", target: serialRootQueue)
        taskConfiguration = TaskConfiguration(configuration, environment: environment)
        let perHost = max(1, configuration.httpMaximumConnectionsPerHost)
        engine = CurlEngine(limits: .init(maximumConnectionsPerHost: perHost,
                                          maximumCachedConnections: max(128, perHost * 4)),
                            name: "org.alamofire.session.engine")
    }

    deinit {
        engine.shutdown()
    }

    /// Calls `action` on `rootQueue` with the requests that have not finished.
    public func withAllRequests(perform action: @escaping @Sendable (Set<Request>) -> Void) {
        rootQueue.async { action(self.activeRequests.value) }
    }

    /// Cancels every active request, then calls `completion` on `queue`.
    public func cancelAllRequests(completingOnQueue queue: DispatchQueue = .main,
                                  completion: (@Sendable () -> Void)? = nil) {
        withAllRequests { requests in
            requests.forEach { $0.cancel() }
            queue.async { completion?() }
        }
    }

    // MARK: Pipeline

    /// Registers `request` and, for eager setup, builds its task now.
    func perform(_ request: Request) {
        rootQueue.async {
            guard !request.isCancelled else { return }
            self.activeRequests.withLock { _ = $0.insert(request) }
            if self.requestSetup == .eager { self.setUp(request) }
        }
    }

    private func setUp(_ request: Request) {
        let claimed = request.mutableState.withLock { state -> Bool in
            guard !state.setupStarted else { return false }
            state.setupStarted = true
            return true
        }
        guard claimed else { return }
        requestQueue.async {
            let result = Result { try request.makeURLRequest() }
            self.rootQueue.async { self.didBuild(result, for: request) }
        }
    }

    private func didBuild(_ result: Result<URLRequest, any Error>, for request: Request) {
        let urlRequest: URLRequest
        do {
            urlRequest = try result.get()
            try urlRequest.validate()
        } catch {
            request.didFailToCreateURLRequest(with: error.asAFError(or: .createURLRequestFailed(error: error)))
            return
        }
        request.didCreateURLRequest(urlRequest)
        guard !request.isCancelled else { return }
        let task = SessionTask(request: urlRequest, engine: engine, configuration: taskConfiguration,
                               queue: request.underlyingQueue, delegate: request)
        switch request.didCreateTask(task) {
        case .resume: task.resume()
        case .cancel: task.cancel()
        case .none: break
        }
    }
}

extension Session: RequestDelegate {
    public var startImmediately: Bool { startRequestsImmediately }

    public func readyToPerform(request: Request) {
        rootQueue.async { self.setUp(request) }
    }

    public func cleanup(after request: Request) {
        activeRequests.withLock { _ = $0.remove(request) }
    }
}
