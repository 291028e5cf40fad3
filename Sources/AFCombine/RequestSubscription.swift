import AFCore
import Foundation
import OpenCombine

/// The subscription every AF publisher hands out: on the first demand it adds its response (or
/// stream) handler to the request, which starts it as any handler would; each output goes
/// downstream, the last one with completion. Cancelling it cancels the request.
final class RequestSubscription<Output: Sendable>: Subscription, @unchecked Sendable {
    /// Adds the handler; it calls `deliver` with each output, `isLast` for the final one.
    typealias Start = @Sendable (_ deliver: @escaping @Sendable (_ output: Output, _ isLast: Bool) -> Void) -> Void

    /// Touched only under the lock: the subscriber is called after it, once per output.
    private struct State: @unchecked Sendable {
        var downstream: AnySubscriber<Output, Never>?
        var started = false
    }

    private let request: Request
    private let start: Start
    private let state: Protected<State>

    init<Downstream: Subscriber>(request: Request, downstream: Downstream, start: @escaping Start)
        where Downstream.Input == Output, Downstream.Failure == Never {
        self.request = request
        self.start = start
        state = Protected(State(downstream: AnySubscriber(downstream)))
    }

    func request(_ demand: Subscribers.Demand) {
        guard demand > 0 else { return }
        let first = state.withLock { state -> Bool in
            defer { state.started = true }
            return !state.started && state.downstream != nil
        }
        guard first else { return }
        start { [weak self] output, isLast in self?.deliver(output, isLast: isLast) }
    }

    /// Sends `output` downstream, then the completion if it is the last, each only while the
    /// subscription is attached: a downstream operator (Zip, prefix, first) may cancel it, and
    /// release itself, while it receives the output.
    private func deliver(_ output: Output, isLast: Bool) {
        guard let downstream = state.withLock({ $0.downstream }) else { return }
        _ = downstream.receive(output)
        guard isLast else { return }
        let attached = state.withLock { state -> Bool in
            defer { state.downstream = nil }
            return state.downstream != nil
        }
        if attached { downstream.receive(completion: .finished) }
    }

    func cancel() {
        let wasAttached = state.withLock { state -> Bool in
            defer { state.downstream = nil }
            return state.downstream != nil
        }
        if wasAttached { request.cancel() }
    }
}
