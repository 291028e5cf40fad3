import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// Internal events, called by the Session and the tasks on `underlyingQueue`.
extension Request {
    /// A `URLRequest` was made for a new attempt.
    func didCreateURLRequest(_ urlRequest: URLRequest) {
        let (requestHandler, cURLHandler) = mutableState.withLock { state in
            state.requests.append(urlRequest)
            return (state.urlRequestHandler, state.cURLHandler)
        }
        if let requestHandler {
            requestHandler.queue.async { requestHandler.handler(urlRequest) }
        }
        if let cURLHandler {
            let description = cURLDescription()
            cURLHandler.queue.async { cURLHandler.handler(description) }
        }
    }

    /// Building the `URLRequest` failed; the request ends with `error`.
    func didFailToCreateURLRequest(with error: AFError) {
        self.error = error
        retryOrFinish(error: error)
    }

    /// A task was made for the latest attempt. Returns what the session should do with it.
    func didCreateTask(_ task: SessionTask) -> TaskAction {
        let (action, handler) = mutableState.withLock { state -> (TaskAction, (queue: DispatchQueue, handler: @Sendable (SessionTask) -> Void)?) in
            state.tasks.append(task)
            let action: TaskAction = switch state.state {
            case .resumed: .resume
            case .cancelled: .cancel
            case .initialized, .suspended, .finished: .none
            }
            return (action, state.taskHandler)
        }
        if let handler { handler.queue.async { handler.handler(task) } }
        return action
    }

    /// What to do with a new task.
    enum TaskAction { case none, resume, cancel }

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
        validators.forEach { $0() }
        retryOrFinish(error: error)
    }

    /// Decides between another attempt and the end. Retry policies arrive with the hooks issue.
    func retryOrFinish(error: AFError?) {
        finish()
    }

    /// Ends the request (once) and runs its response serializers.
    func finish(error: AFError? = nil) {
        let shouldFinish = mutableState.withLock { state -> Bool in
            guard !state.hasFinished else { return false }
            state.hasFinished = true
            if let error, state.error == nil { state.error = error }
            return true
        }
        guard shouldFinish else { return }
        processNextResponseSerializer()
    }

    // MARK: Response serializers

    /// Adds a serializer; it runs now if the request already finished, and starts the request
    /// when the session starts requests immediately.
    func appendResponseSerializer(_ closure: @escaping @Sendable () -> Void) {
        let (runNow, shouldResume) = mutableState.withLock { state -> (Bool, Bool) in
            state.responseSerializers.append(closure)
            if state.state == .finished { state.state = .resumed }
            let runNow = state.responseSerializerProcessingFinished
            let shouldResume = state.state.canTransition(to: .resumed) && state.state == .initialized
            return (runNow, shouldResume)
        }
        if runNow {
            underlyingQueue.async { self.processNextResponseSerializer() }
        }
        if shouldResume {
            underlyingQueue.async {
                if self.shouldAutomaticallyResume ?? self.delegate?.startImmediately ?? false {
                    self.resume()
                }
            }
        }
    }

    /// A serializer is done; `completion` delivers its result once all serializers are done.
    func responseSerializerDidComplete(completion: @escaping @Sendable () -> Void) {
        mutableState.withLock { $0.responseSerializerCompletions.append(completion) }
        processNextResponseSerializer()
    }

    private func processNextResponseSerializer() {
        enum Step { case run(@Sendable () -> Void), complete([@Sendable () -> Void]) }
        let step = mutableState.withLock { state -> Step in
            let index = state.responseSerializerCompletions.count
            if index < state.responseSerializers.count {
                return .run(state.responseSerializers[index])
            }
            let completions = state.responseSerializerCompletions
            state.responseSerializers.removeAll()
            state.responseSerializerCompletions.removeAll()
            if state.state.canTransition(to: .finished) { state.state = .finished }
            state.responseSerializerProcessingFinished = true
            return .complete(completions)
        }
        switch step {
        case let .run(serializer):
            serializationQueue.async { serializer() }
        case let .complete(completions):
            completions.forEach { $0() }
            delegate?.cleanup(after: self)
        }
    }
}

extension Request {
    static func afError(for error: any Error, sessionIsGone: Bool) -> AFError {
        if let afError = error as? AFError { return afError }
        if sessionIsGone, (error as? URLError)?.code == .cancelled { return .sessionDeinitialized }
        return .sessionTaskFailed(error: error)
    }
}

extension Request: SessionTaskDelegate {
    func task(_ task: SessionTask, willRedirectTo request: URLRequest, response: HTTPURLResponse,
              completion: @escaping @Sendable (URLRequest?) -> Void) {
        completion(request)
    }

    func task(_ task: SessionTask, didCompleteWith result: SessionTask.Result) {
        didComplete(task: task, result: result)
    }
}
