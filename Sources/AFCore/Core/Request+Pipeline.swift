import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// A request's attempts, on `underlyingQueue`: called by the Session and by the tasks.
extension Request {
    /// The session that runs the request, if it still exists.
    var session: Session? { delegate as? Session }

    /// Sends `event` to the session's monitors and to this request's own. `notifies`: the event
    /// is one that `AlamofireNotifications` posts.
    func emit(notifies: Bool = false, _ event: @escaping @Sendable (any EventMonitor) -> Void) {
        if let composite = sessionMonitors {
            if notifies { composite.performNotifiedEvent(event) } else { composite.performEvent(event) }
        } else if let eventMonitor {
            eventMonitor.queue.async { event(eventMonitor) }
        }
        for monitor in mutableState.withLock({ $0.eventMonitors }) {
            monitor.queue.async { event(monitor) }
        }
    }

    /// Sends an engine event to the session's monitors (request monitors get request events only).
    func emitSessionEvent(_ event: @escaping @Sendable (any EventMonitor, Session) -> Void) {
        guard let session else { return }
        session.eventMonitor.performEvent { event($0, session) }
    }

    // MARK: Setup

    /// The URLRequest of a new attempt was built.
    func didCreateInitialURLRequest(_ urlRequest: URLRequest) {
        mutableState.withLock { $0.requests.append(urlRequest) }
        emit { $0.request(self, didCreateInitialURLRequest: urlRequest) }
    }

    /// Building the URLRequest failed.
    func didFailToCreateURLRequest(with error: AFError) {
        self.error = error
        emit { $0.request(self, didFailToCreateURLRequestWithError: error) }
        callCURLHandler()
        retryOrFinish(error: error)
    }

    /// The adapters turned `initialRequest` into `adaptedRequest`.
    func didAdaptInitialRequest(_ initialRequest: URLRequest, to adaptedRequest: URLRequest) {
        mutableState.withLock { $0.requests.append(adaptedRequest) }
        emit { $0.request(self, didAdaptInitialRequest: initialRequest, to: adaptedRequest) }
    }

    /// An adapter failed.
    func didFailToAdaptURLRequest(_ initialRequest: URLRequest, withError error: AFError) {
        self.error = error
        emit { $0.request(self, didFailToAdaptURLRequest: initialRequest, withError: error) }
        callCURLHandler()
        retryOrFinish(error: error)
    }

    /// The URLRequest of the attempt is final.
    func didCreateURLRequest(_ urlRequest: URLRequest) {
        let handler = mutableState.withLock { $0.urlRequestHandler }
        if let handler {
            handler.queue.async { handler.handler(urlRequest) }
        }
        emit { $0.request(self, didCreateURLRequest: urlRequest) }
        callCURLHandler()
    }

    private func callCURLHandler() {
        guard let handler = mutableState.withLock({ $0.cURLHandler }) else { return }
        let description = cURLDescription()
        handler.queue.async { handler.handler(description) }
    }

    /// A task was made for the attempt: start, hold or cancel it as the request's state says.
    func didCreateTask(_ task: SessionTask) {
        let (state, handler) = mutableState.withLock { state in
            state.tasks.append(task)
            return (state.state, state.taskHandler)
        }
        if let handler { handler.queue.async { handler.handler(task) } }
        emit { $0.request(self, didCreateTask: task) }
        switch state {
        case .resumed:
            // Emitted first: once resumed, the engine may report the response to the same
            // monitors from its own thread.
            emit(notifies: true) { $0.request(self, didResumeTask: task) }
            task.resume()
        case .cancelled:
            task.cancel()
            emit(notifies: true) { $0.request(self, didCancelTask: task) }
        case .initialized, .suspended, .finished:
            break
        }
    }

    // MARK: Completion and retry

    /// The task of the latest attempt ended: keep its outcome, validate, then retry or finish.
    func didComplete(task: SessionTask, result: SessionTask.Result) {
        store(result)
        let validators = mutableState.withLock { state in
            state.response = result.response
            state.metrics.append(result.metrics)
            if let error = result.error, state.error == nil {
                state.error = Self.afError(for: error, sessionIsGone: delegate == nil)
            }
            return state.validators
        }
        emitSessionEvent { $0.session($1, task: task, didFinishCollecting: result.metrics) }
        emitSessionEvent { $0.session($1, task: task, didCompleteWithError: result.error) }
        emit { $0.request(self, didGatherMetrics: result.metrics) }
        validators.forEach { $0() }
        let error = error
        emit(notifies: true) { $0.request(self, didCompleteTask: task, with: error) }
        retryOrFinish(error: error)
    }

    /// Asks the retriers about a failed attempt, unless the request was cancelled; finishes
    /// when there is no error or no retry.
    func retryOrFinish(error: AFError?) {
        guard !isCancelled, let error, let delegate else { return finish() }
        delegate.retryResult(for: self, dueTo: error) { result in
            switch result {
            case .doNotRetry:
                self.finish()
            case let .doNotRetryWithError(retryError):
                self.finish(error: retryError.asAFError(or: .requestRetryFailed(retryError: retryError, originalError: error)))
            case .retry, .retryWithDelay:
                delegate.retryRequest(self, withDelay: result.delay)
            }
        }
    }

    /// Resets the request for another attempt.
    func prepareForRetry() {
        mutableState.withLock { state in
            state.retryCount += 1
            state.error = nil
            state.hasFinished = false
            state.responseSerializerCompletions.removeAll()
            state.responseSerializerProcessingFinished = false
        }
        emit { $0.requestIsRetrying(self) }
    }

    /// Ends the request (once per attempt) with `error` if given, and runs its serializers.
    func finish(error: AFError? = nil) {
        let shouldFinish = mutableState.withLock { state -> Bool in
            guard !state.hasFinished else { return false }
            state.hasFinished = true
            if let error { state.error = error }
            return true
        }
        guard shouldFinish else { return }
        // Emitted first: the default serialization queue runs the serializers at once, and
        // monitors see the request finish before its responses are parsed (as with Alamofire).
        emit(notifies: true) { $0.requestDidFinish(self) }
        processNextResponseSerializer()
    }
}

extension Request {
    static func afError(for error: any Error, sessionIsGone: Bool) -> AFError {
        if let afError = error as? AFError { return afError }
        if sessionIsGone, (error as? URLError)?.code == .cancelled { return .sessionDeinitialized }
        return .sessionTaskFailed(error: error)
    }
}

