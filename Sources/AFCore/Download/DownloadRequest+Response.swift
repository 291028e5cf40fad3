import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension DownloadRequest {
    /// Calls `completionHandler` on `queue` with the unserialized response (the file URL).
    @discardableResult
    public func response(queue: DispatchQueue = .main,
                         completionHandler: @escaping @Sendable (AFDownloadResponse<URL?>) -> Void) -> Self {
        appendResponseSerializer {
            let result = AFResult<URL?>(value: self.fileURL, error: self.error)
            let response = self.downloadResponse(serializationDuration: 0, result: result)
            self.emit(.requestDidParseDownloadResponse) { $0.request(self, didParseResponse: response) }
            self.responseSerializerDidComplete { queue.async(recording: self.handOffs) { completionHandler(response) } }
        }
        return self
    }

    /// Calls `completionHandler` on `queue` with what `responseSerializer` made of the download.
    @discardableResult
    public func response<Serializer: DownloadResponseSerializerProtocol>(
        queue: DispatchQueue = .main,
        responseSerializer: Serializer,
        completionHandler: @escaping @Sendable (AFDownloadResponse<Serializer.SerializedObject>) -> Void
    ) -> Self {
        response(on: queue, responseSerializer: responseSerializer, completionHandler: completionHandler)
    }

    /// As `response(queue:responseSerializer:completionHandler:)`; a nil `queue` calls the
    /// handler where the serializers finished (the async forms: it only resumes a waiter).
    @discardableResult
    func response<Serializer: DownloadResponseSerializerProtocol>(
        on queue: DispatchQueue?,
        responseSerializer: Serializer,
        completionHandler: @escaping @Sendable (AFDownloadResponse<Serializer.SerializedObject>) -> Void
    ) -> Self {
        appendResponseSerializer {
            let start = DispatchTime.now()
            let result: AFResult<Serializer.SerializedObject> = Result {
                try responseSerializer.serializeDownload(request: self.request, response: self.response,
                                                         fileURL: self.fileURL, error: self.error)
            }.mapError { error in
                error.asAFError(or: .responseSerializationFailed(reason: .customSerializationFailed(error: error)))
            }
            let response = self.downloadResponse(serializationDuration: start.secondsUntilNow,
                                                 result: result)
            self.emit(.withoutClosure) { $0.request(self, didParseResponse: response) }
            self.completeOrRetry(serializationError: response.error) { retryError in
                let delivered = retryError.map { response.replacing(.failure($0)) } ?? response
                queue.asyncOrNow(recording: self.handOffs) { completionHandler(delivered) }
            }
        }
        return self
    }

    /// Calls `completionHandler` on `queue` with the downloaded file's URL.
    @discardableResult
    public func responseURL(queue: DispatchQueue = .main,
                            completionHandler: @escaping @Sendable (AFDownloadResponse<URL>) -> Void) -> Self {
        response(queue: queue, responseSerializer: URLResponseSerializer(), completionHandler: completionHandler)
    }

    /// Calls `completionHandler` on `queue` with the file's contents as `Data`.
    @discardableResult
    public func responseData(queue: DispatchQueue = .main,
                             dataPreprocessor: any DataPreprocessor = DataResponseSerializer.defaultDataPreprocessor,
                             emptyResponseCodes: Set<Int> = DataResponseSerializer.defaultEmptyResponseCodes,
                             emptyRequestMethods: Set<HTTPMethod> = DataResponseSerializer.defaultEmptyRequestMethods,
                             completionHandler: @escaping @Sendable (AFDownloadResponse<Data>) -> Void) -> Self {
        response(queue: queue,
                 responseSerializer: DataResponseSerializer(dataPreprocessor: dataPreprocessor,
                                                            emptyResponseCodes: emptyResponseCodes,
                                                            emptyRequestMethods: emptyRequestMethods),
                 completionHandler: completionHandler)
    }

    /// Calls `completionHandler` on `queue` with the file's contents as a `String`.
    @discardableResult
    public func responseString(queue: DispatchQueue = .main,
                               dataPreprocessor: any DataPreprocessor = StringResponseSerializer.defaultDataPreprocessor,
                               encoding: String.Encoding? = nil,
                               emptyResponseCodes: Set<Int> = StringResponseSerializer.defaultEmptyResponseCodes,
                               emptyRequestMethods: Set<HTTPMethod> = StringResponseSerializer.defaultEmptyRequestMethods,
                               completionHandler: @escaping @Sendable (AFDownloadResponse<String>) -> Void) -> Self {
        response(queue: queue,
                 responseSerializer: StringResponseSerializer(dataPreprocessor: dataPreprocessor, encoding: encoding,
                                                              emptyResponseCodes: emptyResponseCodes,
                                                              emptyRequestMethods: emptyRequestMethods),
                 completionHandler: completionHandler)
    }

    /// Calls `completionHandler` on `queue` with the file's contents decoded as `type`.
    @discardableResult
    public func responseDecodable<T: Decodable & Sendable>(
        of type: T.Type = T.self,
        queue: DispatchQueue = .main,
        dataPreprocessor: any DataPreprocessor = DecodableResponseSerializer<T>.defaultDataPreprocessor,
        decoder: any DataDecoder = JSONDecoder(),
        emptyResponseCodes: Set<Int> = DecodableResponseSerializer<T>.defaultEmptyResponseCodes,
        emptyRequestMethods: Set<HTTPMethod> = DecodableResponseSerializer<T>.defaultEmptyRequestMethods,
        completionHandler: @escaping @Sendable (AFDownloadResponse<T>) -> Void
    ) -> Self {
        response(queue: queue,
                 responseSerializer: DecodableResponseSerializer<T>(dataPreprocessor: dataPreprocessor, decoder: decoder,
                                                                    emptyResponseCodes: emptyResponseCodes,
                                                                    emptyRequestMethods: emptyRequestMethods),
                 completionHandler: completionHandler)
    }

    private func downloadResponse<Value>(serializationDuration: TimeInterval,
                                         result: AFResult<Value>) -> AFDownloadResponse<Value> {
        DownloadResponse(request: request, response: response, fileURL: fileURL, resumeData: resumeData,
                         metrics: metrics, serializationDuration: serializationDuration, result: result)
    }
}
