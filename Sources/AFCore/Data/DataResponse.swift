import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `DataResponse` with `AFError` failures.
public typealias AFDataResponse<Success> = DataResponse<Success, AFError>
/// `Result` with `AFError` failures.
public typealias AFResult<Success> = Result<Success, AFError>

/// Everything a data request produced and what its serializer made of it.
public struct DataResponse<Success, Failure: Error>: @unchecked Sendable {
    /// The `URLRequest` sent.
    public let request: URLRequest?
    /// The response received (its `HTTPURLResponse` built when first read).
    public var response: HTTPURLResponse? { received?.httpResponse }
    /// The response as received.
    let received: ReceivedResponse?
    /// The body received.
    public let data: Data?
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
    public init(request: URLRequest?, response: HTTPURLResponse?, data: Data?, metrics: TaskMetrics?,
                serializationDuration: TimeInterval, result: Result<Success, Failure>) {
        self.init(request: request, received: response.map(ReceivedResponse.init), data: data, metrics: metrics,
                  serializationDuration: serializationDuration, result: result)
    }

    /// Creates a response whose `HTTPURLResponse` is built only if read.
    init(request: URLRequest?, received: ReceivedResponse?, data: Data?, metrics: TaskMetrics?,
         serializationDuration: TimeInterval, result: Result<Success, Failure>) {
        self.request = request
        self.received = received
        self.data = data
        self.metrics = metrics
        self.serializationDuration = serializationDuration
        self.result = result
    }

    /// The same response with the success value transformed.
    public func map<NewSuccess>(_ transform: (Success) -> NewSuccess) -> DataResponse<NewSuccess, Failure> {
        replacing(result.map(transform))
    }

    /// The same response with the success value transformed; a thrown error becomes the failure.
    public func tryMap<NewSuccess>(_ transform: (Success) throws -> NewSuccess) -> DataResponse<NewSuccess, any Error> {
        replacing(result.tryMap(transform))
    }

    /// The same response with the failure transformed.
    public func mapError<NewFailure: Error>(_ transform: (Failure) -> NewFailure) -> DataResponse<Success, NewFailure> {
        replacing(result.mapError(transform))
    }

    /// The same response with the failure transformed; a thrown error becomes the failure.
    public func tryMapError<NewFailure: Error>(_ transform: (Failure) throws -> NewFailure) -> DataResponse<Success, any Error> {
        replacing(result.tryMapError(transform))
    }

    /// The same response with `result` instead of its own.
    func replacing<S, F>(_ result: Result<S, F>) -> DataResponse<S, F> {
        DataResponse<S, F>(request: request, received: received, data: data, metrics: metrics,
                           serializationDuration: serializationDuration, result: result)
    }
}

extension DataResponse: CustomStringConvertible, CustomDebugStringConvertible {
    /// The result, as text.
    public var description: String { "\(result)" }

    /// Request, response, body (when textual and small), timings and result.
    public var debugDescription: String {
        guard let urlRequest = request else { return "[Request]: None\n[Result]: \(result)" }
        let requestDescription = DebugDescription.of(urlRequest)
        let responseDescription = response.map { response in
            let body = DebugDescription.printableBody(data, contentType: response.value(forHTTPHeaderField: "Content-Type"))
            return """
            [Response]:
                [Status Code]: \(response.statusCode)
                [Headers]:
            \(DebugDescription.headers(response.headers))
                [Body]: \(body)
            """
        } ?? "[Response]: None"
        let networkDuration = metrics.map { "\($0.taskInterval.duration)s" } ?? "None"
        return """
        \(requestDescription)
        \(responseDescription)
        [Network Duration]: \(networkDuration)
        [Serialization Duration]: \(serializationDuration)s
        [Result]: \(result)
        """
    }
}

enum DebugDescription {
    static let maximumBodyLength = 100_000

    static func of(_ request: URLRequest) -> String {
        let method = request.httpMethod ?? "GET"
        let url = request.url?.absoluteString ?? "None"
        let body = printableBody(request.httpBody, contentType: request.value(forHTTPHeaderField: "Content-Type"))
        return """
        [Request]: \(method) \(url)
            [Headers]:
        \(headers(request.headers))
            [Body]: \(body)
        """
    }

    static func headers(_ headers: HTTPHeaders) -> String {
        guard !headers.isEmpty else { return "        None" }
        return headers.sorted().map { "        \($0.description)" }.joined(separator: "\n")
    }

    static func printableBody(_ data: Data?, contentType: String?) -> String {
        guard let data, !data.isEmpty else { return "None" }
        let printable = ["json", "xml", "text"].contains { contentType?.contains($0) ?? false }
        guard printable, data.count <= maximumBodyLength else { return "\(data.count) bytes" }
        return String(decoding: data, as: UTF8.self)
    }
}
