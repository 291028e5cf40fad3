import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension DownloadRequest {
    /// Fails with `.unacceptableStatusCode` unless the status is in `acceptableStatusCodes`.
    @discardableResult
    public func validate<S: Sequence & Sendable>(statusCode acceptableStatusCodes: S) -> Self where S.Element == Int {
        validate { _, response, _ in
            ValidationRules.validate(statusCode: response.statusCode, acceptable: acceptableStatusCodes)
        }
    }

    /// Fails unless the response's `Content-Type` matches one of `acceptableContentTypes`
    /// (wildcards allowed). An empty file passes; a missing file fails with `.dataFileNil`.
    /// Only the file's size is read, never its contents.
    @discardableResult
    public func validate<S: Sequence & Sendable>(contentType acceptableContentTypes: @escaping @Sendable @autoclosure () -> S) -> Self
        where S.Element == String {
        validate { _, response, fileURL in
            guard let fileURL else {
                return .failure(AFError.responseValidationFailed(reason: .dataFileNil))
            }
            guard let size = DownloadResumeData.size(of: fileURL) else {
                return .failure(AFError.responseValidationFailed(reason: .dataFileReadFailed(at: fileURL)))
            }
            return ValidationRules.validate(contentType: Array(acceptableContentTypes()), response: response, isEmpty: size == 0)
        }
    }

    /// Status `200..<300` and a `Content-Type` matching the request's `Accept` header.
    @discardableResult
    public func validate() -> Self {
        let contentTypes: @Sendable () -> [String] = { [unowned self] in
            ValidationRules.acceptableContentTypes(for: request)
        }
        return validate(statusCode: ValidationRules.acceptableStatusCodes).validate(contentType: contentTypes())
    }
}
