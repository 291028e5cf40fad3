/// A response delivered once and awaited by any number of tasks. The delivery resumes each
/// waiter itself, from the thread that delivers (the engine thread: once it left the request's
/// queue, see `DeferredResumptions`): no task or queue stands in between.
///
/// `value` is inlinable, as are the getters of `DataTask` and `DownloadTask` that await it: the
/// caller's module specializes them for its response type, so an await looks up no generic
/// metadata at run time (as AF's unspecialized generic code did on every await).
///
/// A struct over its guarded state: copies share that state, and a request awaited makes one
/// object for it rather than two.
@usableFromInline struct AwaitedResponse<Response: Sendable>: Sendable {
    @usableFromInline enum State {
        /// The first waiter apart (usually the only one): no list is made for it.
        case waiting(first: UnsafeContinuation<Response, Never>?, others: [UnsafeContinuation<Response, Never>])
        case delivered(Response)
    }

    @usableFromInline let state = Protected<State>(.waiting(first: nil, others: []))

    /// Hands `response` to every waiter, present and future; later deliveries are ignored.
    func deliver(_ response: Response) {
        let (first, others) = state.withLock { state -> (UnsafeContinuation<Response, Never>?, [UnsafeContinuation<Response, Never>]) in
            guard case let .waiting(first, others) = state else { return (nil, []) }
            state = .delivered(response)
            return (first, others)
        }
        guard first != nil || !others.isEmpty else { return }
        // Delivered by the engine thread inside the request's queue: resumed once it left it.
        if let deferred = DeferredResumptions.current {
            deferred.hold { Self.resume(first, others, with: response) }
        } else {
            Self.resume(first, others, with: response)
        }
    }

    private static func resume(_ first: UnsafeContinuation<Response, Never>?, _ others: [UnsafeContinuation<Response, Never>],
                               with response: Response) {
        first?.resume(returning: response)
        for waiter in others { waiter.resume(returning: response) }
    }

    /// A handler that delivers what it gets, counting the resumption of the waiting task.
    func deliverer(recording handOffs: HandOffs) -> @Sendable (Response) -> Void {
        { response in
            handOffs.record()
            self.deliver(response)
        }
    }

    /// How many tasks wait for the response (for tests).
    var waiterCount: Int {
        state.withLock { state in
            guard case let .waiting(first, others) = state else { return 0 }
            return (first == nil ? 0 : 1) + others.count
        }
    }

    /// The response, once delivered.
    @inlinable var value: Response {
        get async {
            await withUnsafeContinuation { continuation in
                let delivered = state.withLock { state -> Response? in
                    switch state {
                    case let .delivered(response):
                        return response
                    case .waiting(nil, let others):
                        state = .waiting(first: continuation, others: others)
                        return nil
                    case .waiting(let first, var others):
                        state = .waiting(first: first, others: [])  // so the append does not copy the list
                        others.append(continuation)
                        state = .waiting(first: first, others: others)
                        return nil
                    }
                }
                if let delivered { continuation.resume(returning: delivered) }
            }
        }
    }
}
