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

    /// A `DataRequest` for `convertible` with `Parameters` encoded by `encoding`.
    public func request(_ convertible: any URLConvertible,
                      method: HTTPMethod = .get,
                      parameters: Parameters? = nil,
                      encoding: any ParameterEncoding = URLEncoding.default,
                      headers: HTTPHeaders? = nil,
                      interceptor: (any RequestInterceptor)? = nil,
                      shouldAutomaticallyResume: Bool? = nil,
                      requestModifier: RequestModifier? = nil) -> DataRequest {
        let convertible = RequestConvertible(url: convertible, method: method, parameters: parameters,
                                             encoding: encoding, headers: headers, requestModifier: requestModifier)
        return request(convertible, interceptor: interceptor, shouldAutomaticallyResume: shouldAutomaticallyResume)
    }

    /// A `DataRequest` for `convertible` with `Encodable` parameters encoded by `encoder`.
    public func request<Parameters: Encodable & Sendable>(_ convertible: any URLConvertible,
                                                        method: HTTPMethod = .get,
                                                        parameters: Parameters? = nil,
                                                        encoder: any ParameterEncoder = URLEncodedFormParameterEncoder.default,
                                                        headers: HTTPHeaders? = nil,
                                                        interceptor: (any RequestInterceptor)? = nil,
                                                        shouldAutomaticallyResume: Bool? = nil,
                                                        requestModifier: RequestModifier? = nil) -> DataRequest {
        let convertible = RequestEncodableConvertible(url: convertible, method: method, parameters: parameters,
                                                      encoder: encoder, headers: headers, requestModifier: requestModifier)
        return request(convertible, interceptor: interceptor, shouldAutomaticallyResume: shouldAutomaticallyResume)
    }

    /// A `DataRequest` for a prebuilt request.
    public func request(_ convertible: any URLRequestConvertible,
                      interceptor: (any RequestInterceptor)? = nil,
                      shouldAutomaticallyResume: Bool? = nil) -> DataRequest {
        let request = DataRequest(convertible: convertible, underlyingQueue: rootQueue,
                                  serializationQueue: serializationQueue, eventMonitor: eventMonitor,
                                  interceptor: interceptor,
                                  shouldAutomaticallyResume: shouldAutomaticallyResume, delegate: self)
        perform(request)
        return request
    }
}
