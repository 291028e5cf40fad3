import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension Session {
    /// Uploads the form `multipartFormData` builds. Forms of up to `encodingMemoryThreshold`
    /// bytes are encoded in memory. A larger form is written to a private temporary file and
    /// uploaded as a `.file` removed when the request ends; one with file parts is sent from its
    /// parts instead (files read where they are, only stream parts and large `Data` parts kept in
    /// a temporary file that has no name).
    public func upload(multipartFormData: @escaping @Sendable (MultipartFormData) -> Void,
                       to url: any URLConvertible,
                       usingThreshold encodingMemoryThreshold: UInt64 = MultipartFormData.encodingMemoryThreshold,
                       method: HTTPMethod = .post,
                       headers: HTTPHeaders? = nil,
                       interceptor: (any RequestInterceptor)? = nil,
                       fileManager: FileManager = .default,
                       requestModifier: RequestModifier? = nil) -> UploadRequest {
        let request = RequestConvertible(url: url, method: method, parameters: nil, encoding: URLEncoding.default,
                                         headers: headers, requestModifier: requestModifier)
        return upload(multipartFormData: multipartFormData, with: request, usingThreshold: encodingMemoryThreshold,
                      interceptor: interceptor, fileManager: fileManager)
    }

    /// Uploads the form `multipartFormData` builds, with a prebuilt request.
    public func upload(multipartFormData: @escaping @Sendable (MultipartFormData) -> Void,
                       with request: any URLRequestConvertible,
                       usingThreshold encodingMemoryThreshold: UInt64 = MultipartFormData.encodingMemoryThreshold,
                       interceptor: (any RequestInterceptor)? = nil,
                       fileManager: FileManager = .default) -> UploadRequest {
        let form = MultipartFormData(fileManager: fileManager)
        let upload = MultipartUpload(form: form, build: multipartFormData, request: request,
                                     threshold: encodingMemoryThreshold, fileManager: fileManager)
        return self.upload(upload, interceptor: interceptor, fileManager: fileManager)
    }

    /// Uploads a ready form.
    public func upload(multipartFormData: MultipartFormData,
                       to url: any URLConvertible,
                       usingThreshold encodingMemoryThreshold: UInt64 = MultipartFormData.encodingMemoryThreshold,
                       method: HTTPMethod = .post,
                       headers: HTTPHeaders? = nil,
                       interceptor: (any RequestInterceptor)? = nil,
                       shouldAutomaticallyResume: Bool? = nil,
                       fileManager: FileManager = .default,
                       requestModifier: RequestModifier? = nil) -> UploadRequest {
        let request = RequestConvertible(url: url, method: method, parameters: nil, encoding: URLEncoding.default,
                                         headers: headers, requestModifier: requestModifier)
        return upload(multipartFormData: multipartFormData, with: request, usingThreshold: encodingMemoryThreshold,
                      interceptor: interceptor, shouldAutomaticallyResume: shouldAutomaticallyResume, fileManager: fileManager)
    }

    /// Uploads a ready form with a prebuilt request.
    public func upload(multipartFormData: MultipartFormData,
                       with request: any URLRequestConvertible,
                       usingThreshold encodingMemoryThreshold: UInt64 = MultipartFormData.encodingMemoryThreshold,
                       interceptor: (any RequestInterceptor)? = nil,
                       shouldAutomaticallyResume: Bool? = nil,
                       fileManager: FileManager = .default) -> UploadRequest {
        let upload = MultipartUpload(form: multipartFormData, build: nil, request: request,
                                     threshold: encodingMemoryThreshold, fileManager: fileManager)
        return self.upload(upload, interceptor: interceptor, shouldAutomaticallyResume: shouldAutomaticallyResume,
                           fileManager: fileManager)
    }
}
