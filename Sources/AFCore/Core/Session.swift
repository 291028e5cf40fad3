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
    /// first use, with `sessionConfiguration`.
    public var session: URLSession {
        urlSession.withLock { stored in
            if let stored { return stored }
            let made = URLSession(configuration: sessionConfiguration)
            stored = made
            return made
        }
    }

    private let urlSession = Protected<URLSession?>(nil)
    let engine: CurlEngine
    let taskConfiguration: TaskConfiguration
    let activeRequests = Protected<Set<Request>>([])

    /// Creates a session.
    public convenience init(configuration: URLSessionConfiguration = URLSessionConfiguration.af.default,
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
                            decompressionLimit: DecompressionLimit? = .default) {
        self.init(configuration: configuration, delegate: delegate, rootQueue: rootQueue,
                  startRequestsImmediately: startRequestsImmediately, requestSetup: requestSetup,
                  requestQueue: requestQueue, serializationQueue: serializationQueue,
                  interceptor: interceptor, serverTrustManager: serverTrustManager, redirectHandler: redirectHandler,
                  cachedResponseHandler: cachedResponseHandler, eventMonitors: eventMonitors,
                  httpVersionPolicy: httpVersionPolicy, decompressionLimit: decompressionLimit,
                  environment: ProcessInfo.processInfo.environment)
    }

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

    /// Creates a session reading CA and proxy settings from `environment`.
    init(configuration: URLSessionConfiguration,
         delegate: SessionDelegate = SessionDelegate(),
         rootQueue: DispatchQueue,
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
         environment: [String: String]) {
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
        self.interceptor = interceptor
        self.redirectHandler = redirectHandler
        self.cachedResponseHandler = cachedResponseHandler
        self.serverTrustManager = serverTrustManager
        eventMonitor = CompositeEventMonitor(queue: DispatchQueue(label: "\(rootQueue.label).eventMonitor",
                                                                  target: serialRootQueue),
                                             monitors: defaultEventMonitors + eventMonitors)
        var taskConfiguration = TaskConfiguration(configuration, environment: environment)
        taskConfiguration.serverTrustManager = serverTrustManager
        taskConfiguration.httpVersion = httpVersionPolicy
        taskConfiguration.decompressionLimit = decompressionLimit
        self.taskConfiguration = taskConfiguration
        let perHost = max(1, configuration.httpMaximumConnectionsPerHost)
        engine = CurlEngine(limits: .init(maximumConnectionsPerHost: perHost,
                                          maximumCachedConnections: max(128, perHost * 4)),
                            name: "org.alamofire.session.engine")
    }

    deinit {
        // Requests not started yet would otherwise wait forever for a session that is gone;
        // running ones end the same way when the engine cancels their transfers.
        for request in activeRequests.value {
            request.underlyingQueue.async { request.finish(error: .sessionDeinitialized) }
        }
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
}
