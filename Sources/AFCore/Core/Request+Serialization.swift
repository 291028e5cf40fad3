import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// Response serializers run one at a time on `serializationQueue` once the request finished;
// their completions are all delivered at the end, then the session forgets the request.
extension Request {
    /// Adds a serializer, whose handler is called on `handlerQueue` as far as the caller says;
    /// it runs now if the request already finished, and starts the request when the session
    /// starts requests immediately.
    func appendResponseSerializer(handlerQueue: HandlerQueues = .several, _ closure: @escaping @Sendable () -> Void) {
        let (runNow, shouldResume) = mutableState.withLock { state -> (Bool, Bool) in
            state.responseSerializers.append(closure)
            state.handlerQueues.add(handlerQueue)
            if state.state == .finished { state.state = .resumed }
            let runNow = state.responseSerializerProcessingFinished
            var shouldResume = state.state.canTransition(to: .resumed) && state.state == .initialized
            if shouldResume, !state.isRegistered {
                // An eager session's registration, already queued on rootQueue, resumes it:
                // one trip to that queue instead of two. (A lazy session registers a request
                // as it is made, so this is not reached then.)
                state.resumesOnRegistration = true
                shouldResume = false
            }
            return (runNow, shouldResume)
        }
        if runNow {
            underlyingQueue.async(recording: handOffs) { self.processNextResponseSerializer() }
        }
        if shouldResume {
            if ownsQueue {
                // The request's own queue, which nothing else holds yet: the caller sets it up
                // there itself, with no trip (see `Session.queues(forRequestWith:)`).
                underlyingQueue.runOrSync { self.resumeIfAutomatic() }
            } else {
                underlyingQueue.async(recording: handOffs) { self.resumeIfAutomatic() }
            }
        }
    }

    /// Where the engine under load hands the end of a request on a queue of its own: to the one
    /// queue of its handlers, which completes it inside the request's queue and calls the
    /// handlers after, with no trip between (not the main queue, which Alamofire keeps free of
    /// serialization, nor a queue an event handler is called on, whose last call may still wait
    /// in the request's queue and would then come after the response); else to `rootQueue`,
    /// which takes the ends of one engine pass in one trip (sent each to its request's queue,
    /// every end would wake a worker of its own). Nil for a request on `rootQueue`: its task's
    /// queue.
    var completionQueue: DispatchQueue? {
        guard ownsQueue else { return nil }
        let handlerQueue = mutableState.withLock { state -> DispatchQueue? in
            guard case let .one(queue) = state.handlerQueues, !queue.isMain,
                  !state.hasEventHandler(on: queue) else { return nil }
            return queue
        }
        return handlerQueue ?? session?.rootQueue
    }

    /// The session took the request in (as it was made, or for eager setup on `rootQueue`);
    /// resumes it if a response handler was added before.
    func didRegister() {
        let resume = mutableState.withLock { state -> Bool in
            state.isRegistered = true
            defer { state.resumesOnRegistration = false }
            return state.resumesOnRegistration
        }
        if resume { resumeIfAutomatic() }
    }

    private func resumeIfAutomatic() {
        if shouldAutomaticallyResume ?? delegate?.startImmediately ?? false {
            resume()
        }
    }

    /// A serializer is done; `completion` delivers its result once all serializers are done.
    func responseSerializerDidComplete(completion: @escaping @Sendable () -> Void) {
        responseSerializerDidComplete(delivering: ResponseDelivery(queue: nil, call: completion))
    }

    /// A serializer is done; `delivery` is made once all serializers are done.
    func responseSerializerDidComplete(delivering delivery: ResponseDelivery) {
        mutableState.withLock { $0.responseSerializerCompletions.append(delivery) }
        processNextResponseSerializer()
    }

    func processNextResponseSerializer() {
        enum Step {
            case run(@Sendable () -> Void)
            case complete(SmallList<ResponseDelivery>, finishing: [@Sendable () -> Void], after: [DispatchQueue])
        }
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
            state.dropAttemptHandlers()
            // The queues stay: what a serializer added later delivers goes the same way, behind this.
            defer { state.finishHandlers.removeAll() }
            return .complete(completions, finishing: state.finishHandlers, after: state.eventHandlerQueues)
        }
        switch step {
        case let .run(serializer):
            serializationQueue.runBehindOrAsync(recording: handOffs) { serializer() }
        case let .complete(completions, finishing, eventHandlerQueues):
            // Clean up first, so a handler sees the request gone from the session and its
            // temporary file removed.
            cleanup()
            delegate?.cleanup(after: self)
            // Without an event handler on those queues (the usual case), no closure is made.
            guard !eventHandlerQueues.isEmpty else {
                for delivery in completions { delivery.make(recording: handOffs) }
                return finishing.forEach { $0() }
            }
            passing(through: eventHandlerQueues[...]) {
                for delivery in completions { delivery.make(recording: self.handOffs) }
                finishing.forEach { $0() }
            }
        }
    }

    /// Queues a call of an event handler (progress, URL request, task, cURL description) on
    /// `queue`. A request on `rootQueue` completes there, and serializes on `serializationQueue`,
    /// after this call was queued: a handler on either queue runs before the response handlers,
    /// as in Alamofire. A request on a queue of its own passes its completion through those two
    /// queues instead, when it called a handler there (see `passing(through:_:)`). No other
    /// queue is waited for, as Alamofire waits for none: the main queue of a daemon may never
    /// run. A handler on a response handler's queue gets its calls first anyway (see
    /// `completionQueue`).
    func callEventHandler(on queue: DispatchQueue, _ call: @escaping @Sendable () -> Void) {
        if ownsQueue, let session, queue === session.rootQueue || queue === session.serializationQueue {
            mutableState.withLock { state in
                if !state.eventHandlerQueues.contains(where: { $0 === queue }) { state.eventHandlerQueues.append(queue) }
            }
        }
        queue.async(execute: call)
    }

    /// Runs `work` once everything already queued on each of `queues` has run.
    private func passing(through queues: ArraySlice<DispatchQueue>, _ work: @escaping @Sendable () -> Void) {
        guard let queue = queues.first else { return work() }
        queue.async(recording: handOffs) { self.passing(through: queues.dropFirst(), work) }
    }

    /// Calls `handler` once the request finished and its serializers are done; at once when
    /// that already happened (a cancelled request stays `.cancelled` once done), behind the
    /// completions' way through the session's queues (see `callEventHandler(on:_:)`).
    func onFinish(_ handler: @escaping @Sendable () -> Void) {
        let done = mutableState.withLock { state -> [DispatchQueue]? in
            let ended = state.state == .finished || state.state == .cancelled
            guard !(ended && state.responseSerializerProcessingFinished) else { return state.eventHandlerQueues }
            state.finishHandlers.append(handler)
            return nil
        }
        if let done { passing(through: done[...], handler) }
    }

    /// Completes a serializer, unless its result failed (`serializationError`) and a retrier
    /// wants another attempt: then the request runs again and every serializer runs on the new
    /// outcome. `deliver` gets the retrier's error when it failed, to deliver instead.
    func completeOrRetry(serializationError: AFError?, deliver: @escaping @Sendable (_ retryError: AFError?) -> Void) {
        guard !isCancelled, let serializationError, error == nil, let delegate else {
            return responseSerializerDidComplete { deliver(nil) }
        }
        delegate.retryResult(for: self, dueTo: serializationError) { result in
            switch result {
            case .doNotRetry:
                self.responseSerializerDidComplete { deliver(nil) }
            case .doNotRetryWithError where self.isCancelled:
                // A cancel ended the retrier's wait, or came before its answer: the serializer
                // delivers the result it had, as after a cancel during a retry's delay.
                self.responseSerializerDidComplete { deliver(nil) }
            case let .doNotRetryWithError(retryError):
                let error = retryError.asAFError(or: .requestRetryFailed(retryError: retryError, originalError: serializationError))
                self.responseSerializerDidComplete { deliver(error) }
            case .retry, .retryWithDelay:
                // Checked with the cancel under one lock: a cancel before this delivers now, one
                // after it finds the delivery waiting (see `cancel()`).
                let delivery: @Sendable () -> Void = { deliver(nil) }
                let retries = self.mutableState.withLock { state -> Bool in
                    guard state.state != .cancelled else { return false }
                    state.serializerAwaitingRetry = delivery
                    return true
                }
                if retries {
                    delegate.retryRequest(self, withDelay: result.delay)
                } else {
                    self.responseSerializerDidComplete(completion: delivery)
                }
            }
        }
    }
}

/// The queues a request's response handlers are called on, as far as its completion's route
/// cares (see `Request.completionQueue`).
enum HandlerQueues {
    case none
    /// Every handler so far is called on this queue.
    case one(DispatchQueue)
    /// Handlers on several queues, or one that resumes a waiting task.
    case several

    /// A handler on `queue`.
    init(_ queue: DispatchQueue?) {
        self = queue.map(HandlerQueues.one) ?? .several
    }

    mutating func add(_ other: HandlerQueues) {
        switch (self, other) {
        case (.none, _): self = other
        case let (.one(queue), .one(added)) where queue === added: break
        case (_, .none): break
        default: self = .several
        }
    }
}
