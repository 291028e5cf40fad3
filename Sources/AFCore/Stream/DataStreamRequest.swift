import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A request whose response body is handed to stream handlers chunk by chunk as it arrives,
/// never gathered. A consumer that falls behind pauses the transfer: at most about 1 MiB waits
/// in memory, whatever the body's size.
public final class DataStreamRequest: Request, @unchecked Sendable {
    /// A stream handler; throwing cancels the request with `responseSerializationFailed`.
    public typealias Handler<Success, Failure: Error> = @Sendable (Stream<Success, Failure>) throws -> Void

    /// One event of the stream, and the token to cancel it.
    public struct Stream<Success, Failure: Error>: @unchecked Sendable {
        /// The event.
        public let event: Event<Success, Failure>
        /// Cancels the request.
        public let token: CancellationToken

        /// Cancels the request.
        public func cancel() { token.cancel() }
    }

    /// A chunk's serialized value, or the end of the stream.
    public enum Event<Success, Failure: Error> {
        /// A chunk arrived and was serialized.
        case stream(Result<Success, Failure>)
        /// The request ended (finished, failed or cancelled); the last event.
        case complete(Completion)
    }

    /// The state of the request when the stream ended.
    public struct Completion: @unchecked Sendable {
        /// The last `URLRequest` sent.
        public let request: URLRequest?
        /// The last response received.
        public let response: HTTPURLResponse?
        /// The metrics of the last attempt.
        public let metrics: TaskMetrics?
        /// The error the request ended with, if any.
        public let error: AFError?
    }

    /// Cancels the stream's request.
    public struct CancellationToken: Sendable {
        weak var request: DataStreamRequest?

        init(_ request: DataStreamRequest) { self.request = request }

        /// Cancels the request.
        public func cancel() { request?.cancel() }
    }

    /// A check of the response head, run before any chunk is handed over.
    public typealias Validation = @Sendable (_ request: URLRequest?, _ response: HTTPURLResponse) -> ValidationResult

    /// A handler for one chunk: `done` tells when the chunk is consumed.
    typealias ChunkParser = @Sendable (_ data: Data, _ done: @escaping @Sendable () -> Void) -> Void

    struct StreamState {
        var parsers: [ChunkParser] = []
        var validators: [@Sendable () -> Void] = []
        var numberOfExecutingStreams = 0
        var enqueuedCompletionEvents: [@Sendable () -> Void] = []
        var inputStreamChunks: ChunkQueue?
        /// Response heads reported, and the number of the last one the validators on
        /// `underlyingQueue` passed: a check that ends late never vouches for a newer head (one
        /// transfer may report two, as a proxy's CONNECT answer and the real one).
        var headsReported = 0
        var headsChecked = 0
        /// Chunks sent through `underlyingQueue` and not handed over yet.
        var chunksQueued = 0
    }

    /// What the request was made from.
    public let convertible: any URLRequestConvertible
    /// Whether a chunk that fails to serialize cancels the request.
    public let automaticallyCancelOnStreamError: Bool
    /// Paces the transfer to the handlers.
    let flowControl = StreamFlowControl()
    let streamState = Protected(StreamState())
    /// Whether chunks go from the engine to `chunkQueue`, serialized there, then to the
    /// handlers' queues, rather than through `underlyingQueue` and the serialization queue (both
    /// on the session's one serial `rootQueue`): when no monitor of the session can see the
    /// steps in between (their parse events) and serialization runs on the session's own queue.
    /// A request's own monitors still get their events.
    var chunksSkipRootQueue: Bool { chunkQueue != nil }
    /// The request's own serial queue for its chunks' serialization, when they skip `rootQueue`:
    /// one chunk at a time, as on the serialization queue, without sharing a queue with every
    /// other request.
    let chunkQueue: DispatchQueue?

    init(id: UUID = .fastRandom(), convertible: any URLRequestConvertible, automaticallyCancelOnStreamError: Bool,
         underlyingQueue: DispatchQueue, serializationQueue: DispatchQueue, eventMonitor: CompositeEventMonitor?,
         interceptor: (any RequestInterceptor)?, shouldAutomaticallyResume: Bool?, delegate: any RequestDelegate) {
        self.convertible = convertible
        self.automaticallyCancelOnStreamError = automaticallyCancelOnStreamError
        let skipsRootQueue = eventMonitor?.hasObservers != true && serializationQueue.runsBehindAnotherQueue
        chunkQueue = skipsRootQueue ? DispatchQueue(label: "org.alamofire.stream.chunks", target: .global()) : nil
        super.init(id: id, underlyingQueue: underlyingQueue, serializationQueue: serializationQueue,
                   eventMonitor: eventMonitor, interceptor: interceptor,
                   shouldAutomaticallyResume: shouldAutomaticallyResume, delegate: delegate)
    }

    override func makeURLRequest() throws -> URLRequest {
        try convertible.asURLRequest()
    }

    override func makeSessionTask(for urlRequest: URLRequest, in session: Session) -> SessionTask {
        session.makeSessionTask(for: urlRequest, by: self, bodyStream: flowControl)
    }

    // MARK: Engine events

    override func didReceiveResponseHead(_ response: HTTPURLResponse, task: SessionTask) {
        // Called before the exchange's chunks, on the thread that then reports them: until this
        // head is checked, they wait behind it.
        let number = streamState.withLock { state in
            state.headsReported += 1
            return state.headsReported
        }
        underlyingQueue.async {
            self.mutableState.withLock { $0.response = ReceivedResponse(response) }
            let validators = self.streamState.withLock { $0.validators }
            validators.forEach { $0() }
            // A response that fails validation is not streamed.
            if self.error != nil { return task.cancel() }
            self.streamState.withLock { $0.headsChecked = max($0.headsChecked, number) }
        }
    }

    override func didReceiveStreamedBody(_ data: Data) {
        // Straight to the handlers once the head is checked and no earlier chunk is still on its
        // way through `underlyingQueue`, so that none overtakes another.
        let direct = chunksSkipRootQueue && streamState.withLock { state in
            guard state.headsChecked == state.headsReported, state.chunksQueued == 0 else {
                state.chunksQueued += 1
                return false
            }
            return true
        }
        if direct { return hand(data) }
        underlyingQueue.async {
            self.hand(data)
            if self.chunksSkipRootQueue { self.streamState.withLock { $0.chunksQueued -= 1 } }
        }
    }

    /// Hands a chunk to every stream handler; it counts as consumed when all are done with it.
    /// Chunks that arrive after the request failed or was cancelled are dropped.
    private func hand(_ data: Data) {
        let parsers = error == nil ? streamState.withLock { state -> [ChunkParser] in
            state.numberOfExecutingStreams += state.parsers.count
            return state.parsers
        } : []
        guard !parsers.isEmpty else { return flowControl.consume(data.count) }
        if parsers.count == 1 {
            // The usual case: no countdown to allocate per chunk.
            return parsers[0](data) { [flowControl] in flowControl.consume(data.count) }
        }
        let remaining = Protected(parsers.count)
        let done: @Sendable () -> Void = { [flowControl] in
            let last = remaining.withLock { count -> Bool in
                count -= 1
                return count == 0
            }
            if last { flowControl.consume(data.count) }
        }
        parsers.forEach { $0(data, done) }
    }

    override func cleanup() {
        // Every chunk was handed over before the request finished: the reader sees the end.
        // The parsers hold the request (and the user's handlers): let them go.
        let inputStreamChunks = streamState.withLock { state in
            state.parsers.removeAll()
            state.validators.removeAll()
            return state.inputStreamChunks
        }
        inputStreamChunks?.end()
    }

    // MARK: Handlers

    /// Adds a chunk parser and the completion event for `stream`.
    func appendStream<Success, Failure>(on queue: DispatchQueue, parser: @escaping ChunkParser,
                                        stream: @escaping Handler<Success, Failure>) {
        streamState.withLock { $0.parsers.append(parser) }
        appendStreamCompletion(on: queue, stream: stream)
    }

    /// Runs a user's handler; a throw cancels the request with the error.
    func capturingError(from closure: () throws -> Void) {
        do {
            try closure()
        } catch {
            self.error = error.asAFError(or: .responseSerializationFailed(reason: .customSerializationFailed(error: error)))
            cancel()
        }
    }

    /// A handler ran for a chunk: completions wait until no handler is running.
    func updateAndCompleteIfPossible() {
        let completions = streamState.withLock { state -> [@Sendable () -> Void] in
            state.numberOfExecutingStreams -= 1
            guard state.numberOfExecutingStreams == 0 else { return [] }
            defer { state.enqueuedCompletionEvents.removeAll() }
            return state.enqueuedCompletionEvents
        }
        if !completions.isEmpty { underlyingQueue.async { completions.forEach { $0() } } }
    }

    /// The completion waits for every chunk's handlers, and the request finishes only then: a
    /// handler that cancels (or a chunk whose serialization fails, with
    /// `automaticallyCancelOnStreamError`) still decides how the request ends.
    private func appendStreamCompletion<Success, Failure>(on queue: DispatchQueue, stream: @escaping Handler<Success, Failure>) {
        appendResponseSerializer {
            self.underlyingQueue.async(recording: self.handOffs) {
                let complete: @Sendable () -> Void = {
                    self.responseSerializerDidComplete { self.enqueueCompletion(on: queue, stream: stream) }
                }
                let completeNow = self.streamState.withLock { state -> Bool in
                    guard state.numberOfExecutingStreams == 0 else {
                        state.enqueuedCompletionEvents.append(complete)
                        return false
                    }
                    return true
                }
                if completeNow { complete() }
            }
        }
    }

    private func enqueueCompletion<Success, Failure>(on queue: DispatchQueue, stream: @escaping Handler<Success, Failure>) {
        let completion = Completion(request: request, response: response, metrics: metrics, error: error)
        queue.async {
            // An error thrown from the completion event has nowhere to go.
            try? stream(Stream(event: .complete(completion), token: CancellationToken(self)))
        }
    }

    // MARK: Validation

    /// Adds a validation of the response head; a failure becomes the request's error and stops
    /// the transfer before any chunk is handed over.
    @discardableResult
    public func validate(_ validation: @escaping Validation) -> Self {
        let validator: @Sendable () -> Void = { [unowned self] in
            guard error == nil, let response else { return }
            let request = request
            let result = validation(request, response)
            if case let .failure(failure) = result {
                error = failure.asAFError(or: .responseValidationFailed(reason: .customValidationFailed(error: failure)))
            }
            emit(.requestDidValidateRequestResponseWithResult) {
                $0.request(self, didValidateRequest: request, response: response, withResult: result)
            }
        }
        streamState.withLock { $0.validators.append(validator) }
        return self
    }

    // MARK: InputStream

    /// An `InputStream` of the body: open it, then read; reads block until bytes arrive and
    /// return 0 at the end. Resumes the request. A reader that falls behind pauses the transfer.
    /// `bufferSize` is accepted for Alamofire compatibility; the backlog is bounded by the
    /// flow control instead.
    public func asInputStream(bufferSize: Int = 1024) -> InputStream? {
        defer { resume() }
        let stream = StreamedBodyInputStream()
        let chunks = stream.chunks
        streamState.withLock { state in
            state.inputStreamChunks = chunks
            state.parsers.append { data, done in
                chunks.append(data, consumed: done)
                self.updateAndCompleteIfPossible()
            }
        }
        return stream
    }
}

extension DataStreamRequest.Stream {
    /// The chunk's result, for a `.stream` event.
    public var result: Result<Success, Failure>? {
        guard case let .stream(result) = event else { return nil }
        return result
    }

    /// The chunk's value, if it serialized.
    public var value: Success? {
        guard case let .success(value) = result else { return nil }
        return value
    }

    /// The chunk's error, if it did not serialize.
    public var error: Failure? {
        guard case let .failure(error) = result else { return nil }
        return error
    }

    /// The completion, for a `.complete` event.
    public var completion: DataStreamRequest.Completion? {
        guard case let .complete(completion) = event else { return nil }
        return completion
    }
}
