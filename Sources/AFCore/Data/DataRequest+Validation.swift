import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension DataRequest {
    /// Fails with `.unacceptableStatusCode` unless the status is in `acceptableStatusCodes`.
    @discardableResult
    public func validate<S: Sequence & Sendable>(statusCode acceptableStatusCodes: S) -> Self where S.Element == Int {
        validateReceived { _, response, _ in
            ValidationRules.validate(statusCode: response.statusCode, acceptable: acceptableStatusCodes)
        }
    }

    /// Fails unless the response's `Content-Type` matches one of `acceptableContentTypes`
    /// (wildcards allowed). An empty body passes.
    @discardableResult
    public func validate<S: Sequence & Sendable>(contentType acceptableContentTypes: @escaping @Sendable @autoclosure () -> S) -> Self
        where S.Element == String {
        validateReceived { _, response, data in
            ValidationRules.validate(contentType: Array(acceptableContentTypes()), responseContentType: response.value(for: "Content-Type"),
                                     isEmpty: data?.isEmpty ?? true)
        }
    }

    /// Status `200..<300` and a `Content-Type` matching the request's `Accept` header.
    @discardableResult
    public func validate() -> Self {
        // The same two validations as `validate(statusCode:)` and `validate(contentType:)`, the
        // accepted types read from the request the validation is given; one validator runs both.
        validateReceived({ _, response, _ in
            ValidationRules.validate(statusCode: response.statusCode, acceptable: ValidationRules.acceptableStatusCodes)
        }, then: { request, response, data in
            ValidationRules.validate(acceptFieldOf: request, responseContentType: response.value(for: "Content-Type"),
                                     isEmpty: data?.isEmpty ?? true)
        })
    }
}
