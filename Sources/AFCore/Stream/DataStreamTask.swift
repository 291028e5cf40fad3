import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// An async handle on a `DataStreamRequest`: its chunks as async sequences.
public struct DataStreamTask: Sendable {
    /// The sequence of a stream's events.
    public typealias Stream<Success: Sendable, Failure: Error> = StreamOf<DataStreamRequest.Stream<Success, Failure>>

    private let request: DataStreamRequest

    fileprivate init(request: DataStreamRequest) {
        self.request = request
    }

    /// The chunks as `Data`, then the completion. Ending the iteration early cancels the
    /// request when `shouldAutomaticallyCancel`.
    public func streamingData(automaticallyCancelling shouldAutomaticallyCancel: Bool = true,
                              bufferingPolicy: Stream<Data, Never>.BufferingPolicy = .unbounded) -> Stream<Data, Never> {
        makeStream(automaticallyCancelling: shouldAutomaticallyCancel, bufferingPolicy: bufferingPolicy) { queue, consume, complete in
            request.appendStream(on: queue, serialize: { .success($0) }, consume: consume, completion: complete)
        }
    }

    /// The chunks as UTF-8 text, then the completion.
    public func streamingStrings(automaticallyCancelling shouldAutomaticallyCancel: Bool = true,
                                 bufferingPolicy: Stream<String, Never>.BufferingPolicy = .unbounded) -> Stream<String, Never> {
        makeStream(automaticallyCancelling: shouldAutomaticallyCancel, bufferingPolicy: bufferingPolicy) { queue, consume, complete in
            request.appendStream(on: queue, serialize: { .success(String(decoding: $0, as: UTF8.self)) },
                                 consume: consume, completion: complete)
        }
    }

    /// Each chunk decoded as one `T`, then the completion.
    public func streamingDecodables<T: Decodable & Sendable>(_ type: T.Type = T.self,
                                                             automaticallyCancelling shouldAutomaticallyCancel: Bool = true,
                                                             bufferingPolicy: Stream<T, AFError>.BufferingPolicy = .unbounded)
        -> Stream<T, AFError> {
        streamingResponses(serializedUsing: DecodableStreamSerializer<T>(), automaticallyCancelling: shouldAutomaticallyCancel,
                           bufferingPolicy: bufferingPolicy)
    }

    /// Each chunk serialized by `serializer`, then the completion.
    public func streamingResponses<Serializer: DataStreamSerializer>(
        serializedUsing serializer: Serializer,
        automaticallyCancelling shouldAutomaticallyCancel: Bool = true,
        bufferingPolicy: Stream<Serializer.SerializedObject, AFError>.BufferingPolicy = .unbounded
    ) -> Stream<Serializer.SerializedObject, AFError> {
        makeStream(automaticallyCancelling: shouldAutomaticallyCancel, bufferingPolicy: bufferingPolicy) { queue, consume, complete in
            request.appendStream(on: queue, serialize: DataStreamRequest.serializing(with: serializer),
                                 consume: consume, completion: complete)
        }
    }

    /// Cancels the request.
    public func cancel() { request.cancel() }
    /// Resumes the request.
    public func resume() { request.resume() }
    /// Suspends the request.
    public func suspend() { request.suspend() }

    /// A sequence fed by a stream on the request: each chunk counts as consumed once the
    /// iteration took it; the completion ends the sequence.
    private func makeStream<Success: Sendable, Failure>(
        automaticallyCancelling shouldAutomaticallyCancel: Bool,
        bufferingPolicy: Stream<Success, Failure>.BufferingPolicy,
        append: (_ queue: DispatchQueue, _ consume: @escaping @Sendable (DataStreamRequest.Stream<Success, Failure>, @escaping @Sendable () -> Void) -> Void,
                 _ complete: @escaping DataStreamRequest.Handler<Success, Failure>) -> Void
    ) -> Stream<Success, Failure> {
        let request = request
        return StreamOf(bufferingPolicy: bufferingPolicy,
                        onTermination: { if shouldAutomaticallyCancel { request.cancel() } }) { feed in
            // One serial queue per sequence keeps the chunks in order.
            let queue = DispatchQueue(label: "org.alamofire.streamCompletionQueue.\(request.id)", target: .asyncCompletion)
            append(queue, { event, done in feed.yield(event, onTaken: done) },
                   { event in
                       feed.yield(event)
                       feed.finish()
                   })
        }
    }
}

extension DataStreamRequest {
    /// An async handle on this request's chunks.
    public func streamTask() -> DataStreamTask {
        DataStreamTask(request: self)
    }
}
