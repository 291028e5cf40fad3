import Foundation

extension Request {
    /// Gives the request a deadline `interval` seconds from now, across its retries: an AF
    /// addition (a `URLRequest`'s `timeoutInterval` bounds each attempt's idle time only). When
    /// it passes, the attempt in flight is cancelled, a retrier still deciding (waiting for the
    /// network, say) or a retry waiting for its delay is not waited for, and no other attempt
    /// begins: the request fails with `AFError.sessionTaskFailed` over `URLError.timedOut`, whose
    /// `isCausedByDeadline` is true. Only the first call counts.
    @discardableResult
    public func deadline(after interval: TimeInterval) -> Self {
        let isFirst = mutableState.withLock { state -> Bool in
            guard !state.hasDeadline else { return false }
            state.hasDeadline = true
            return true
        }
        guard isFirst else { return self }
        underlyingQueue.asyncAfter(deadline: .now() + max(0, interval)) { [weak self] in self?.deadlinePassed() }
        return self
    }

    /// The deadline passed: ends the attempt in flight and every retry to come.
    private func deadlinePassed() {
        let error = AFError.sessionTaskFailed(error: URLError.deadlineExceeded)
        let task = mutableState.withLock { state -> SessionTask? in
            guard state.state != .finished, state.state != .cancelled else { return nil }
            state.deadlinePassed = true
            guard let task = state.tasks.last, task.state != .completed else { return nil }
            state.error = error
            return task
        }
        stopRetrying(RetryStop { _ in error })
        task?.cancel()
    }

    /// Whether the deadline passed: a task made now is cancelled, ending the request with the
    /// deadline's error. Called with the task's append, under the request's lock.
    static func cancelsNewTask(_ state: inout MutableState) -> Bool {
        guard state.deadlinePassed else { return false }
        state.error = AFError.sessionTaskFailed(error: URLError.deadlineExceeded)
        return true
    }
}
