import Foundation

/// How far a Session's shutdown went.
struct ShutdownState {
    var requested = false
    var finished = false
    var waiters: [CheckedContinuation<Void, Never>] = []
}

extension Session {
    /// Ends the Session for good, as a daemon does on its way out: requests made from now on fail
    /// with `AFError.sessionInvalidated(error: nil)`, the active ones are cancelled, and when every
    /// one has finished the engine's thread and connections end. Returns then; calling it again
    /// waits for the same end. To let requests finish first, stop making them and wait (or use
    /// the AFServiceLifecycle plugin).
    public func shutdown() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let done = shutdownState.withLock { state -> Bool in
                state.requested = true
                guard !state.finished else { return true }
                state.waiters.append(continuation)
                return false
            }
            if done { return continuation.resume() }
            // Behind every registration (made at once, or for eager setup queued on rootQueue
            // before this): none is missed. With none active, no request's cleanup will end the
            // shutdown: this does.
            cancelAllRequests(completingOnQueue: rootQueue) {
                if self.activeRequests.value.isEmpty { self.finishShutdownIfRequested() }
            }
        }
    }

    /// Once shutdown was asked for and no request is left: ends the engine and the waiters.
    func finishShutdownIfRequested() {
        let waiters = shutdownState.withLock { state -> [CheckedContinuation<Void, Never>]? in
            guard state.requested, !state.finished else { return nil }
            state.finished = true
            defer { state.waiters = [] }
            return state.waiters
        }
        guard let waiters else { return }
        // Resumed once the engine's thread has closed the connections and let go of curl: a
        // daemon that exits next does not exit under it.
        engine.shutdown { waiters.forEach { $0.resume() } }
    }
}
