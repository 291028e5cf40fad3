import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Encodes an `Encodable` value into a `URLRequest`.
public protocol ParameterEncoder: Sendable {
    /// Returns `request` with `parameters` encoded into it, or throws an `AFError`.
    func encode<Parameters: Encodable & Sendable>(_ parameters: Parameters?, into request: URLRequest) throws -> URLRequest
}

/// Encodes parameters as a JSON body with a `JSONEncoder`; sets `Content-Type: application/json` if missing.
open class JSONParameterEncoder: @unchecked Sendable, ParameterEncoder {
    /// Default `JSONEncoder`.
    public static var `default`: JSONParameterEncoder { JSONParameterEncoder() }

    /// Pretty-printed output.
    public static var prettyPrinted: JSONParameterEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .prettyPrinted
        return JSONParameterEncoder(encoder: encoder)
    }

    /// Keys sorted in the output.
    public static var sortedKeys: JSONParameterEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return JSONParameterEncoder(encoder: encoder)
    }

    /// The encoder used; configure it before the first request, it is not copied.
    public let encoder: JSONEncoder

    /// Creates an instance with a `JSONEncoder`.
    public init(encoder: JSONEncoder = JSONEncoder()) {
        self.encoder = encoder
    }

    open func encode<Parameters: Encodable & Sendable>(_ parameters: Parameters?,
                                                        into request: URLRequest) throws -> URLRequest {
        guard let parameters else { return request }
        var request = request
        do {
            request.httpBody = try encoder.encode(parameters)
            if request.headers["Content-Type"] == nil {
                request.headers.update(.contentType("application/json"))
            }
        } catch {
            throw AFError.parameterEncodingFailed(reason: .jsonEncodingFailed(error: error))
        }
        return request
    }
}

extension ParameterEncoder where Self == JSONParameterEncoder {
    /// The default `JSONParameterEncoder`.
    public static var json: JSONParameterEncoder { JSONParameterEncoder() }

    /// A `JSONParameterEncoder` with `encoder`.
    public static func json(encoder: JSONEncoder = JSONEncoder()) -> JSONParameterEncoder {
        JSONParameterEncoder(encoder: encoder)
    }
}

/// Encodes parameters as a form string with a `URLEncodedFormEncoder`, into the query or the body.
open class URLEncodedFormParameterEncoder: @unchecked Sendable, ParameterEncoder {
    /// Where the encoded string goes.
    public enum Destination: Sendable {
        /// The query for `GET`, `HEAD` and `DELETE`; the body otherwise.
        case methodDependent
        /// Always the query string.
        case queryString
        /// Always the body.
        case httpBody

        func encodesParametersInURL(for method: HTTPMethod) -> Bool {
            switch self {
            case .methodDependent: method.carriesParametersInQuery
            case .queryString: true
            case .httpBody: false
            }
        }
    }

    /// Default encoder, method-dependent destination.
    public static var `default`: URLEncodedFormParameterEncoder { URLEncodedFormParameterEncoder() }

    /// The encoder used.
    public let encoder: URLEncodedFormEncoder
    /// Where the encoded string goes.
    public let destination: Destination

    /// Creates an instance.
    public init(encoder: URLEncodedFormEncoder = URLEncodedFormEncoder(), destination: Destination = .methodDependent) {
        self.encoder = encoder
        self.destination = destination
    }

    open func encode<Parameters: Encodable & Sendable>(_ parameters: Parameters?,
                                                        into request: URLRequest) throws -> URLRequest {
        guard let parameters else { return request }
        var request = request

        guard let url = request.url else {
            throw AFError.parameterEncoderFailed(reason: .missingRequiredComponent(.url))
        }
        guard let method = request.method else {
            let rawValue = request.httpMethod ?? "nil"
            throw AFError.parameterEncoderFailed(reason: .missingRequiredComponent(.httpMethod(rawValue: rawValue)))
        }

        if destination.encodesParametersInURL(for: method),
           var components = URLComponents(url: url, resolvingAgainstBaseURL: false) {
            let query: String = try Result<String, any Error> { try encoder.encode(parameters) }
                .mapError { AFError.parameterEncoderFailed(reason: .encoderFailed(error: $0)) }.get()
            let newQueryString = [components.percentEncodedQuery, query].compactMap { $0 }.joinedWithAmpersands()
            // URLComponents traps on a query it cannot hold: an encoder whose allowedCharacters
            // leave such characters raw fails here instead.
            guard QueryCharacters.isValidPercentEncodedQuery(newQueryString) else {
                throw AFError.parameterEncoderFailed(reason: .encoderFailed(error: URLError(.badURL, userInfo: [
                    NSLocalizedDescriptionKey: "The encoded query holds characters a URL query cannot carry unescaped; "
                        + "the encoder's allowedCharacters let them through.",
                ])))
            }
            components.percentEncodedQuery = newQueryString.isEmpty ? nil : newQueryString
            guard let newURL = components.url else {
                throw AFError.parameterEncoderFailed(reason: .missingRequiredComponent(.url))
            }
            request.url = newURL
        } else {
            if request.headers["Content-Type"] == nil {
                request.headers.update(.contentType("application/x-www-form-urlencoded; charset=utf-8"))
            }
            request.httpBody = try Result<Data, any Error> { try encoder.encode(parameters) }
                .mapError { AFError.parameterEncoderFailed(reason: .encoderFailed(error: $0)) }.get()
        }
        return request
    }
}

extension ParameterEncoder where Self == URLEncodedFormParameterEncoder {
    /// The default `URLEncodedFormParameterEncoder`.
    public static var urlEncodedForm: URLEncodedFormParameterEncoder { URLEncodedFormParameterEncoder() }

    /// A `URLEncodedFormParameterEncoder` with `encoder` and `destination`.
    public static func urlEncodedForm(encoder: URLEncodedFormEncoder = URLEncodedFormEncoder(),
                                      destination: URLEncodedFormParameterEncoder.Destination = .methodDependent)
        -> URLEncodedFormParameterEncoder {
        URLEncodedFormParameterEncoder(encoder: encoder, destination: destination)
    }
}

extension [String] {
    func joinedWithAmpersands() -> String { joined(separator: "&") }
}
