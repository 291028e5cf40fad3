import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Serializes a body with `JSONSerialization`; an empty body the rules allow is `NSNull`.
/// Deprecated as in Alamofire: decode `Decodable` types instead.
///
/// Unlike Alamofire's, it is not a `ResponseSerializer`: its value, `Any`, cannot be `Sendable`,
/// which Swift 6 requires of a serializer's value. `responseJSON` and `serialize` work as there.
@available(*, deprecated, message: "JSONResponseSerializer deprecated and will be removed in Alamofire 6. Use DecodableResponseSerializer instead.")
public final class JSONResponseSerializer: Sendable {
    /// The preprocessor used unless one is given: none.
    public static var defaultDataPreprocessor: any DataPreprocessor { JSONObjectSerializer.defaultDataPreprocessor }
    /// Status codes whose empty body is accepted: 204 and 205.
    public static var defaultEmptyResponseCodes: Set<Int> { JSONObjectSerializer.defaultEmptyResponseCodes }
    /// Methods whose empty response is accepted: HEAD.
    public static var defaultEmptyRequestMethods: Set<HTTPMethod> { JSONObjectSerializer.defaultEmptyRequestMethods }

    let serializer: JSONObjectSerializer

    /// Runs on the body before it is read.
    public var dataPreprocessor: any DataPreprocessor { serializer.dataPreprocessor }
    /// Status codes whose empty body is accepted.
    public var emptyResponseCodes: Set<Int> { serializer.emptyResponseCodes }
    /// Methods whose empty response is accepted.
    public var emptyRequestMethods: Set<HTTPMethod> { serializer.emptyRequestMethods }
    /// How `JSONSerialization` reads the body.
    public var options: JSONSerialization.ReadingOptions { serializer.options }

    /// Creates a serializer; `options` default to `.allowFragments`.
    public init(dataPreprocessor: any DataPreprocessor = JSONResponseSerializer.defaultDataPreprocessor,
                emptyResponseCodes: Set<Int> = JSONResponseSerializer.defaultEmptyResponseCodes,
                emptyRequestMethods: Set<HTTPMethod> = JSONResponseSerializer.defaultEmptyRequestMethods,
                options: JSONSerialization.ReadingOptions = .allowFragments) {
        serializer = JSONObjectSerializer(dataPreprocessor: dataPreprocessor, emptyResponseCodes: emptyResponseCodes,
                                          emptyRequestMethods: emptyRequestMethods, options: options)
    }

    /// The JSON object of the body; `jsonSerializationFailed` when it is not JSON.
    public func serialize(request: URLRequest?, response: HTTPURLResponse?, data: Data?, error: (any Error)?) throws -> Any {
        try serializer.serialize(request: request, response: response, data: data, error: error).value
    }

    /// The JSON object of the downloaded file's content.
    public func serializeDownload(request: URLRequest?, response: HTTPURLResponse?, fileURL: URL?, error: (any Error)?) throws -> Any {
        try serializer.serializeDownload(request: request, response: response, fileURL: fileURL, error: error).value
    }

    /// Whether an empty body is acceptable for this request and response.
    public func emptyResponseAllowed(forRequest request: URLRequest?, response: HTTPURLResponse?) -> Bool {
        serializer.emptyResponseAllowed(forRequest: request, response: response)
    }

    /// Whether the request's method allows an empty response (`nil` without a request).
    public func requestAllowsEmptyResponseData(_ request: URLRequest?) -> Bool? {
        serializer.requestAllowsEmptyResponseData(request)
    }

    /// Whether the response's status allows an empty response (`nil` without a response).
    public func responseAllowsEmptyResponseData(_ response: HTTPURLResponse?) -> Bool? {
        serializer.responseAllowsEmptyResponseData(response)
    }
}

/// What a `JSONSerialization` object is handed over in: immutable Foundation collections.
struct JSONObject: @unchecked Sendable {
    let value: Any
}

/// The serializer behind `JSONResponseSerializer` and `responseJSON`.
struct JSONObjectSerializer: ResponseSerializer {
    let dataPreprocessor: any DataPreprocessor
    let emptyResponseCodes: Set<Int>
    let emptyRequestMethods: Set<HTTPMethod>
    let options: JSONSerialization.ReadingOptions

    func serialize(request: URLRequest?, response: HTTPURLResponse?, data: Data?, error: (any Error)?) throws -> JSONObject {
        guard let data = try bodyToSerialize(request: request, response: response, data: data, error: error) else {
            return JSONObject(value: NSNull())
        }
        do {
            return JSONObject(value: try JSONSerialization.jsonObject(with: data, options: options))
        } catch {
            throw AFError.responseSerializationFailed(reason: .jsonSerializationFailed(error: error))
        }
    }
}

extension DataRequest {
    /// Adds a handler that gets the body as a `JSONSerialization` object.
    @available(*, deprecated, message: "responseJSON deprecated and will be removed in Alamofire 6. Use responseDecodable instead.")
    @discardableResult
    public func responseJSON(queue: DispatchQueue = .main,
                             dataPreprocessor: any DataPreprocessor = JSONResponseSerializer.defaultDataPreprocessor,
                             emptyResponseCodes: Set<Int> = JSONResponseSerializer.defaultEmptyResponseCodes,
                             emptyRequestMethods: Set<HTTPMethod> = JSONResponseSerializer.defaultEmptyRequestMethods,
                             options: JSONSerialization.ReadingOptions = .allowFragments,
                             completionHandler: @escaping @Sendable (AFDataResponse<Any>) -> Void) -> Self {
        response(queue: queue,
                 responseSerializer: JSONObjectSerializer(dataPreprocessor: dataPreprocessor, emptyResponseCodes: emptyResponseCodes,
                                                          emptyRequestMethods: emptyRequestMethods, options: options)) {
            completionHandler($0.map(\.value))
        }
    }
}

extension DownloadRequest {
    /// Adds a handler that gets the downloaded file's content as a `JSONSerialization` object.
    @available(*, deprecated, message: "responseJSON deprecated and will be removed in Alamofire 6. Use responseDecodable instead.")
    @discardableResult
    public func responseJSON(queue: DispatchQueue = .main,
                             dataPreprocessor: any DataPreprocessor = JSONResponseSerializer.defaultDataPreprocessor,
                             emptyResponseCodes: Set<Int> = JSONResponseSerializer.defaultEmptyResponseCodes,
                             emptyRequestMethods: Set<HTTPMethod> = JSONResponseSerializer.defaultEmptyRequestMethods,
                             options: JSONSerialization.ReadingOptions = .allowFragments,
                             completionHandler: @escaping @Sendable (AFDownloadResponse<Any>) -> Void) -> Self {
        response(queue: queue,
                 responseSerializer: JSONObjectSerializer(dataPreprocessor: dataPreprocessor, emptyResponseCodes: emptyResponseCodes,
                                                          emptyRequestMethods: emptyRequestMethods, options: options)) {
            completionHandler($0.map(\.value))
        }
    }
}
