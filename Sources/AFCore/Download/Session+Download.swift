import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension Session {
    /// A `DownloadRequest` for `convertible` with `Parameters` encoded by `encoding`; the file
    /// goes to `destination` (by default, the temporary directory).
    public func download(_ convertible: any URLConvertible,
                         method: HTTPMethod = .get,
                         parameters: Parameters? = nil,
                         encoding: any ParameterEncoding = URLEncoding.default,
                         headers: HTTPHeaders? = nil,
                         interceptor: (any RequestInterceptor)? = nil,
                         shouldAutomaticallyResume: Bool? = nil,
                         requestModifier: RequestModifier? = nil,
                         to destination: DownloadRequest.Destination? = nil) -> DownloadRequest {
        let convertible = RequestConvertible(url: convertible, method: method, parameters: parameters,
                                             encoding: encoding, headers: headers, requestModifier: requestModifier)
        return download(convertible, interceptor: interceptor, shouldAutomaticallyResume: shouldAutomaticallyResume,
                        to: destination)
    }

    /// A `DownloadRequest` for `convertible` with `Encodable` parameters encoded by `encoder`.
    public func download<Parameters: Encodable & Sendable>(_ convertible: any URLConvertible,
                                                           method: HTTPMethod = .get,
                                                           parameters: Parameters? = nil,
                                                           encoder: any ParameterEncoder = URLEncodedFormParameterEncoder.default,
                                                           headers: HTTPHeaders? = nil,
                                                           interceptor: (any RequestInterceptor)? = nil,
                                                           shouldAutomaticallyResume: Bool? = nil,
                                                           requestModifier: RequestModifier? = nil,
                                                           to destination: DownloadRequest.Destination? = nil) -> DownloadRequest {
        let convertible = RequestEncodableConvertible(url: convertible, method: method, parameters: parameters,
                                                      encoder: encoder, headers: headers, requestModifier: requestModifier)
        return download(convertible, interceptor: interceptor, shouldAutomaticallyResume: shouldAutomaticallyResume,
                        to: destination)
    }

    /// A `DownloadRequest` for a prebuilt request.
    public func download(_ convertible: any URLRequestConvertible,
                         interceptor: (any RequestInterceptor)? = nil,
                         shouldAutomaticallyResume: Bool? = nil,
                         to destination: DownloadRequest.Destination? = nil) -> DownloadRequest {
        download(.request(convertible), interceptor: interceptor, shouldAutomaticallyResume: shouldAutomaticallyResume,
                 to: destination)
    }

    /// Continues the download `data` describes (a `DownloadRequest`'s `resumeData`): a Range
    /// request guarded by the validator the server gave; when the server sends the whole body
    /// instead, the download starts again from zero. Resume data that is not AF's fails the
    /// request with `createURLRequestFailed`.
    public func download(resumingWith data: Data,
                         interceptor: (any RequestInterceptor)? = nil,
                         shouldAutomaticallyResume: Bool? = nil,
                         to destination: DownloadRequest.Destination? = nil) -> DownloadRequest {
        download(.resumeData(data), interceptor: interceptor, shouldAutomaticallyResume: shouldAutomaticallyResume,
                 to: destination)
    }

    private func download(_ downloadable: DownloadRequest.Downloadable, interceptor: (any RequestInterceptor)?,
                          shouldAutomaticallyResume: Bool?, to destination: DownloadRequest.Destination?) -> DownloadRequest {
        let request = DownloadRequest(downloadable: downloadable, underlyingQueue: rootQueue,
                                      serializationQueue: serializationQueue, eventMonitor: eventMonitor,
                                      interceptor: interceptor, shouldAutomaticallyResume: shouldAutomaticallyResume,
                                      delegate: self, destination: destination ?? DownloadRequest.defaultDestination)
        perform(request)
        return request
    }
}
