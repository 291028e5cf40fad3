import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// A request's way through the session, on its `underlyingQueue` (the session's `rootQueue`, or
// one of its own: see `Session.queues(forRequestWith:)`): build the URLRequest (on `requestQueue`),
// check it, adapt it (Session's adapters, then the request's), make the task; and, when an
// attempt fails, ask the retriers and run the request again.
extension Session {
    /// Registers `request` and, for eager setup, builds its task now. A lazy session registers
    /// it at once, on the caller's thread: nothing of the registration needs `rootQueue`, and
    /// the request's first `resume()` then makes the only trip there. Queued instead, the
    /// registration raced the caller's next line: when it ran before the first response handler
    /// was added, that handler's resume made a second trip.
    func perform(_ request: Request) {
        guard requestSetup == .eager else { register(request); return }
        rootQueue.async(recording: request.handOffs) {
            if self.register(request) { self.setUp(request) }
        }
    }

    /// Admits `request` (see `admit(_:)`) unless it was cancelled; one the shutdown refused
    /// fails. True when added.
    @discardableResult
    private func register(_ request: Request) -> Bool {
        defer { request.didRegister() }
        guard !request.isCancelled else { return false }
        let admitted = admit(request)
        if !admitted { request.underlyingQueue.async { request.finish(error: .sessionInvalidated(error: nil)) } }
        return admitted
    }

    /// Adds `request` to the active ones unless the session shut down; false then. The shutdown
    /// check and the insertion are one step, so a shutdown either refuses the request or finds it
    /// among those it cancels.
    private func admit(_ request: Request) -> Bool {
        shutdownState.withLock { state in
            if !state.requested { activeRequests.withLock { $0.insert(request) } }
            return !state.requested
        }
    }

    /// Starts the first attempt, once; never after `shutdown()` (such a request was refused or
    /// cancelled, and finishes that way).
    func setUp(_ request: Request) {
        guard !shutdownState.withLock({ $0.requested }) else { return }
        let claimed = request.mutableState.withLock { state -> Bool in
            guard !state.setupStarted else { return false }
            state.setupStarted = true
            return true
        }
        if claimed { build(request) }
    }

    /// Builds the attempt's URLRequest on `requestQueue` (at once when it is the default one).
    private func build(_ request: Request) {
        (request.ownsQueue ? request.underlyingQueue : requestQueue).runBehindOrAsync(recording: request.handOffs) {
            // The URLRequest first, as Alamofire: making it may add to the body (a multipart
            // form filled by its URLRequestConvertible).
            let result = Result { try request.makeURLRequest() }
            let bodyStep = if case .success = result { request.prepareBody() } else { nil as Request.BodyStep? }
            request.underlyingQueue.runOrAsync(recording: request.handOffs) {
                if let bodyStep, !bodyStep() { return }
                self.didBuild(result, for: request)
            }
        }
    }

    private func didBuild(_ result: Result<URLRequest, any Error>, for request: Request) {
        let initialRequest: URLRequest
        do {
            initialRequest = try result.get()
            try initialRequest.validate()
        } catch {
            request.didFailToCreateURLRequest(with: error.asAFError(or: .createURLRequestFailed(error: error)))
            return
        }
        request.didCreateInitialURLRequest(initialRequest)
        guard !request.isCancelled else { return }
        guard let adapter = adapter(for: request) else {
            return createTask(for: initialRequest, request: request)
        }
        let state = RequestAdapterState(requestID: request.id, session: self)
        let adapted = CalledOnce<Result<URLRequest, any Error>> { result in
            let adapted = Result {
                let urlRequest = try result.get()
                try urlRequest.validate()
                return urlRequest
            }
            request.underlyingQueue.async(recording: request.handOffs) {
                switch adapted {
                case let .success(urlRequest):
                    request.didAdaptInitialRequest(initialRequest, to: urlRequest)
                    self.createTask(for: urlRequest, request: request)
                case let .failure(error):
                    request.didFailToAdaptURLRequest(initialRequest, withError: .requestAdaptationFailed(error: error))
                }
            }
        }
        adapter.adapt(initialRequest, using: state) { adapted($0) }
    }

    private func createTask(for urlRequest: URLRequest, request: Request) {
        request.didCreateURLRequest(urlRequest)
        guard !request.isCancelled else { return }
        request.didCreateTask(request.makeSessionTask(for: urlRequest, in: self))
    }

    /// The engine task of `request`'s attempt at `urlRequest`, with what its kind adds (see
    /// `Request.makeSessionTask`). Without a body of the request's own, a URLRequest's body
    /// stream is sent, as URLSession sends it.
    func makeSessionTask(for urlRequest: URLRequest, by request: Request, upload: TransferUpload? = nil,
                         download: DownloadTarget? = nil, bodyStream: StreamFlowControl? = nil) -> SessionTask {
        SessionTask(request: urlRequest, engine: engine, configuration: taskConfiguration,
                    queue: request.underlyingQueue, delegate: request,
                    credential: request.credential.flatMap(HTTPCredential.init) ?? taskConfiguration.storedCredential(for: urlRequest),
                    upload: upload ?? urlRequest.httpBodyStream.map(TransferUpload.stream),
                    download: download, bodyStream: bodyStream, handOffs: request.handOffs)
    }

    /// The Session's adapter, then the request's, as one; nil when there is none.
    func adapter(for request: Request) -> (any RequestAdapter)? {
        let added = request.mutableState.withLock { $0.adapters }
        // None (the usual case) or one source: no list to build. Each source is tested once,
        // and only the one returned is copied (`??` copied both into its operands).
        if added.isEmpty {
            switch (interceptor == nil, request.interceptor == nil) {
            case (true, true): return nil
            case (true, false): return request.interceptor
            case (false, true): return interceptor
            case (false, false): break
            }
        }
        let adapters = [interceptor as (any RequestAdapter)?, request.interceptor].compactMap { $0 } + added
        return adapters.count > 1 ? Interceptor(adapters: adapters) : adapters.first
    }

    /// The Session's retrier, then the request's, as one; nil when there is none.
    func retrier(for request: Request) -> (any RequestRetrier)? {
        let retriers = [interceptor as (any RequestRetrier)?, request.interceptor].compactMap { $0 }
            + request.mutableState.withLock { $0.retriers }
        return retriers.count > 1 ? Interceptor(retriers: retriers) : retriers.first
    }
}

extension Session: RequestDelegate {
    public var startImmediately: Bool { startRequestsImmediately }

    public func readyToPerform(request: Request) {
        request.underlyingQueue.runOrAsync(recording: request.handOffs) { self.setUp(request) }
    }

    public func cleanup(after request: Request) {
        let idle = activeRequests.withLock { requests in
            requests.remove(request)
            return requests.isEmpty
        }
        if idle { finishShutdownIfRequested() }
    }

    public func retryResult(for request: Request, dueTo error: AFError,
                            completion: @escaping @Sendable (RetryResult) -> Void) {
        if let stopped = request.retryStopError(for: error) {
            return request.underlyingQueue.async(recording: request.handOffs) { completion(.doNotRetryWithError(stopped)) }
        }
        guard let retrier = retrier(for: request) else {
            return request.underlyingQueue.async(recording: request.handOffs) { completion(.doNotRetry) }
        }
        // Either the retrier's answer or a stop of the request's retries (its deadline, a
        // shutdown) ends the wait, whichever comes first.
        enum Decision { case answered(RetryResult), stopped(AFError) }
        let decided = CalledOnce<Decision> { decision in
            request.underlyingQueue.async(recording: request.handOffs) {
                switch decision {
                case let .stopped(stopError):
                    completion(.doNotRetryWithError(stopError))
                case let .answered(result):
                    guard let retryError = result.error else { return completion(result) }
                    completion(.doNotRetryWithError(AFError.requestRetryFailed(retryError: retryError, originalError: error)))
                }
            }
        }
        guard request.awaitRetryDecision(dueTo: error, stop: { decided(.stopped($0)) }) else {
            return decided(.stopped(request.retryStopError(for: error) ?? error))
        }
        retrier.retry(request, for: self, dueTo: error) { result in
            request.retryDecided()
            decided(.answered(result))
        }
    }

    public func retryRequest(_ request: Request, withDelay timeDelay: TimeInterval?) {
        // Checked on the request's queue, where a cancel or a stop coming after this ends the
        // request behind it (and takes it from the active requests again).
        switch request.retryWasScheduled() {
        case .cancelled:
            return
        case let .ends(stopped):
            return request.endInsteadOfRetrying(with: stopped)
        case .begins:
            // Among the active requests again (a serializer added after the request ended may
            // retry it), so that a shutdown cancels the retry; after a shutdown, it does not begin.
            guard admit(request) else { return request.endInsteadOfRetrying(with: .sessionInvalidated(error: nil)) }
        }
        // Weak: the session's active requests hold it until it ends, and a retry its stop ended
        // (see `Request.stopRetrying`) must not keep it for the rest of the delay.
        let retry: @Sendable () -> Void = { [weak request] in
            guard let request, request.prepareForRetry() else { return }
            self.build(request)
        }
        request.handOffs.record()
        if let timeDelay, timeDelay > 0 {
            // A timer the request can cancel: a retry that will not begin lets go of its Session
            // at once (a Session that shut down can then be released).
            let timer = DispatchSource.makeTimerSource(queue: request.underlyingQueue)
            timer.setEventHandler {
                timer.cancel()  // one shot: cancelling releases this handler
                retry()
            }
            timer.schedule(deadline: .now() + timeDelay)
            // Activated even when cancelled at once: a source never activated keeps its handler,
            // and with it this Session, for good.
            if !request.holdRetryTimer(RetryTimer(source: timer)) { timer.cancel() }
            timer.activate()
        } else {
            request.underlyingQueue.async(execute: retry)
        }
    }
}

extension HTTPCredential {
    /// The user and password of `credential`, when it has both.
    init?(_ credential: URLCredential) {
        guard let user = credential.user, let password = credential.password else { return nil }
        self.init(user: user, password: password)
    }
}
