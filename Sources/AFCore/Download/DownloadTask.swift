import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// An async handle on a `DownloadRequest`'s serialized response.
public struct DownloadTask<Value: Sendable>: Sendable {
    /// The serialized response; waits for it.
    public var response: DownloadResponse<Value, AFError> {
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

    @usableFromInline let request: DownloadRequest
    @usableFromInline let awaited: AwaitedResponse<DownloadResponse<Value, AFError>>
    @usableFromInline let shouldAutomaticallyCancel: Bool

    fileprivate init(request: DownloadRequest, awaited: AwaitedResponse<DownloadResponse<Value, AFError>>,
                     shouldAutomaticallyCancel: Bool) {
        self.request = request
        self.awaited = awaited
        self.shouldAutomaticallyCancel = shouldAutomaticallyCancel
    }

    /// Cancels the download (no resume data).
    public func cancel() { request.cancel() }
    /// Resumes the download.
    public func resume() { request.resume() }
    /// Suspends the download.
    public func suspend() { request.suspend() }
}

extension DownloadRequest {
    /// A `DownloadTask` for the downloaded file's URL.
    public func serializingDownloadedFileURL(automaticallyCancelling shouldAutomaticallyCancel: Bool = true) -> DownloadTask<URL> {
        serializingDownload(using: URLResponseSerializer(), automaticallyCancelling: shouldAutomaticallyCancel)
    }

    /// A `DownloadTask` for the file's contents as `Data`.
    public func serializingData(automaticallyCancelling shouldAutomaticallyCancel: Bool = true,
                                dataPreprocessor: any DataPreprocessor = DataResponseSerializer.defaultDataPreprocessor,
                                emptyResponseCodes: Set<Int> = DataResponseSerializer.defaultEmptyResponseCodes,
                                emptyRequestMethods: Set<HTTPMethod> = DataResponseSerializer.defaultEmptyRequestMethods) -> DownloadTask<Data> {
        serializingDownload(using: DataResponseSerializer(dataPreprocessor: dataPreprocessor,
                                                          emptyResponseCodes: emptyResponseCodes,
                                                          emptyRequestMethods: emptyRequestMethods),
                            automaticallyCancelling: shouldAutomaticallyCancel)
    }

    /// A `DownloadTask` for the file's contents decoded as `type`.
    public func serializingDecodable<Value: Decodable & Sendable>(
        _ type: Value.Type = Value.self,
        automaticallyCancelling shouldAutomaticallyCancel: Bool = true,
        dataPreprocessor: any DataPreprocessor = DecodableResponseSerializer<Value>.defaultDataPreprocessor,
        decoder: any DataDecoder = JSONDecoder(),
        emptyResponseCodes: Set<Int> = DecodableResponseSerializer<Value>.defaultEmptyResponseCodes,
        emptyRequestMethods: Set<HTTPMethod> = DecodableResponseSerializer<Value>.defaultEmptyRequestMethods
    ) -> DownloadTask<Value> {
        serializingDownload(using: DecodableResponseSerializer<Value>(dataPreprocessor: dataPreprocessor, decoder: decoder,
                                                                      emptyResponseCodes: emptyResponseCodes,
                                                                      emptyRequestMethods: emptyRequestMethods),
                            automaticallyCancelling: shouldAutomaticallyCancel)
    }

    /// A `DownloadTask` for the file's contents as a `String`.
    public func serializingString(automaticallyCancelling shouldAutomaticallyCancel: Bool = true,
                                  dataPreprocessor: any DataPreprocessor = StringResponseSerializer.defaultDataPreprocessor,
                                  encoding: String.Encoding? = nil,
                                  emptyResponseCodes: Set<Int> = StringResponseSerializer.defaultEmptyResponseCodes,
                                  emptyRequestMethods: Set<HTTPMethod> = StringResponseSerializer.defaultEmptyRequestMethods) -> DownloadTask<String> {
        serializingDownload(using: StringResponseSerializer(dataPreprocessor: dataPreprocessor, encoding: encoding,
                                                            emptyResponseCodes: emptyResponseCodes,
                                                            emptyRequestMethods: emptyRequestMethods),
                            automaticallyCancelling: shouldAutomaticallyCancel)
    }

    /// A `DownloadTask` for what `serializer` makes of the download.
    public func serializingDownload<Serializer: DownloadResponseSerializerProtocol>(
        using serializer: Serializer,
        automaticallyCancelling shouldAutomaticallyCancel: Bool = true
    ) -> DownloadTask<Serializer.SerializedObject> {
        downloadTask(serializingWith: serializer, automaticallyCancelling: shouldAutomaticallyCancel)
    }

    /// The same for a `ResponseSerializer`, so that its static shorthands (`.data`, `.string`,
    /// `.decodable(of:)`) can be named here.
    public func serializingDownload<Serializer: ResponseSerializer>(
        using serializer: Serializer,
        automaticallyCancelling shouldAutomaticallyCancel: Bool = true
    ) -> DownloadTask<Serializer.SerializedObject> {
        downloadTask(serializingWith: serializer, automaticallyCancelling: shouldAutomaticallyCancel)
    }

    private func downloadTask<Serializer: DownloadResponseSerializerProtocol>(
        serializingWith serializer: Serializer, automaticallyCancelling shouldAutomaticallyCancel: Bool
    ) -> DownloadTask<Serializer.SerializedObject> {
        // The handler resumes the waiting tasks directly, wherever the serializers finished.
        let awaited = AwaitedResponse<DownloadResponse<Serializer.SerializedObject, AFError>>()
        response(on: nil, responseSerializer: serializer, completionHandler: awaited.deliverer(recording: handOffs))
        return DownloadTask(request: self, awaited: awaited, shouldAutomaticallyCancel: shouldAutomaticallyCancel)
    }
}
