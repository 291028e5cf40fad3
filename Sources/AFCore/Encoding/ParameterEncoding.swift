import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Parameters for `ParameterEncoding`: a dictionary of property-list-like values.
public typealias Parameters = [String: any Any & Sendable]

/// Encodes a `Parameters` dictionary into a `URLRequest`.
public protocol ParameterEncoding: Sendable {
    /// Returns `urlRequest` with `parameters` applied, or throws an `AFError`.
    func encode(_ urlRequest: any URLRequestConvertible, with parameters: Parameters?) throws -> URLRequest
}

/// Encodes parameters as a URL query string or a form body (`application/x-www-form-urlencoded`).
///
/// Keys are sorted. Nested dictionaries become `key[sub]`; arrays follow `arrayEncoding`.
public struct URLEncoding: ParameterEncoding {
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

    /// How array keys are written.
    public enum ArrayEncoding: Sendable {
        /// `key[]=value`.
        case brackets
        /// `key=value`.
        case noBrackets
        /// `key[index]=value`.
        case indexInBrackets
        /// A key made by the closure from the key and the index.
        case custom(@Sendable (_ key: String, _ index: Int) -> String)

        func encode(key: String, atIndex index: Int) -> String {
            switch self {
            case .brackets: "\(key)[]"
            case .noBrackets: key
            case .indexInBrackets: "\(key)[\(index)]"
            case let .custom(encoding): encoding(key, index)
            }
        }
    }

    /// How booleans are written.
    public enum BoolEncoding: Sendable {
        /// `1` and `0`.
        case numeric
        /// `true` and `false`.
        case literal

        func encode(value: Bool) -> String {
            switch self {
            case .numeric: value ? "1" : "0"
            case .literal: value ? "true" : "false"
            }
        }
    }

    /// Method-dependent destination, brackets, numeric booleans.
    public static var `default`: URLEncoding { URLEncoding() }
    /// Always the query string.
    public static var queryString: URLEncoding { URLEncoding(destination: .queryString) }
    /// Always the body.
    public static var httpBody: URLEncoding { URLEncoding(destination: .httpBody) }

    // The array encoding (16 bytes) is declared first, so the two one-byte enums pack after it:
    // 18 bytes in all, which fit the 24-byte inline storage of `any ParameterEncoding`, as the
    // default encoding is passed when a request names none. With `destination` first, padding
    // made it 25 bytes and a heap box for each request.
    /// How array keys are written.
    public let arrayEncoding: ArrayEncoding
    /// Where the encoded string goes.
    public let destination: Destination
    /// How booleans are written.
    public let boolEncoding: BoolEncoding

    /// Creates an encoding.
    public init(destination: Destination = .methodDependent,
                arrayEncoding: ArrayEncoding = .brackets,
                boolEncoding: BoolEncoding = .numeric) {
        self.destination = destination
        self.arrayEncoding = arrayEncoding
        self.boolEncoding = boolEncoding
    }

    public func encode(_ urlRequest: any URLRequestConvertible, with parameters: Parameters?) throws -> URLRequest {
        var urlRequest = try urlRequest.asURLRequest()
        guard let parameters else { return urlRequest }

        let method = urlRequest.method ?? .get
        if destination.encodesParametersInURL(for: method) {
            guard let url = urlRequest.url else {
                throw AFError.parameterEncodingFailed(reason: .missingURL)
            }
            if var components = URLComponents(url: url, resolvingAgainstBaseURL: false), !parameters.isEmpty {
                let existing = components.percentEncodedQuery.map { $0 + "&" } ?? ""
                components.percentEncodedQuery = existing + query(parameters)
                urlRequest.url = components.url
            }
        } else {
            if urlRequest.headers["Content-Type"] == nil {
                urlRequest.headers.update(.contentType("application/x-www-form-urlencoded; charset=utf-8"))
            }
            urlRequest.httpBody = Data(query(parameters).utf8)
        }
        return urlRequest
    }

    /// The percent-escaped `name=value` pairs for `key` and `value`, recursing into arrays and dictionaries.
    public func queryComponents(fromKey key: String, value: Any) -> [(String, String)] {
        switch value {
        case let dictionary as [String: Any]:
            return dictionary.sorted { $0.key < $1.key }.flatMap { nestedKey, value in
                queryComponents(fromKey: "\(key)[\(nestedKey)]", value: value)
            }
        case let array as [Any]:
            return array.enumerated().flatMap { index, value in
                queryComponents(fromKey: arrayEncoding.encode(key: key, atIndex: index), value: value)
            }
        // Swift's Bool, Int and Double all arrive as NSNumber here; only a Bool's is of type "c".
        case let number as NSNumber:
            return [(escape(key), escape(text(of: number)))]
        case let bool as Bool:
            return [(escape(key), escape(boolEncoding.encode(value: bool)))]
        default:
            return [(escape(key), escape("\(value)"))]
        }
    }

    /// A number as Alamofire writes it on Apple platforms: a Bool by `boolEncoding`, a whole
    /// floating-point value without its `.0` (FoundationNetworking's NSNumber writes `1.0`).
    private func text(of number: NSNumber) -> String {
        switch String(cString: number.objCType) {
        case "c": return boolEncoding.encode(value: number.boolValue)
        case "d", "f":
            let value = number.doubleValue
            if value.rounded() == value, abs(value) < 9_007_199_254_740_992 { return String(Int64(value)) }
            return "\(value)"
        default: return "\(number)"
        }
    }

    /// Percent-escapes `string` for a query component (RFC 3986), leaving `?` and `/` as they are.
    public func escape(_ string: String) -> String {
        string.addingPercentEncoding(withAllowedCharacters: .afURLQueryAllowed) ?? string
    }

    private func query(_ parameters: [String: Any]) -> String {
        parameters.keys.sorted().flatMap { key in
            queryComponents(fromKey: key, value: parameters[key]!)
        }.map { "\($0)=\($1)" }.joined(separator: "&")
    }
}

/// Encodes parameters as a JSON body with `Content-Type: application/json`.
public struct JSONEncoding: ParameterEncoding {
    /// Errors of `JSONEncoding`.
    public enum Error: Swift.Error {
        /// The value is not valid for `JSONSerialization`.
        case invalidJSONObject
    }

    /// Compact JSON.
    public static var `default`: JSONEncoding { JSONEncoding() }
    /// Pretty-printed JSON.
    public static var prettyPrinted: JSONEncoding { JSONEncoding(options: .prettyPrinted) }

    /// Options for `JSONSerialization`.
    public let options: JSONSerialization.WritingOptions

    /// Creates an encoding with `JSONSerialization` options.
    public init(options: JSONSerialization.WritingOptions = []) {
        self.options = options
    }

    public func encode(_ urlRequest: any URLRequestConvertible, with parameters: Parameters?) throws -> URLRequest {
        try encode(urlRequest, withJSONObject: parameters)
    }

    /// Returns `urlRequest` with any JSON object as its body.
    public func encode(_ urlRequest: any URLRequestConvertible, withJSONObject jsonObject: Any? = nil) throws -> URLRequest {
        var urlRequest = try urlRequest.asURLRequest()
        guard let jsonObject else { return urlRequest }
        guard JSONSerialization.isValidJSONObject(jsonObject) else {
            throw AFError.parameterEncodingFailed(reason: .jsonEncodingFailed(error: Error.invalidJSONObject))
        }
        do {
            let data = try JSONSerialization.data(withJSONObject: jsonObject, options: options)
            if urlRequest.headers["Content-Type"] == nil {
                urlRequest.headers.update(.contentType("application/json"))
            }
            urlRequest.httpBody = data
        } catch {
            throw AFError.parameterEncodingFailed(reason: .jsonEncodingFailed(error: error))
        }
        return urlRequest
    }
}

extension CharacterSet {
    /// `urlQueryAllowed` less the RFC 3986 delimiters `:#[]@` and sub-delimiters `!$&'()*+,;=`.
    public static let afURLQueryAllowed: CharacterSet = {
        let encodableDelimiters = CharacterSet(charactersIn: ":#[]@!$&'()*+,;=")
        return CharacterSet.urlQueryAllowed.subtracting(encodableDelimiters)
    }()
}
