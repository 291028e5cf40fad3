import AFCore
import Foundation
import OpenCombine

/// Publishes each event of a `DataStreamRequest` (values, then its completion) as it arrives;
/// finishes after the completion event; cancelling cancels the request.
public struct DataStreamPublisher<Value: Sendable>: Publisher {
    public typealias Output = DataStreamRequest.Stream<Value, AFError>
    public typealias Failure = Never

    private let request: DataStreamRequest
    private let addHandler: @Sendable (@escaping DataStreamRequest.Handler<Value, AFError>) -> Void

    /// A publisher of `request`'s stream serialized by `serializer`, delivered on `queue`.
    public init<Serializer: DataStreamSerializer>(_ request: DataStreamRequest, queue: DispatchQueue, serializer: Serializer)
        where Value == Serializer.SerializedObject {
        self.request = request
        addHandler = { request.responseStream(using: serializer, on: queue, stream: $0) }
    }

    /// Only the values and errors of the stream, not its completion.
    public func result() -> AnyPublisher<Result<Value, AFError>, Never> {
        compactMap(\.result).eraseToAnyPublisher()
    }

    /// The values, ending with the first error as the publisher's failure.
    public func value() -> AnyPublisher<Value, AFError> {
        result().setFailureType(to: AFError.self).flatMap(\.publisher).eraseToAnyPublisher()
    }

    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Never {
        let addHandler = addHandler
        subscriber.receive(subscription: RequestSubscription(request: request, downstream: subscriber) { deliver in
            addHandler { stream in
                if case .complete = stream.event { deliver(stream, true) } else { deliver(stream, false) }
            }
        })
    }
}

extension DataStreamRequest {
    /// Publishes the stream serialized by `serializer`.
    public func publishStream<Serializer: DataStreamSerializer>(using serializer: Serializer, on queue: DispatchQueue = .main)
        -> DataStreamPublisher<Serializer.SerializedObject> {
        DataStreamPublisher(self, queue: queue, serializer: serializer)
    }

    /// Publishes the stream's chunks as `Data`.
    public func publishData(queue: DispatchQueue = .main) -> DataStreamPublisher<Data> {
        publishStream(using: PassthroughStreamSerializer(), on: queue)
    }

    /// Publishes the stream's chunks as UTF-8 `String`s.
    public func publishString(queue: DispatchQueue = .main) -> DataStreamPublisher<String> {
        publishStream(using: StringStreamSerializer(), on: queue)
    }

    /// Publishes the stream's chunks decoded as `T`.
    public func publishDecodable<T: Decodable & Sendable>(type: T.Type = T.self, queue: DispatchQueue = .main,
                                                          decoder: any DataDecoder = JSONDecoder(),
                                                          preprocessor: any DataPreprocessor = PassthroughPreprocessor())
        -> DataStreamPublisher<T> {
        publishStream(using: DecodableStreamSerializer(decoder: decoder, dataPreprocessor: preprocessor), on: queue)
    }
}
