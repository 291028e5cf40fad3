import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension Request {
    /// What to do with a response once `onHTTPResponse` saw its head.
    public enum ResponseDisposition: Sendable {
        /// Read the body and go on as usual.
        case allow
        /// Cancel the request, as `cancel()` does, before its body is read.
        case cancel
    }

    /// Called with each final response head; answers with a disposition.
    typealias HTTPResponseHandler = @Sendable (HTTPURLResponse, @escaping @Sendable (ResponseDisposition) -> Void) -> Void

    func setHTTPResponseHandler(on queue: DispatchQueue, _ handler: @escaping HTTPResponseHandler) {
        mutableState.withLock { state in
            if state.keepsAttemptHandlers { state.httpResponseHandler = (queue, handler) }
        }
    }

    /// The form without a disposition: `handler` is told each head, and the body follows once it
    /// returned (as Alamofire's: a stream's first chunk never reaches its handler before the head).
    func observeHTTPResponses(on queue: DispatchQueue, _ handler: @escaping @Sendable (HTTPURLResponse) -> Void) {
        setHTTPResponseHandler(on: queue) { response, completion in
            handler(response)
            completion(.allow)
        }
    }

    /// The async form: `handler` decides in a task of its own while the body waits.
    func decideOnHTTPResponses(_ handler: @escaping @Sendable (HTTPURLResponse) async -> ResponseDisposition) {
        setHTTPResponseHandler(on: underlyingQueue) { response, completion in
            Task { completion(await handler(response)) }
        }
    }

    /// Whether final response heads go to a handler (their bodies wait at the gate meanwhile).
    var awaitsResponseDisposition: Bool { mutableState.withLock { $0.httpResponseHandler != nil } }

    /// A final response head arrived (engine thread): the handler decides, on its queue, whether
    /// the body is read or the request cancelled.
    func decide(on response: HTTPURLResponse, task: SessionTask) {
        guard let handler = mutableState.withLock({ $0.httpResponseHandler }) else { return }
        // Read now: the decision ends that held answer only (a redirect not followed).
        let heldAnswer = task.heldAnswerNumber
        handler.queue.async {
            handler.handler(response) { disposition in
                switch disposition {
                case .allow: task.releaseResponse(heldAnswer: heldAnswer)
                case .cancel: self.cancel()
                }
            }
        }
    }
}

extension DataRequest {
    /// Calls `handler` on `queue` with each final response head, before the body; the body
    /// waits until `handler` calls its completion handler, which it must call once: `.cancel`
    /// cancels the request.
    @_disfavoredOverload
    @discardableResult
    public func onHTTPResponse(
        on queue: DispatchQueue = .main,
        perform handler: @escaping @Sendable (_ response: HTTPURLResponse,
                                              _ completionHandler: @escaping @Sendable (ResponseDisposition) -> Void) -> Void
    ) -> Self {
        setHTTPResponseHandler(on: queue, handler)
        return self
    }

    /// Calls `handler` on `queue` with each final response head; the body is read once it returned.
    @discardableResult
    public func onHTTPResponse(on queue: DispatchQueue = .main,
                               perform handler: @escaping @Sendable (HTTPURLResponse) -> Void) -> Self {
        observeHTTPResponses(on: queue, handler)
        return self
    }

    /// Calls `handler` with each final response head; the body waits for its disposition.
    @_disfavoredOverload
    @discardableResult
    public func onHTTPResponse(perform handler: @escaping @Sendable (_ response: HTTPURLResponse) async -> ResponseDisposition) -> Self {
        decideOnHTTPResponses(handler)
        return self
    }

    /// Calls `handler` with each final response head; the body waits until it returns.
    @discardableResult
    public func onHTTPResponse(perform handler: @escaping @Sendable (_ response: HTTPURLResponse) async -> Void) -> Self {
        decideOnHTTPResponses { response in
            await handler(response)
            return .allow
        }
        return self
    }
}

extension DataStreamRequest {
    /// Calls `handler` on `queue` with each final response head, before the stream; the stream
    /// waits until `handler` calls its completion handler, which it must call once: `.cancel`
    /// cancels the request.
    @_disfavoredOverload
    @discardableResult
    public func onHTTPResponse(
        on queue: DispatchQueue = .main,
        perform handler: @escaping @Sendable (_ response: HTTPURLResponse,
                                              _ completionHandler: @escaping @Sendable (ResponseDisposition) -> Void) -> Void
    ) -> Self {
        setHTTPResponseHandler(on: queue, handler)
        return self
    }

    /// Calls `handler` on `queue` with each final response head; the stream flows once it returned.
    @discardableResult
    public func onHTTPResponse(on queue: DispatchQueue = .main,
                               perform handler: @escaping @Sendable (HTTPURLResponse) -> Void) -> Self {
        observeHTTPResponses(on: queue, handler)
        return self
    }

    /// Calls `handler` with each final response head; the stream waits for its disposition.
    @_disfavoredOverload
    @discardableResult
    public func onHTTPResponse(perform handler: @escaping @Sendable (_ response: HTTPURLResponse) async -> ResponseDisposition) -> Self {
        decideOnHTTPResponses(handler)
        return self
    }

    /// Calls `handler` with each final response head; the stream waits until it returns.
    @discardableResult
    public func onHTTPResponse(perform handler: @escaping @Sendable (_ response: HTTPURLResponse) async -> Void) -> Self {
        decideOnHTTPResponses { response in
            await handler(response)
            return .allow
        }
        return self
    }
}
