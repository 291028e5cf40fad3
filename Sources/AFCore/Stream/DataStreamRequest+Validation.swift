import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension DataStreamRequest {
    /// Fails with `.unacceptableStatusCode` unless the status is in `acceptableStatusCodes`.
    @discardableResult
    public func validate<S: Sequence & Sendable>(statusCode acceptableStatusCodes: S) -> Self where S.Element == Int {
        validate { _, response in
            ValidationRules.validate(statusCode: response.statusCode, acceptable: acceptableStatusCodes)
        }
    }

    /// Fails unless the response's `Content-Type` matches one of `acceptableContentTypes`
    /// (wildcards allowed). The body is not known yet when a stream validates, so an empty
    /// body is no excuse.
    @discardableResult
    public func validate<S: Sequence & Sendable>(contentType acceptableContentTypes: @escaping @Sendable @autoclosure () -> S) -> Self
        where S.Element == String {
        validate { _, response in
            ValidationRules.validate(contentType: Array(acceptableContentTypes()), response: response, isEmpty: false)
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
