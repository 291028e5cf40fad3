/// Back-pressure between a transfer that streams its body and the code consuming it: once
/// `limit` bytes are delivered and not yet consumed, the transfer pauses itself (curl keeps the
/// chunk and offers it again); it goes on when consumption brings the backlog to half the limit.
final class StreamFlowControl: Sendable {
    private struct State {
        var outstanding = 0
        var pausedItself = false
        var largestBacklog = 0
        var wake: (@Sendable () -> Void)?
        var onPause: (@Sendable () -> Void)?
    }

    /// Bytes delivered and not yet consumed beyond which the transfer pauses.
    let limit: Int
    private let state = Protected(State())

    init(limit: Int = 1 << 20) {
        self.limit = limit
    }

    /// Called when a self-paused transfer may go on (set by the task that owns the transfer).
    func onWake(_ wake: @escaping @Sendable () -> Void) {
        state.withLock { $0.wake = wake }
    }

    /// Called (engine thread) each time the transfer pauses itself; for tests and benchmarks.
    func onPause(_ observer: @escaping @Sendable () -> Void) {
        state.withLock { $0.onPause = observer }
    }

    /// Engine thread: whether a chunk of `count` bytes may be delivered now. When not, the
    /// caller pauses the transfer.
    func admit(_ count: Int) -> Bool {
        let (admitted, observer) = state.withLock { state -> (Bool, (@Sendable () -> Void)?) in
            guard state.outstanding < limit else {
                let firstPause = !state.pausedItself
                state.pausedItself = true
                return (false, firstPause ? state.onPause : nil)
            }
            state.outstanding += count
            state.largestBacklog = max(state.largestBacklog, state.outstanding)
            return (true, nil)
        }
        observer?()
        return admitted
    }

    /// `count` delivered bytes were consumed; wakes a self-paused transfer once the backlog is
    /// down to half the limit.
    func consume(_ count: Int) {
        let wake = state.withLock { state -> (@Sendable () -> Void)? in
            state.outstanding -= count
            guard state.pausedItself, state.outstanding <= limit / 2 else { return nil }
            state.pausedItself = false
            return state.wake
        }
        wake?()
    }

    /// The largest backlog seen, in bytes (for tests and benchmarks).
    var largestBacklog: Int { state.withLock { $0.largestBacklog } }
}
