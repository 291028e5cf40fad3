import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `DownloadResponse` with `AFError` failures.
public typealias AFDownloadResponse<Success> = DownloadResponse<Success, AFError>

/// Everything a download produced and what its serializer made of it.
public struct DownloadResponse<Success, Failure: Error>: @unchecked Sendable {
    /// The `URLRequest` sent.
    public let request: URLRequest?
    /// The response received (its `HTTPURLResponse` built when first read).
    public var response: HTTPURLResponse? { received?.httpResponse }
    /// The response as received.
    let received: ReceivedResponse?
    /// Where the downloaded file was moved.
    public let fileURL: URL?
    /// Data to continue the download with, when it stopped part way.
    public let resumeData: Data?
    /// The metrics of the final attempt.
    public let metrics: TaskMetrics?
    /// Seconds the serializer took.
    public let serializationDuration: TimeInterval
    /// The serialized value or the failure.
    public let result: Result<Success, Failure>

    /// The value on success.
    public var value: Success? { try? result.get() }
    /// The error on failure.
    public var error: Failure? {
        guard case let .failure(error) = result else { return nil }
        return error
    }

    /// Creates a response.
    public init(request: URLRequest?, response: HTTPURLResponse?, fileURL: URL?, resumeData: Data?,
                metrics: TaskMetrics?, serializationDuration: TimeInterval, result: Result<Success, Failure>) {
        self.init(request: request, received: response.map(ReceivedResponse.init), fileURL: fileURL,
                  resumeData: resumeData, metrics: metrics, serializationDuration: serializationDuration, result: result)
    }

    /// Creates a response whose `HTTPURLResponse` is built only if read.
    init(request: URLRequest?, received: ReceivedResponse?, fileURL: URL?, resumeData: Data?,
         metrics: TaskMetrics?, serializationDuration: TimeInterval, result: Result<Success, Failure>) {
        self.request = request
        self.received = received
        self.fileURL = fileURL
        self.resumeData = resumeData
        self.metrics = metrics
        self.serializationDuration = serializationDuration
        self.result = result
    }

    /// The same response with the success value transformed.
    public func map<NewSuccess>(_ transform: (Success) -> NewSuccess) -> DownloadResponse<NewSuccess, Failure> {
        replacing(result.map(transform))
    }

    /// The same response with the success value transformed; a thrown error becomes the failure.
    public func tryMap<NewSuccess>(_ transform: (Success) throws -> NewSuccess) -> DownloadResponse<NewSuccess, any Error> {
        replacing(result.tryMap(transform))
    }

    /// The same response with the failure transformed.
    public func mapError<NewFailure: Error>(_ transform: (Failure) -> NewFailure) -> DownloadResponse<Success, NewFailure> {
        replacing(result.mapError(transform))
    }

    /// The same response with the failure transformed; a thrown error becomes the failure.
    public func tryMapError<NewFailure: Error>(_ transform: (Failure) throws -> NewFailure) -> DownloadResponse<Success, any Error> {
        replacing(result.tryMapError(transform))
    }

    func replacing<S, F>(_ result: Result<S, F>) -> DownloadResponse<S, F> {
        DownloadResponse<S, F>(request: request, received: received, fileURL: fileURL, resumeData: resumeData,
                               metrics: metrics, serializationDuration: serializationDuration, result: result)
    }
}

extension DownloadResponse: CustomStringConvertible, CustomDebugStringConvertible {
    /// The result, as text.
    public var description: String { "\(result)" }

    /// Request, response, file, resume data size, timings and result.
    public var debugDescription: String {
        guard let urlRequest = request else { return "[Request]: None\n[Result]: \(result)" }
        let responseDescription = response.map { response in
            """
            [Response]:
                [Status Code]: \(response.statusCode)
                [Headers]:
            \(DebugDescription.headers(response.headers))
            """
        } ?? "[Response]: None"
        let networkDuration = metrics.map { "\($0.taskInterval.duration)s" } ?? "None"
        return """
        \(DebugDescription.of(urlRequest))
        \(responseDescription)
        [File URL]: \(fileURL?.path ?? "None")
        [Resume Data]: \(resumeData.map { "\($0.count) bytes" } ?? "None")
        [Network Duration]: \(networkDuration)
        [Serialization Duration]: \(serializationDuration)s
        [Result]: \(result)
        """
    }
}
