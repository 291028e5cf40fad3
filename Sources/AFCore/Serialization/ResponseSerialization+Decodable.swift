import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Decodes the body into a `Decodable` type; an allowed empty body gives `Empty`-like values.
public final class DecodableResponseSerializer<T: Decodable & Sendable>: ResponseSerializer {
    public let dataPreprocessor: any DataPreprocessor
    /// The decoder used.
    public let decoder: any DataDecoder
    public let emptyResponseCodes: Set<Int>
    public let emptyRequestMethods: Set<HTTPMethod>

    /// Creates a serializer.
    public init(dataPreprocessor: any DataPreprocessor = DecodableResponseSerializer.defaultDataPreprocessor,
                decoder: any DataDecoder = JSONDecoder(),
                emptyResponseCodes: Set<Int> = DecodableResponseSerializer.defaultEmptyResponseCodes,
                emptyRequestMethods: Set<HTTPMethod> = DecodableResponseSerializer.defaultEmptyRequestMethods) {
        self.dataPreprocessor = dataPreprocessor
        self.decoder = decoder
        self.emptyResponseCodes = emptyResponseCodes
        self.emptyRequestMethods = emptyRequestMethods
    }

    public func serialize(request: URLRequest?, response: HTTPURLResponse?, data: Data?, error: (any Error)?) throws -> T {
        try decode(request: request, statusCode: response?.statusCode, data: data, error: error)
    }

    private func decode(request: URLRequest?, statusCode: Int?, data: Data?, error: (any Error)?) throws -> T {
        guard let data = try bodyToSerialize(request: request, statusCode: statusCode, data: data, error: error) else {
            guard let emptyResponseType = T.self as? any EmptyResponse.Type,
                  let emptyValue = emptyResponseType.emptyValue() as? T else {
                throw AFError.responseSerializationFailed(reason: .invalidEmptyResponse(type: "\(T.self)"))
            }
            return emptyValue
        }
        do {
            return try decoder.decode(T.self, from: data)
        } catch {
            throw AFError.responseSerializationFailed(reason: .decodingFailed(error: error))
        }
    }
}

extension ResponseSerializer {
    /// A `DecodableResponseSerializer` for `type`.
    public static func decodable<T: Decodable & Sendable>(
        of type: T.Type,
        dataPreprocessor: any DataPreprocessor = DecodableResponseSerializer<T>.defaultDataPreprocessor,
        decoder: any DataDecoder = JSONDecoder(),
        emptyResponseCodes: Set<Int> = DecodableResponseSerializer<T>.defaultEmptyResponseCodes,
        emptyRequestMethods: Set<HTTPMethod> = DecodableResponseSerializer<T>.defaultEmptyRequestMethods
    ) -> DecodableResponseSerializer<T> where Self == DecodableResponseSerializer<T> {
        DecodableResponseSerializer<T>(dataPreprocessor: dataPreprocessor, decoder: decoder,
                                       emptyResponseCodes: emptyResponseCodes, emptyRequestMethods: emptyRequestMethods)
    }
}

extension DecodableResponseSerializer: StatusReadingSerializer {
    func serializeReadingStatus(request: URLRequest?, statusCode: Int?, data: Data?, error: (any Error)?) throws -> Any {
        try decode(request: request, statusCode: statusCode, data: data, error: error)
    }
}
