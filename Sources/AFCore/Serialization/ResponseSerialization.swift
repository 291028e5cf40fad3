import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Turns a data request's outcome into a value.
public protocol DataResponseSerializerProtocol<SerializedObject>: Sendable {
    /// The value produced.
    associatedtype SerializedObject: Sendable

    /// The value for this outcome, or the error that explains why there is none.
    func serialize(request: URLRequest?, response: HTTPURLResponse?, data: Data?, error: (any Error)?) throws -> SerializedObject
}

/// A data serializer with preprocessing and empty-response rules.
public protocol ResponseSerializer<SerializedObject>: DataResponseSerializerProtocol & DownloadResponseSerializerProtocol {
    /// Applied to the body before serialization.
    var dataPreprocessor: any DataPreprocessor { get }
    /// Methods whose responses may be empty.
    var emptyRequestMethods: Set<HTTPMethod> { get }
    /// Status codes whose responses may be empty.
    var emptyResponseCodes: Set<Int> { get }
}

/// Transforms a body before serialization.
public protocol DataPreprocessor: Sendable {
    /// The transformed body.
    func preprocess(_ data: Data) throws -> Data
}

/// Leaves the body as it is.
public struct PassthroughPreprocessor: DataPreprocessor {
    /// A preprocessor.
    public init() {}
    public func preprocess(_ data: Data) throws -> Data { data }
}

/// Removes Google's XSSI prefix `)]}',\n` when present.
public struct GoogleXSSIPreprocessor: DataPreprocessor {
    /// A preprocessor.
    public init() {}

    public func preprocess(_ data: Data) throws -> Data {
        let prefix = Data(")]}',\n".utf8)
        return data.starts(with: prefix) ? data.dropFirst(prefix.count) : data
    }
}

extension DataPreprocessor where Self == PassthroughPreprocessor {
    /// A `PassthroughPreprocessor`.
    public static var passthrough: PassthroughPreprocessor { PassthroughPreprocessor() }
}

extension DataPreprocessor where Self == GoogleXSSIPreprocessor {
    /// A `GoogleXSSIPreprocessor`.
    public static var googleXSSI: GoogleXSSIPreprocessor { GoogleXSSIPreprocessor() }
}

/// The defaults' sets, built once: a handler added per request reads them each time.
private let emptyRequestMethodsByDefault: Set<HTTPMethod> = [.head]
private let emptyResponseCodesByDefault: Set<Int> = [204, 205]

extension ResponseSerializer {
    /// `PassthroughPreprocessor`.
    public static var defaultDataPreprocessor: any DataPreprocessor { PassthroughPreprocessor() }
    /// `[.head]`.
    public static var defaultEmptyRequestMethods: Set<HTTPMethod> { emptyRequestMethodsByDefault }
    /// `[204, 205]`.
    public static var defaultEmptyResponseCodes: Set<Int> { emptyResponseCodesByDefault }

    public var dataPreprocessor: any DataPreprocessor { Self.defaultDataPreprocessor }
    public var emptyRequestMethods: Set<HTTPMethod> { Self.defaultEmptyRequestMethods }
    public var emptyResponseCodes: Set<Int> { Self.defaultEmptyResponseCodes }

    /// Whether the request's method allows an empty response (`nil` without a request).
    public func requestAllowsEmptyResponseData(_ request: URLRequest?) -> Bool? {
        request.flatMap(\.method).map { emptyRequestMethods.contains($0) }
    }

    /// Whether the response's status allows an empty response (`nil` without a response).
    public func responseAllowsEmptyResponseData(_ response: HTTPURLResponse?) -> Bool? {
        response.map(\.statusCode).map { emptyResponseCodes.contains($0) }
    }

    /// The preprocessed body to serialize, or `nil` for an empty body this request and response allow.
    /// Rethrows the request's own error; an empty body that is not allowed is `.inputDataNilOrZeroLength`.
    func bodyToSerialize(request: URLRequest?, response: HTTPURLResponse?, data: Data?, error: (any Error)?) throws -> Data? {
        try bodyToSerialize(request: request, statusCode: response?.statusCode, data: data, error: error)
    }

    /// The same, from the response's status code alone (`nil` without a response).
    func bodyToSerialize(request: URLRequest?, statusCode: Int?, data: Data?, error: (any Error)?) throws -> Data? {
        if let error { throw error }
        guard let data, !data.isEmpty else {
            let allowed = requestAllowsEmptyResponseData(request) == true
                || statusCode.map { emptyResponseCodes.contains($0) } == true
            guard allowed else {
                throw AFError.responseSerializationFailed(reason: .inputDataNilOrZeroLength)
            }
            return nil
        }
        return try dataPreprocessor.preprocess(data)
    }

    /// Whether an empty body is acceptable for this request and response.
    public func emptyResponseAllowed(forRequest request: URLRequest?, response: HTTPURLResponse?) -> Bool {
        (requestAllowsEmptyResponseData(request) == true) || (responseAllowsEmptyResponseData(response) == true)
    }
}

/// AF's serializers that read nothing of the response but its status code (the empty-body
/// rules): a request hands them the status as received, so no `HTTPURLResponse` is built for them.
protocol StatusReadingSerializer {
    /// The serialized value (of the serializer's `SerializedObject` type).
    func serializeReadingStatus(request: URLRequest?, statusCode: Int?, data: Data?, error: (any Error)?) throws -> Any
}

/// A type with a value that stands for an empty response.
public protocol EmptyResponse: Sendable {
    /// The value for an empty response.
    static func emptyValue() -> Self
}

/// The type to decode when a response has no body.
public struct Empty: Codable, Hashable, Sendable {
    /// The single value.
    public static let value = Empty()
}

extension Empty: EmptyResponse {
    public static func emptyValue() -> Empty { value }
}

/// A decoder a `DecodableResponseSerializer` can use.
public protocol DataDecoder: Sendable {
    /// Decodes `type` from `data`.
    func decode<D: Decodable>(_ type: D.Type, from data: Data) throws -> D
}

extension JSONDecoder: DataDecoder {}
extension PropertyListDecoder: DataDecoder {}

/// Returns the body as `Data`.
public final class DataResponseSerializer: ResponseSerializer {
    public let dataPreprocessor: any DataPreprocessor
    public let emptyResponseCodes: Set<Int>
    public let emptyRequestMethods: Set<HTTPMethod>

    /// Creates a serializer.
    public init(dataPreprocessor: any DataPreprocessor = DataResponseSerializer.defaultDataPreprocessor,
                emptyResponseCodes: Set<Int> = DataResponseSerializer.defaultEmptyResponseCodes,
                emptyRequestMethods: Set<HTTPMethod> = DataResponseSerializer.defaultEmptyRequestMethods) {
        self.dataPreprocessor = dataPreprocessor
        self.emptyResponseCodes = emptyResponseCodes
        self.emptyRequestMethods = emptyRequestMethods
    }

    public func serialize(request: URLRequest?, response: HTTPURLResponse?, data: Data?, error: (any Error)?) throws -> Data {
        try bodyToSerialize(request: request, response: response, data: data, error: error) ?? Data()
    }
}

extension DataResponseSerializer: StatusReadingSerializer {
    func serializeReadingStatus(request: URLRequest?, statusCode: Int?, data: Data?, error: (any Error)?) throws -> Any {
        try bodyToSerialize(request: request, statusCode: statusCode, data: data, error: error) ?? Data()
    }
}

extension ResponseSerializer where Self == DataResponseSerializer {
    /// The default `DataResponseSerializer`.
    public static var data: DataResponseSerializer { DataResponseSerializer() }

    /// A `DataResponseSerializer` with the given rules.
    public static func data(dataPreprocessor: any DataPreprocessor = DataResponseSerializer.defaultDataPreprocessor,
                            emptyResponseCodes: Set<Int> = DataResponseSerializer.defaultEmptyResponseCodes,
                            emptyRequestMethods: Set<HTTPMethod> = DataResponseSerializer.defaultEmptyRequestMethods) -> DataResponseSerializer {
        DataResponseSerializer(dataPreprocessor: dataPreprocessor, emptyResponseCodes: emptyResponseCodes,
                               emptyRequestMethods: emptyRequestMethods)
    }
}
