import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension Session {
    /// A `DataStreamRequest` for `convertible` with `Encodable` parameters encoded by `encoder`.
    public func streamRequest<Parameters: Encodable & Sendable>(_ convertible: any URLConvertible,
                                                                method: HTTPMethod = .get,
                                                                parameters: Parameters? = nil,
                                                                encoder: any ParameterEncoder = URLEncodedFormParameterEncoder.default,
                                                                headers: HTTPHeaders? = nil,
                                                                automaticallyCancelOnStreamError: Bool = false,
                                                                interceptor: (any RequestInterceptor)? = nil,
                                                                shouldAutomaticallyResume: Bool? = nil,
                                                                requestModifier: RequestModifier? = nil) -> DataStreamRequest {
        let convertible = RequestEncodableConvertible(url: convertible, method: method, parameters: parameters,
                                                      encoder: encoder, headers: headers, requestModifier: requestModifier)
        return streamRequest(convertible, automaticallyCancelOnStreamError: automaticallyCancelOnStreamError,
                             interceptor: interceptor, shouldAutomaticallyResume: shouldAutomaticallyResume)
    }

    /// A `DataStreamRequest` for `convertible` without parameters.
    public func streamRequest(_ convertible: any URLConvertible,
                              method: HTTPMethod = .get,
                              headers: HTTPHeaders? = nil,
                              automaticallyCancelOnStreamError: Bool = false,
                              interceptor: (any RequestInterceptor)? = nil,
                              shouldAutomaticallyResume: Bool? = nil,
                              requestModifier: RequestModifier? = nil) -> DataStreamRequest {
        let convertible = RequestConvertible(url: convertible, method: method, parameters: nil, encoding: URLEncoding.default,
                                             headers: headers, requestModifier: requestModifier)
        return streamRequest(convertible, automaticallyCancelOnStreamError: automaticallyCancelOnStreamError,
                             interceptor: interceptor, shouldAutomaticallyResume: shouldAutomaticallyResume)
    }

    /// A `DataStreamRequest` for a prebuilt request.
    public func streamRequest(_ convertible: any URLRequestConvertible,
                              automaticallyCancelOnStreamError: Bool = false,
                              interceptor: (any RequestInterceptor)? = nil,
                              shouldAutomaticallyResume: Bool? = nil) -> DataStreamRequest {
        let request = DataStreamRequest(convertible: convertible, automaticallyCancelOnStreamError: automaticallyCancelOnStreamError,
                                        underlyingQueue: rootQueue, serializationQueue: serializationQueue,
                                        eventMonitor: eventMonitor, interceptor: interceptor,
                                        shouldAutomaticallyResume: shouldAutomaticallyResume, delegate: self)
        perform(request)
        return request
    }
}
