import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension Session {
    /// Uploads `data` to `convertible` (POST by default).
    public func upload(_ data: Data, to convertible: any URLConvertible, method: HTTPMethod = .post,
                       headers: HTTPHeaders? = nil, interceptor: (any RequestInterceptor)? = nil,
                       shouldAutomaticallyResume: Bool? = nil, fileManager: FileManager = .default,
                       requestModifier: RequestModifier? = nil) -> UploadRequest {
        upload(.data(data), to: convertible, method: method, headers: headers, interceptor: interceptor,
               shouldAutomaticallyResume: shouldAutomaticallyResume, fileManager: fileManager,
               requestModifier: requestModifier)
    }

    /// Uploads `data` with a prebuilt request.
    public func upload(_ data: Data, with convertible: any URLRequestConvertible,
                       interceptor: (any RequestInterceptor)? = nil, shouldAutomaticallyResume: Bool? = nil,
                       fileManager: FileManager = .default) -> UploadRequest {
        upload(Upload(request: convertible, uploadable: UploadRequest.Uploadable.data(data)),
               interceptor: interceptor, shouldAutomaticallyResume: shouldAutomaticallyResume, fileManager: fileManager)
    }

    /// Uploads the file at `fileURL`, read as it is sent, to `convertible` (POST by default).
    public func upload(_ fileURL: URL, to convertible: any URLConvertible, method: HTTPMethod = .post,
                       headers: HTTPHeaders? = nil, interceptor: (any RequestInterceptor)? = nil,
                       shouldAutomaticallyResume: Bool? = nil, fileManager: FileManager = .default,
                       requestModifier: RequestModifier? = nil) -> UploadRequest {
        upload(.file(fileURL, shouldRemove: false), to: convertible, method: method, headers: headers,
               interceptor: interceptor, shouldAutomaticallyResume: shouldAutomaticallyResume,
               fileManager: fileManager, requestModifier: requestModifier)
    }

    /// Uploads the file at `fileURL` with a prebuilt request.
    public func upload(_ fileURL: URL, with convertible: any URLRequestConvertible,
                       interceptor: (any RequestInterceptor)? = nil, shouldAutomaticallyResume: Bool? = nil,
                       fileManager: FileManager = .default) -> UploadRequest {
        upload(Upload(request: convertible, uploadable: UploadRequest.Uploadable.file(fileURL, shouldRemove: false)),
               interceptor: interceptor, shouldAutomaticallyResume: shouldAutomaticallyResume, fileManager: fileManager)
    }

    /// Uploads what `stream` gives, read as it is sent (chunked unless a Content-Length header is
    /// set). A stream can be sent once: a 307/308 redirect fails with `requestBodyStreamExhausted`.
    public func upload(_ stream: InputStream, to convertible: any URLConvertible, method: HTTPMethod = .post,
                       headers: HTTPHeaders? = nil, interceptor: (any RequestInterceptor)? = nil,
                       fileManager: FileManager = .default, requestModifier: RequestModifier? = nil) -> UploadRequest {
        upload(.stream(stream), to: convertible, method: method, headers: headers, interceptor: interceptor,
               shouldAutomaticallyResume: nil, fileManager: fileManager, requestModifier: requestModifier)
    }

    /// Uploads what `stream` gives with a prebuilt request.
    public func upload(_ stream: InputStream, with convertible: any URLRequestConvertible,
                       interceptor: (any RequestInterceptor)? = nil, shouldAutomaticallyResume: Bool? = nil,
                       fileManager: FileManager = .default) -> UploadRequest {
        upload(Upload(request: convertible, uploadable: UploadRequest.Uploadable.stream(stream)),
               interceptor: interceptor, shouldAutomaticallyResume: shouldAutomaticallyResume, fileManager: fileManager)
    }

    /// Uploads whatever `convertible` describes.
    public func upload(_ convertible: any UploadConvertible, interceptor: (any RequestInterceptor)? = nil,
                       shouldAutomaticallyResume: Bool? = nil, fileManager: FileManager = .default) -> UploadRequest {
        let request = UploadRequest(convertible: convertible, underlyingQueue: rootQueue,
                                    serializationQueue: serializationQueue, eventMonitor: eventMonitor,
                                    interceptor: interceptor, shouldAutomaticallyResume: shouldAutomaticallyResume,
                                    fileManager: fileManager, delegate: self)
        perform(request)
        return request
    }

    func upload(_ uploadable: UploadRequest.Uploadable, to url: any URLConvertible, method: HTTPMethod,
                headers: HTTPHeaders?, interceptor: (any RequestInterceptor)?, shouldAutomaticallyResume: Bool?,
                fileManager: FileManager, requestModifier: RequestModifier?) -> UploadRequest {
        let request = RequestConvertible(url: url, method: method, parameters: nil, encoding: URLEncoding.default,
                                         headers: headers, requestModifier: requestModifier)
        return upload(Upload(request: request, uploadable: uploadable), interceptor: interceptor,
                      shouldAutomaticallyResume: shouldAutomaticallyResume, fileManager: fileManager)
    }
}
