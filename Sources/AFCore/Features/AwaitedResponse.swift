/// A response delivered once and awaited by any number of tasks. The delivery resumes each
/// waiter itself, from the thread that delivers: no task or queue stands in between.
final class AwaitedResponse<Response: Sendable>: Sendable {
    private enum State {
        case waiting([UnsafeContinuation<Response, Never>])
        case delivered(Response)
    }

    private let state = Protected<State>(.waiting([]))

    /// Hands `response` to every waiter, present and future; later deliveries are ignored.
    func deliver(_ response: Response) {
        let waiters = state.withLock { state -> [UnsafeContinuation<Response, Never>] in
            guard case let .waiting(waiters) = state else { return [] }
            state = .delivered(response)
            return waiters
        }
        for waiter in waiters { waiter.resume(returning: response) }
    }

    /// A handler that delivers what it gets, counting the resumption of the waiting task.
    func deliverer(recording handOffs: HandOffs) -> @Sendable (Response) -> Void {
        { response in
            handOffs.record()
            self.deliver(response)
        }
    }

    /// The response, once delivered.
    var value: Response {
        get async {
            await withUnsafeContinuation { continuation in
                let delivered = state.withLock { state -> Response? in
                    switch state {
                    case let .delivered(response):
                        return response
                    case var .waiting(waiters):
                        state = .waiting([])  // so the append does not copy the array
                        waiters.append(continuation)
                        state = .waiting(waiters)
                        return nil
                    }
                }
                if let delivered { continuation.resume(returning: delivered) }
            }
        }
    }
}
