import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// An async handle on a `DataRequest`'s serialized response.
public struct DataTask<Value: Sendable>: Sendable {
    /// The serialized response; waits for it.
    public var response: DataResponse<Value, AFError> {
        @inlinable get async {
            if shouldAutomaticallyCancel {
                return await withTaskCancellationHandler { await awaited.value } onCancel: { cancel() }
            }
            return await awaited.value
        }
    }

    /// The result of the response.
    public var result: Result<Value, AFError> {
        @inlinable get async { await response.result }
    }

    /// The value, or the error thrown.
    public var value: Value {
        @inlinable get async throws { try await result.get() }
    }

    @usableFromInline let request: DataRequest
    @usableFromInline let awaited: AwaitedResponse<DataResponse<Value, AFError>>
    @usableFromInline let shouldAutomaticallyCancel: Bool

    fileprivate init(request: DataRequest, awaited: AwaitedResponse<DataResponse<Value, AFError>>, shouldAutomaticallyCancel: Bool) {
        self.request = request
        self.awaited = awaited
        self.shouldAutomaticallyCancel = shouldAutomaticallyCancel
    }

    /// Cancels the request.
    public func cancel() { request.cancel() }
    /// Resumes the request.
    public func resume() { request.resume() }
    /// Suspends the request.
    public func suspend() { request.suspend() }
}

extension DataRequest {
    /// A `DataTask` for the body as `Data`.
    public func serializingData(automaticallyCancelling shouldAutomaticallyCancel: Bool = true,
                                dataPreprocessor: any DataPreprocessor = DataResponseSerializer.defaultDataPreprocessor,
                                emptyResponseCodes: Set<Int> = DataResponseSerializer.defaultEmptyResponseCodes,
                                emptyRequestMethods: Set<HTTPMethod> = DataResponseSerializer.defaultEmptyRequestMethods) -> DataTask<Data> {
        serializingResponse(using: DataResponseSerializer(dataPreprocessor: dataPreprocessor,
                                                          emptyResponseCodes: emptyResponseCodes,
                                                          emptyRequestMethods: emptyRequestMethods),
                            automaticallyCancelling: shouldAutomaticallyCancel)
    }

    /// A `DataTask` for the body decoded as `type`.
    public func serializingDecodable<Value: Decodable & Sendable>(
        _ type: Value.Type = Value.self,
        automaticallyCancelling shouldAutomaticallyCancel: Bool = true,
        dataPreprocessor: any DataPreprocessor = DecodableResponseSerializer<Value>.defaultDataPreprocessor,
        decoder: any DataDecoder = JSONDecoder(),
        emptyResponseCodes: Set<Int> = DecodableResponseSerializer<Value>.defaultEmptyResponseCodes,
        emptyRequestMethods: Set<HTTPMethod> = DecodableResponseSerializer<Value>.defaultEmptyRequestMethods
    ) -> DataTask<Value> {
        serializingResponse(using: DecodableResponseSerializer<Value>(dataPreprocessor: dataPreprocessor, decoder: decoder,
                                                                      emptyResponseCodes: emptyResponseCodes,
                                                                      emptyRequestMethods: emptyRequestMethods),
                            automaticallyCancelling: shouldAutomaticallyCancel)
    }

    /// A `DataTask` for the body as a `String`.
    public func serializingString(automaticallyCancelling shouldAutomaticallyCancel: Bool = true,
                                  dataPreprocessor: any DataPreprocessor = StringResponseSerializer.defaultDataPreprocessor,
                                  encoding: String.Encoding? = nil,
                                  emptyResponseCodes: Set<Int> = StringResponseSerializer.defaultEmptyResponseCodes,
                                  emptyRequestMethods: Set<HTTPMethod> = StringResponseSerializer.defaultEmptyRequestMethods) -> DataTask<String> {
        serializingResponse(using: StringResponseSerializer(dataPreprocessor: dataPreprocessor, encoding: encoding,
                                                            emptyResponseCodes: emptyResponseCodes,
                                                            emptyRequestMethods: emptyRequestMethods),
                            automaticallyCancelling: shouldAutomaticallyCancel)
    }

    /// A `DataTask` for what `serializer` makes of the response.
    public func serializingResponse<Serializer: DataResponseSerializerProtocol>(
        using serializer: Serializer,
        automaticallyCancelling shouldAutomaticallyCancel: Bool = true
    ) -> DataTask<Serializer.SerializedObject> {
        dataTask(serializingWith: serializer, automaticallyCancelling: shouldAutomaticallyCancel)
    }

    /// The same for a `ResponseSerializer`, so that its static shorthands (`.data`, `.string`,
    /// `.decodable(of:)`) can be named here.
    public func serializingResponse<Serializer: ResponseSerializer>(
        using serializer: Serializer,
        automaticallyCancelling shouldAutomaticallyCancel: Bool = true
    ) -> DataTask<Serializer.SerializedObject> {
        dataTask(serializingWith: serializer, automaticallyCancelling: shouldAutomaticallyCancel)
    }

    private func dataTask<Serializer: DataResponseSerializerProtocol>(
        serializingWith serializer: Serializer, automaticallyCancelling shouldAutomaticallyCancel: Bool
    ) -> DataTask<Serializer.SerializedObject> {
        // The handler resumes the waiting tasks where the serializers finished (on the idle
        // engine, once it left the request's queue: see `DeferredResumptions`).
        let awaited = AwaitedResponse<DataResponse<Serializer.SerializedObject, AFError>>()
        response(on: nil, responseSerializer: serializer, completionHandler: awaited.deliverer(recording: handOffs))
        return DataTask(request: self, awaited: awaited, shouldAutomaticallyCancel: shouldAutomaticallyCancel)
    }
}
