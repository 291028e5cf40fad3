import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension Session {
    func upload(_ uploadable: UploadRequest.Uploadable, to url: any URLConvertible, method: HTTPMethod,
                headers: HTTPHeaders?, interceptor: (any RequestInterceptor)?, shouldAutomaticallyResume: Bool?,
                fileManager: FileManager, requestModifier: RequestModifier?) -> UploadRequest {
        let request = RequestConvertible(url: url, method: method, parameters: nil, encoding: URLEncoding.default,
                                         headers: headers, requestModifier: requestModifier)
        return upload(Upload(request: request, uploadable: uploadable), interceptor: interceptor,
                      shouldAutomaticallyResume: shouldAutomaticallyResume, fileManager: fileManager)
    }
}
