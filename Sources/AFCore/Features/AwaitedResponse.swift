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

    /// The response, once delivered.
    var value: Response {
        get async {
            await withUnsafeContinuation { continuation in
                let delivered = state.withLock { state -> Response? in
                    switch state {
                    case let .delivered(response):
                        return response
                    case var .waiting(waiters):
                        state = .waiting([])
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
