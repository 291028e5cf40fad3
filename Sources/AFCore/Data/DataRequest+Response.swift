import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension DataRequest {
    /// Calls `completionHandler` on `queue` with the unserialized response.
    @discardableResult
    public func response(queue: DispatchQueue = .main,
                         completionHandler: @escaping @Sendable (AFDataResponse<Data?>) -> Void) -> Self {
        appendResponseSerializer(handlerQueue: HandlerQueues(queue)) {
            let result = AFResult<Data?>(value: self.data, error: self.error)
            let response = DataResponse(request: self.request, received: self.receivedResponse, data: self.data,
                                        metrics: self.metrics, serializationDuration: 0, result: result)
            self.emit(.requestDidParseResponse) { $0.request(self, didParseResponse: response) }
            self.responseSerializerDidComplete(delivering: ResponseDelivery(queue: queue) { completionHandler(response) })
        }
        return self
    }

    /// Calls `completionHandler` on `queue` with what `responseSerializer` made of the response.
    @discardableResult
    public func response<Serializer: DataResponseSerializerProtocol>(
        queue: DispatchQueue = .main,
        responseSerializer: Serializer,
        completionHandler: @escaping @Sendable (AFDataResponse<Serializer.SerializedObject>) -> Void
    ) -> Self {
        response(on: queue, responseSerializer: responseSerializer, completionHandler: completionHandler)
    }

    /// As `response(queue:responseSerializer:completionHandler:)`; a nil `queue` calls the
    /// handler where the serializers finished (the async forms: it only resumes a waiter).
    @discardableResult
    func response<Serializer: DataResponseSerializerProtocol>(
        on queue: DispatchQueue?,
        responseSerializer: Serializer,
        completionHandler: @escaping @Sendable (AFDataResponse<Serializer.SerializedObject>) -> Void
    ) -> Self {
        appendResponseSerializer(handlerQueue: HandlerQueues(queue)) {
            let start = DispatchTime.now()
            let received = self.receivedResponse
            let result: AFResult<Serializer.SerializedObject> = Result {
                try self.serialize(with: responseSerializer, received: received)
            }.mapError { error in
                error.asAFError(or: .responseSerializationFailed(reason: .customSerializationFailed(error: error)))
            }
            let duration = start.secondsUntilNow
            let response = DataResponse(request: self.request, received: received, data: self.data,
                                        metrics: self.metrics, serializationDuration: duration, result: result)
            self.emit(.withoutClosure) { $0.request(self, didParseResponse: response) }
            self.completeOrRetry(response, queue: queue, completionHandler: completionHandler)
        }
        return self
    }

    /// Calls `completionHandler` on `queue` with the body as `Data`.
    @discardableResult
    public func responseData(queue: DispatchQueue = .main,
                             dataPreprocessor: any DataPreprocessor = DataResponseSerializer.defaultDataPreprocessor,
                             emptyResponseCodes: Set<Int> = DataResponseSerializer.defaultEmptyResponseCodes,
                             emptyRequestMethods: Set<HTTPMethod> = DataResponseSerializer.defaultEmptyRequestMethods,
                             completionHandler: @escaping @Sendable (AFDataResponse<Data>) -> Void) -> Self {
        response(queue: queue,
                 responseSerializer: DataResponseSerializer(dataPreprocessor: dataPreprocessor,
                                                            emptyResponseCodes: emptyResponseCodes,
                                                            emptyRequestMethods: emptyRequestMethods),
                 completionHandler: completionHandler)
    }

    /// Calls `completionHandler` on `queue` with the body as a `String`.
    @discardableResult
    public func responseString(queue: DispatchQueue = .main,
                               dataPreprocessor: any DataPreprocessor = StringResponseSerializer.defaultDataPreprocessor,
                               encoding: String.Encoding? = nil,
                               emptyResponseCodes: Set<Int> = StringResponseSerializer.defaultEmptyResponseCodes,
                               emptyRequestMethods: Set<HTTPMethod> = StringResponseSerializer.defaultEmptyRequestMethods,
                               completionHandler: @escaping @Sendable (AFDataResponse<String>) -> Void) -> Self {
        response(queue: queue,
                 responseSerializer: StringResponseSerializer(dataPreprocessor: dataPreprocessor, encoding: encoding,
                                                              emptyResponseCodes: emptyResponseCodes,
                                                              emptyRequestMethods: emptyRequestMethods),
                 completionHandler: completionHandler)
    }

    /// Calls `completionHandler` on `queue` with the body decoded as `type`.
    @discardableResult
    public func responseDecodable<T: Decodable & Sendable>(
        of type: T.Type = T.self,
        queue: DispatchQueue = .main,
        dataPreprocessor: any DataPreprocessor = DecodableResponseSerializer<T>.defaultDataPreprocessor,
        decoder: any DataDecoder = JSONDecoder(),
        emptyResponseCodes: Set<Int> = DecodableResponseSerializer<T>.defaultEmptyResponseCodes,
        emptyRequestMethods: Set<HTTPMethod> = DecodableResponseSerializer<T>.defaultEmptyRequestMethods,
        completionHandler: @escaping @Sendable (AFDataResponse<T>) -> Void
    ) -> Self {
        response(queue: queue,
                 responseSerializer: DecodableResponseSerializer<T>(dataPreprocessor: dataPreprocessor, decoder: decoder,
                                                                    emptyResponseCodes: emptyResponseCodes,
                                                                    emptyRequestMethods: emptyRequestMethods),
                 completionHandler: completionHandler)
    }
}

extension DataRequest {
    /// What `serializer` makes of the outcome: AF's own serializers get the status code as
    /// received, any other the `HTTPURLResponse`.
    func serialize<Serializer: DataResponseSerializerProtocol>(with serializer: Serializer,
                                                               received: ReceivedResponse?) throws -> Serializer.SerializedObject {
        if let statusReading = serializer as? any StatusReadingSerializer,
           let value = try statusReading.serializeReadingStatus(request: request, statusCode: received?.statusCode,
                                                                data: data, error: error) as? Serializer.SerializedObject {
            return value
        }
        return try serializer.serialize(request: request, response: received?.httpResponse, data: data, error: error)
    }

    /// Delivers `response`, or retries when its serialization failed and a retrier asks.
    func completeOrRetry<Value>(_ response: AFDataResponse<Value>, queue: DispatchQueue?,
                                completionHandler: @escaping @Sendable (AFDataResponse<Value>) -> Void) {
        // Serialized without an error (the usual case), there is nothing to retry: the delivery
        // is kept as the handler's call and its queue, with no closure wrapping the queued call.
        guard let serializationError = response.error else {
            return responseSerializerDidComplete(delivering: ResponseDelivery(queue: queue) { completionHandler(response) })
        }
        completeOrRetry(serializationError: serializationError) { retryError in
            guard let retryError else {
                return queue.asyncOrNow(recording: self.handOffs) { completionHandler(response) }
            }
            let failed = response.replacing(Result<Value, AFError>.failure(retryError))
            queue.asyncOrNow(recording: self.handOffs) { completionHandler(failed) }
        }
    }
}
