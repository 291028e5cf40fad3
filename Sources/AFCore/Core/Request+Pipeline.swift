import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// A request's attempts, on `underlyingQueue`: called by the Session and by the tasks.
extension Request {
    /// The session that runs the request, if it still exists.
    var session: Session? { delegate as? Session }

    /// Sends `event` to the session's monitors and to this request's own. `notifying`: the
    /// notification `AlamofireNotifications` posts for the event; `kind`: which event it is
    /// (see `MonitoredEvent`). The event's closure is made only once some monitor may take it
    /// (`event` is evaluated then): an event nobody hears costs no allocation.
    @inline(__always)
    func emit(notifying name: Notification.Name? = nil, _ kind: MonitoredEvent,
              _ event: @autoclosure () -> MonitorMailbox.Deliver) {
        let toOwnMonitors = ownMonitorsAdded.load(ordering: .acquiring)
        if toOwnMonitors || (sessionIsObserved && sessionMonitors?.mayTake(kind) == true) {
            send(notifying: name, kind, toOwnMonitors: toOwnMonitors, event())
        } else if let name, sessionNotifies {
            sessionMonitors?.postNotification(name, of: self, now: ownsQueue)
        }
    }

    private func send(notifying name: Notification.Name?, _ kind: MonitoredEvent, toOwnMonitors: Bool,
                      _ event: @escaping MonitorMailbox.Deliver) {
        if let composite = sessionMonitors {
            composite.offerEvent(kind, event)
            if let name { composite.postNotification(name, of: self, now: ownsQueue) }
        }
        guard toOwnMonitors else { return }
        for monitor in mutableState.withLock({ $0.eventMonitors }) {
            monitor.queue.async {
                if !Optional(kind).isSkipped(by: MonitoredEvent.closures(of: monitor)) { event(monitor) }
            }
        }
    }

    /// Sends an engine event about `task` to the session's monitors (request monitors get
    /// request events only). The event's closure, the `URLSession` and the `URLSessionTask` are
    /// made only if a monitor takes the event (`kind`: see `MonitoredEvent`).
    @inline(__always)
    func emitSessionEvent(_ task: SessionTask, _ kind: MonitoredEvent,
                          _ event: @autoclosure () -> @Sendable (any EventMonitor, URLSession, URLSessionTask) -> Void) {
        if sessionIsObserved, sessionMonitors?.mayTake(kind) == true { sendSessionEvent(task, kind, event()) }
    }

    private func sendSessionEvent(_ task: SessionTask, _ kind: MonitoredEvent,
                                  _ event: @escaping @Sendable (any EventMonitor, URLSession, URLSessionTask) -> Void) {
        guard let session else { return }
        session.eventMonitor.offerEvent(kind) { monitor in
            event(monitor, session.session, self.urlSessionTask(for: task))
        }
    }

    // MARK: Setup

    /// The URLRequest of a new attempt was built.
    func didCreateInitialURLRequest(_ urlRequest: URLRequest) {
        mutableState.withLock { $0.requests.append(urlRequest) }
        emit(.requestDidCreateInitialURLRequest) { $0.request(self, didCreateInitialURLRequest: urlRequest) }
    }

    /// Building the URLRequest failed.
    func didFailToCreateURLRequest(with error: AFError) {
        self.error = error
        emit(.requestDidFailToCreateURLRequestWithError) { $0.request(self, didFailToCreateURLRequestWithError: error) }
        callCURLHandler()
        retryOrFinish(error: error)
    }

    /// The adapters turned `initialRequest` into `adaptedRequest`.
    func didAdaptInitialRequest(_ initialRequest: URLRequest, to adaptedRequest: URLRequest) {
        mutableState.withLock { $0.requests.append(adaptedRequest) }
        emit(.requestDidAdaptInitialRequestToAdaptedRequest) {
            $0.request(self, didAdaptInitialRequest: initialRequest, to: adaptedRequest)
        }
    }

    /// An adapter failed.
    func didFailToAdaptURLRequest(_ initialRequest: URLRequest, withError error: AFError) {
        self.error = error
        emit(.requestDidFailToAdaptURLRequestWithError) {
            $0.request(self, didFailToAdaptURLRequest: initialRequest, withError: error)
        }
        callCURLHandler()
        retryOrFinish(error: error)
    }

    /// The URLRequest of the attempt is final.
    func didCreateURLRequest(_ urlRequest: URLRequest) {
        let handler = mutableState.withLock { $0.urlRequestHandler }
        if let handler {
            callEventHandler(on: handler.queue) { handler.handler(urlRequest) }
        }
        emit(.requestDidCreateURLRequest) { $0.request(self, didCreateURLRequest: urlRequest) }
        callCURLHandler()
    }

    private func callCURLHandler() {
        guard let handler = mutableState.withLock({ $0.cURLHandler }) else { return }
        let description = cURLDescription()
        callEventHandler(on: handler.queue) { handler.handler(description) }
    }

    /// A task was made for the attempt: start, hold or cancel it as the request's state says.
    func didCreateTask(_ task: SessionTask) {
        let (state, handler, pastDeadline) = mutableState.withLock { state in
            state.tasks.append(task)
            return (state.state, state.taskHandler, Self.cancelsNewTask(&state))
        }
        if let handler {
            let urlSessionTask = urlSessionTask(for: task)
            callEventHandler(on: handler.queue) { handler.handler(urlSessionTask) }
        }
        emit(.requestDidCreateTask) { $0.request(self, didCreateTask: self.urlSessionTask(for: task)) }
        if pastDeadline { return task.cancel() }
        switch state {
        case .resumed:
            // Emitted first: once resumed, the engine may report the response to the same
            // monitors from its own thread. The state was read with the task's append, on
            // underlyingQueue: a suspend since queues its `applyState` behind this.
            emit(notifying: Request.didResumeTaskNotification, .requestDidResumeTask) {
                $0.request(self, didResumeTask: self.urlSessionTask(for: task))
            }
            task.resume()
        case .cancelled:
            task.cancel()
            emit(notifying: Request.didCancelTaskNotification, .requestDidCancelTask) {
                $0.request(self, didCancelTask: self.urlSessionTask(for: task))
            }
        case .suspended:
            // Suspended before it had a task (whose suspend found none to tell of): the task is
            // made suspended, and monitors hear it, once, as with Alamofire.
            emit(notifying: Request.didSuspendTaskNotification, .requestDidSuspendTask) {
                $0.request(self, didSuspendTask: self.urlSessionTask(for: task))
            }
        case .initialized, .finished:
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
            if let error = result.error, !state.$error {
                state.error = Self.afError(for: error, sessionIsGone: delegate == nil)
            }
            return state.validators
        }
        emitSessionEvent(task, .taskDidFinishCollectingMetrics) { $0.urlSession($1, task: $2, didFinishCollecting: result.metrics) }
        emitSessionEvent(task, .taskDidComplete) { $0.urlSession($1, task: $2, didCompleteWithError: result.error) }
        emit(.requestDidGatherMetrics) { $0.request(self, didGatherMetrics: result.metrics) }
        validators.runAll()
        // Asked as a flag first: a request that succeeded passes no `AFError?` along (an
        // address-only enum: even an absent one is copied through its value witnesses).
        guard mutableState.withLock({ $0.$error }) else {
            emit(notifying: Request.didCompleteTaskNotification, .requestDidCompleteTaskWithError) {
                $0.request(self, didCompleteTask: self.urlSessionTask(for: task), with: nil)
            }
            return finish()
        }
        let error = error
        emit(notifying: Request.didCompleteTaskNotification, .requestDidCompleteTaskWithError) {
            $0.request(self, didCompleteTask: self.urlSessionTask(for: task), with: error)
        }
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

    /// Resets the request for another attempt; false (nothing changed) when it was cancelled,
    /// which then ends it, or its retries were stopped, which ends it here or already did.
    func prepareForRetry() -> Bool {
        enum Outcome { case retry, none, end(AFError) }
        let outcome = mutableState.withLock { state -> Outcome in
            guard state.state != .cancelled else { return .none }
            guard state.retryScheduled else { return .none }  // ended by a stop of its retries
            state.retryScheduled = false
            state.retryTimer = nil  // it fired
            if let stop = state.retryStop { return .end(stop.endingError(state.error ?? .explicitlyCancelled)) }
            state.retryCount += 1
            state.error = nil
            state.hasFinished = false
            state.responseSerializerCompletions.removeAll()
            state.responseSerializerProcessingFinished = false
            state.serializerAwaitingRetry = nil
            return .retry
        }
        switch outcome {
        case .retry:
            emit(.requestIsRetrying) { $0.requestIsRetrying(self) }
            return true
        case .none:
            return false
        case let .end(error):
            endInsteadOfRetrying(with: error)
            return false
        }
    }

    /// Ends the request (once per attempt) with `error` if given, and runs its serializers.
    func finish(error: AFError? = nil) {
        let (shouldFinish, lastTask) = mutableState.withLock { state -> (Bool, SessionTask?) in
            guard !state.hasFinished else { return (false, nil) }
            state.hasFinished = true
            if let error { state.error = error }
            return (true, state.tasks.last)
        }
        guard shouldFinish else { return }
        willFinish()
        // Its task holds the request until it reports its end; one that never will (the session
        // went away before it ran) lets go of it now. Earlier attempts' tasks have ended.
        lastTask?.detachDelegate()
        // With serializers waiting, emitted first: the default serialization queue runs them at
        // once, and monitors see the request finish before its responses are parsed (as with
        // Alamofire). With none, emitted once the request is done, as Alamofire does: a monitor
        // or observer told it finished finds its state `.finished`.
        let finishesFirst = mutableState.withLock { $0.responseSerializers.isEmpty }
        if finishesFirst { processNextResponseSerializer() }
        emit(notifying: Request.didFinishNotification, .requestDidFinish) { $0.requestDidFinish(self) }
        if !finishesFirst { processNextResponseSerializer() }
    }
}

extension Request {
    static func afError(for error: any Error, sessionIsGone: Bool) -> AFError {
        if let afError = error as? AFError { return afError }
        if sessionIsGone, (error as? URLError)?.code == .cancelled { return .sessionDeinitialized }
        return .sessionTaskFailed(error: error)
    }
}

