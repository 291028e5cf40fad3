import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension DataStreamRequest {
    /// Calls `stream` on `queue` with each chunk as it arrives, then with the completion. The
    /// next chunks wait until `stream` returns: a slow handler pauses the transfer.
    @discardableResult
    public func responseStream(on queue: DispatchQueue = .main, stream: @escaping Handler<Data, Never>) -> Self {
        appendStream(on: queue, serialize: { .success($0) }, consume: handing(to: stream), completion: stream)
        return self
    }

    /// Calls `stream` on `queue` with each chunk serialized by `serializer` (one chunk at a
    /// time, off `queue`), then with the completion.
    @discardableResult
    public func responseStream<Serializer: DataStreamSerializer>(using serializer: Serializer,
                                                                 on queue: DispatchQueue = .main,
                                                                 stream: @escaping Handler<Serializer.SerializedObject, AFError>) -> Self {
        appendStream(on: queue, serialize: Self.serializing(with: serializer), consume: handing(to: stream), completion: stream)
        return self
    }

    /// Calls `stream` on `queue` with each chunk as UTF-8 text, then with the completion.
    @discardableResult
    public func responseStreamString(on queue: DispatchQueue = .main, stream: @escaping Handler<String, Never>) -> Self {
        appendStream(on: queue, serialize: { .success(String(decoding: $0, as: UTF8.self)) },
                     consume: handing(to: stream), completion: stream)
        return self
    }

    /// Calls `stream` on `queue` with each chunk decoded as one `T`, then with the completion.
    @discardableResult
    public func responseStreamDecodable<T: Decodable & Sendable>(of type: T.Type = T.self,
                                                                 on queue: DispatchQueue = .main,
                                                                 using decoder: any DataDecoder = JSONDecoder(),
                                                                 preprocessor: any DataPreprocessor = PassthroughPreprocessor(),
                                                                 stream: @escaping Handler<T, AFError>) -> Self {
        responseStream(using: DecodableStreamSerializer<T>(decoder: decoder, dataPreprocessor: preprocessor),
                       on: queue, stream: stream)
    }

    /// Serialization with `serializer`, its errors as `AFError`.
    static func serializing<Serializer: DataStreamSerializer>(with serializer: Serializer)
        -> @Sendable (Data) -> Result<Serializer.SerializedObject, AFError> {
        { data in
            Result { try serializer.serialize(data) }.mapError { error in
                error.asAFError(or: .responseSerializationFailed(reason: .customSerializationFailed(error: error)))
            }
        }
    }

    /// A consumer that calls `stream`, then is done. Once the request is cancelled (by a handler,
    /// a throw, or anyone) no later chunk reaches the handler, even one already on its way; a
    /// chunk that failed to serialize still does (its error may be why the request was cancelled).
    private func handing<Success: Sendable, Failure>(to stream: @escaping Handler<Success, Failure>)
        -> @Sendable (Stream<Success, Failure>, @escaping @Sendable () -> Void) -> Void {
        { event, done in
            let isLateChunk = if case .stream(.success) = event.event { self.isCancelled } else { false }
            if !isLateChunk { self.capturingError { try stream(event) } }
            done()
        }
    }

    /// Adds a stream: each chunk is serialized on the serialization queue, reported to the
    /// monitors, then given to `consume` on `queue` with the closure that marks it consumed;
    /// `completion` gets the completion event after every chunk. When chunks skip `rootQueue`
    /// (`chunksSkipRootQueue`), they are serialized and reported on `chunkQueue` instead.
    func appendStream<Success: Sendable, Failure>(on queue: DispatchQueue,
                                                  serialize: @escaping @Sendable (Data) -> Result<Success, Failure>,
                                                  consume: @escaping @Sendable (Stream<Success, Failure>, _ done: @escaping @Sendable () -> Void) -> Void,
                                                  completion: @escaping Handler<Success, Failure>) {
        let deliver: @Sendable (Result<Success, Failure>, @escaping @Sendable () -> Void) -> Void = { result, done in
            consume(Stream(event: .stream(result), token: CancellationToken(self)), done)
            self.updateAndCompleteIfPossible()
        }
        let parser: ChunkParser
        if let chunkQueue {
            parser = { data, done in
                chunkQueue.async {
                    let result = serialize(data)
                    self.noteParsed(result)
                    queue.async { deliver(result, done) }
                }
            }
        } else {
            parser = { data, done in
                self.serializationQueue.async {
                    let result = serialize(data)
                    self.underlyingQueue.async {
                        self.noteParsed(result)
                        queue.async { deliver(result, done) }
                    }
                }
            }
        }
        appendStream(on: queue, parser: parser, stream: completion)
    }

    /// Tells the monitors a chunk was serialized; cancels the request when it failed and
    /// `automaticallyCancelOnStreamError` says so.
    private func noteParsed<Success: Sendable, Failure>(_ result: Result<Success, Failure>) {
        if let afResult = result as? Result<Success, AFError> {
            emit(.withoutClosure) { $0.request(self, didParseStream: afResult) }
            if case .failure = afResult, automaticallyCancelOnStreamError { cancel() }
        } else if case let .success(value) = result {
            emit(.withoutClosure) { $0.request(self, didParseStream: AFResult<Success>.success(value)) }
        }
    }
}
