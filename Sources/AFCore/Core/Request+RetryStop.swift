import Foundation

/// What a request ends with once its retries were stopped, made from the error of its last
/// failure.
struct RetryStop: Sendable {
    let endingError: @Sendable (_ lastFailure: AFError) -> AFError
}

/// The timer a delayed retry waits on. Dispatch sources may be used from any thread.
struct RetryTimer: @unchecked Sendable {
    let source: any DispatchSourceTimer

    func cancel() { source.cancel() }
}

extension Request {
    /// Ends the request's retries, as a service shutting down does: an attempt in flight may
    /// still finish, but no retrier is asked again; one deciding now (waiting for the network,
    /// refreshing a token), a retry waiting for its delay and an attempt waiting for
    /// connectivity (`waitsForConnectivity`) end the request at once. It then
    /// fails with `AFError.requestRetryFailed(retryError: reason, originalError:)`, the original
    /// error being its last failure. Callable from any queue; only the first call counts.
    public func stopRetrying(because reason: any Error) {
        stopRetrying(RetryStop { .requestRetryFailed(retryError: reason, originalError: $0) })
    }

    func stopRetrying(_ stop: RetryStop) {
        enum Action { case none, decide(@Sendable (AFError) -> Void, AFError), end(AFError), endWait(SessionTask) }
        let action = mutableState.withLock { state -> Action in
            guard state.retryStop == nil else { return .none }
            state.retryStop = stop
            if let decision = state.retryDecision.take() {
                return .decide(decision.stop, stop.endingError(decision.error))
            }
            if let task = state.tasks.last, task.state != .completed { return .endWait(task) }
            guard state.retryScheduled, state.state != .cancelled else { return .none }
            state.retryScheduled = false
            state.retryTimer.take()?.cancel()
            return .end(stop.endingError(state.error ?? .explicitlyCancelled))
        }
        switch action {
        case .none: break
        case let .endWait(task): task.endConnectivityWait()
        case let .decide(decide, error): decide(error)
        case let .end(error): endInsteadOfRetrying(with: error)
        }
    }

    /// The error retries were stopped with for a failure `error`, if they were.
    func retryStopError(for error: AFError) -> AFError? {
        mutableState.withLock { $0.retryStop }?.endingError(error)
    }

    /// A retrier is about to decide about `error`; `stop` ends its wait if retries are stopped
    /// or the request is cancelled meanwhile. False (and `stop` not kept) when that already happened.
    func awaitRetryDecision(dueTo error: AFError, stop: @escaping @Sendable (AFError) -> Void) -> Bool {
        mutableState.withLock { state in
            guard state.retryStop == nil, state.state != .cancelled else { return false }
            state.retryDecision = (error, stop)
            return true
        }
    }

    /// The retrier decided: a stop no longer ends its wait.
    func retryDecided() {
        mutableState.withLock { $0.retryDecision = nil }
    }

    /// What becomes of a retry a retrier decided on.
    enum ScheduledRetry {
        /// It will begin (after its delay, if any).
        case begins
        /// Retries were stopped since the retrier answered: the request ends with this instead.
        case ends(AFError)
        /// The request was cancelled since: the cancel ends it.
        case cancelled
    }

    /// A retry was decided; whether it will begin.
    func retryWasScheduled() -> ScheduledRetry {
        mutableState.withLock { state in
            if state.state == .cancelled { return .cancelled }
            if let stop = state.retryStop { return .ends(stop.endingError(state.error ?? .explicitlyCancelled)) }
            state.retryScheduled = true
            return .begins
        }
    }

    /// Keeps the timer of the retry just scheduled, so that a cancel or a stop can cancel it;
    /// false when the retry will not begin anyway (then the caller cancels the timer).
    func holdRetryTimer(_ timer: RetryTimer) -> Bool {
        mutableState.withLock { state in
            guard state.retryScheduled, state.state != .cancelled else { return false }
            state.retryTimer = timer
            return true
        }
    }

    /// A scheduled retry that will not begin: on the request's queue, a serializer waiting on it
    /// delivers what it had, otherwise the request finishes with `error`.
    func endInsteadOfRetrying(with error: AFError) {
        underlyingQueue.async {
            let delivery = self.mutableState.withLock { $0.serializerAwaitingRetry.take() }
            if let delivery {
                self.responseSerializerDidComplete(completion: delivery)
            } else {
                self.finish(error: error)
            }
        }
    }
}
