import AFCore
import Foundation
import OpenCombine

/// Publishes the response of a `DataRequest`, serialized, once; cancelling cancels the request.
public struct DataResponsePublisher<Value: Sendable>: Publisher {
    public typealias Output = DataResponse<Value, AFError>
    public typealias Failure = Never

    private let source: ResponseSource<Output>

    /// A publisher of `request`'s response serialized by `serializer`, delivered on `queue`.
    public init<Serializer: ResponseSerializer>(_ request: DataRequest, queue: DispatchQueue, serializer: Serializer)
        where Value == Serializer.SerializedObject {
        source = ResponseSource(request: request) { request.response(queue: queue, responseSerializer: serializer, completionHandler: $0) }
    }

    /// A publisher of `request`'s response serialized by `serializer`, delivered on `queue`.
    public init<Serializer: DataResponseSerializerProtocol>(_ request: DataRequest, queue: DispatchQueue, serializer: Serializer)
        where Value == Serializer.SerializedObject {
        source = ResponseSource(request: request) { request.response(queue: queue, responseSerializer: serializer, completionHandler: $0) }
    }

    /// Only the response's result.
    public func result() -> AnyPublisher<Result<Value, AFError>, Never> {
        results(\.result)
    }

    /// The value, or the error as the publisher's failure.
    public func value() -> AnyPublisher<Value, AFError> {
        values(\.result)
    }

    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Never {
        source.subscribe(subscriber)
    }
}

extension DataResponsePublisher where Value == Data? {
    /// A publisher of `request`'s unserialized response, delivered on `queue`.
    public init(_ request: DataRequest, queue: DispatchQueue) {
        source = ResponseSource(request: request) { request.response(queue: queue, completionHandler: $0) }
    }
}

extension DataRequest {
    /// Publishes the response serialized by `serializer`.
    public func publishResponse<Serializer: ResponseSerializer, T>(using serializer: Serializer, on queue: DispatchQueue = .main)
        -> DataResponsePublisher<T> where Serializer.SerializedObject == T {
        DataResponsePublisher(self, queue: queue, serializer: serializer)
    }

    /// Publishes the response serialized by `serializer`.
    public func publishResponse<Serializer: DataResponseSerializerProtocol, T>(using serializer: Serializer,
                                                                              on queue: DispatchQueue = .main)
        -> DataResponsePublisher<T> where Serializer.SerializedObject == T {
        DataResponsePublisher(self, queue: queue, serializer: serializer)
    }

    /// Publishes the response as `Data`.
    public func publishData(queue: DispatchQueue = .main,
                            preprocessor: any DataPreprocessor = DataResponseSerializer.defaultDataPreprocessor,
                            emptyResponseCodes: Set<Int> = DataResponseSerializer.defaultEmptyResponseCodes,
                            emptyRequestMethods: Set<HTTPMethod> = DataResponseSerializer.defaultEmptyRequestMethods)
        -> DataResponsePublisher<Data> {
        publishResponse(using: DataResponseSerializer(dataPreprocessor: preprocessor, emptyResponseCodes: emptyResponseCodes,
                                                      emptyRequestMethods: emptyRequestMethods), on: queue)
    }

    /// Publishes the response as a `String`.
    public func publishString(queue: DispatchQueue = .main,
                              preprocessor: any DataPreprocessor = StringResponseSerializer.defaultDataPreprocessor,
                              encoding: String.Encoding? = nil,
                              emptyResponseCodes: Set<Int> = StringResponseSerializer.defaultEmptyResponseCodes,
                              emptyRequestMethods: Set<HTTPMethod> = StringResponseSerializer.defaultEmptyRequestMethods)
        -> DataResponsePublisher<String> {
        publishResponse(using: StringResponseSerializer(dataPreprocessor: preprocessor, encoding: encoding,
                                                        emptyResponseCodes: emptyResponseCodes,
                                                        emptyRequestMethods: emptyRequestMethods), on: queue)
    }

    /// Publishes the response decoded as `T`.
    public func publishDecodable<T: Decodable & Sendable>(type: T.Type = T.self,
                                                          queue: DispatchQueue = .main,
                                                          preprocessor: any DataPreprocessor = DecodableResponseSerializer<T>.defaultDataPreprocessor,
                                                          decoder: any DataDecoder = JSONDecoder(),
                                                          emptyResponseCodes: Set<Int> = DecodableResponseSerializer<T>.defaultEmptyResponseCodes,
                                                          emptyRequestMethods: Set<HTTPMethod> = DecodableResponseSerializer<T>.defaultEmptyRequestMethods)
        -> DataResponsePublisher<T> {
        publishResponse(using: DecodableResponseSerializer(dataPreprocessor: preprocessor, decoder: decoder,
                                                           emptyResponseCodes: emptyResponseCodes,
                                                           emptyRequestMethods: emptyRequestMethods), on: queue)
    }

    /// Publishes the response unserialized.
    public func publishUnserialized(queue: DispatchQueue = .main) -> DataResponsePublisher<Data?> {
        DataResponsePublisher(self, queue: queue)
    }
}
