import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension Session {
    /// Changes the `URLRequest` after it is built and before parameters are encoded into it.
    public typealias RequestModifier = @Sendable (inout URLRequest) throws -> Void

    /// A request built from a URL, a method, headers and `Parameters` with a `ParameterEncoding`.
    /// Shared with the package's other modules (AFMultipart builds its uploads with it).
    package struct RequestConvertible: URLRequestConvertible {
        let url: any URLConvertible
        let method: HTTPMethod
        let parameters: Parameters?
        let encoding: any ParameterEncoding
        let headers: HTTPHeaders?
        let requestModifier: RequestModifier?

        package init(url: any URLConvertible, method: HTTPMethod, parameters: Parameters?, encoding: any ParameterEncoding,
                     headers: HTTPHeaders?, requestModifier: RequestModifier?) {
            self.url = url
            self.method = method
            self.parameters = parameters
            self.encoding = encoding
            self.headers = headers
            self.requestModifier = requestModifier
        }

        package func asURLRequest() throws -> URLRequest {
            var request = try URLRequest(url: url, method: method, headers: headers)
            try requestModifier?(&request)
            return try encoding.encode(request, with: parameters)
        }
    }

    /// A request built from a URL, a method, headers and `Encodable` parameters with a `ParameterEncoder`.
    struct RequestEncodableConvertible<Parameters: Encodable & Sendable>: URLRequestConvertible {
        let url: any URLConvertible
        let method: HTTPMethod
        let parameters: Parameters?
        let encoder: any ParameterEncoder
        let headers: HTTPHeaders?
        let requestModifier: RequestModifier?

        func asURLRequest() throws -> URLRequest {
            var request = try URLRequest(url: url, method: method, headers: headers)
            try requestModifier?(&request)
            return try parameters.map { try encoder.encode($0, into: request) } ?? request
        }
    }

}
