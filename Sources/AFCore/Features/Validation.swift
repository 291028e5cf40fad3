import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Shared rules for status-code and content-type validation.
enum ValidationRules {
    static let acceptableStatusCodes = 200..<300

    static func validate(statusCode: Int, acceptable: some Sequence<Int>) -> Request.ValidationResult {
        acceptable.contains(statusCode)
            ? .success(())
            : .failure(AFError.responseValidationFailed(reason: .unacceptableStatusCode(code: statusCode)))
    }

    /// Content types from the request's `Accept` header, or `*/*`.
    static func acceptableContentTypes(for request: URLRequest?) -> [String] {
        guard let accept = request?.value(forHTTPHeaderField: "Accept") else { return ["*/*"] }
        return accept.components(separatedBy: ",").map { $0.trimmingCharacters(in: .whitespaces) }
    }

    static func validate(contentType acceptable: [String], response: HTTPURLResponse, isEmpty: Bool) -> Request.ValidationResult {
        if isEmpty { return .success(()) }
        guard let responseContentType = response.mimeType ?? response.value(forHTTPHeaderField: "Content-Type"),
              let responseType = MIMEType(responseContentType) else {
            if acceptable.contains(where: { MIMEType($0)?.matchesAll == true }) { return .success(()) }
            return .failure(AFError.responseValidationFailed(reason: .missingContentType(acceptableContentTypes: acceptable)))
        }
        for type in acceptable {
            if let acceptableType = MIMEType(type), acceptableType.matches(responseType) { return .success(()) }
        }
        return .failure(AFError.responseValidationFailed(
            reason: .unacceptableContentType(acceptableContentTypes: acceptable, responseContentType: responseContentType)))
    }
}

/// A `type/subtype` pair, parameters dropped, with `*` wildcards.
struct MIMEType {
    let type: String
    let subtype: String

    var matchesAll: Bool { type == "*" && subtype == "*" }

    init?(_ string: String) {
        let stripped = string.split(separator: ";", maxSplits: 1).first.map(String.init) ?? string
        let parts = stripped.trimmingCharacters(in: .whitespacesAndNewlines).lowercased().split(separator: "/")
        guard parts.count == 2 else { return nil }
        type = String(parts[0])
        subtype = String(parts[1])
    }

    func matches(_ other: MIMEType) -> Bool {
        (type == other.type || type == "*" || other.type == "*")
            && (subtype == other.subtype || subtype == "*" || other.subtype == "*")
    }
}

extension DataRequest {
    /// Fails with `.unacceptableStatusCode` unless the status is in `acceptableStatusCodes`.
    @discardableResult
    public func validate<S: Sequence & Sendable>(statusCode acceptableStatusCodes: S) -> Self where S.Element == Int {
        validate { _, response, _ in
            ValidationRules.validate(statusCode: response.statusCode, acceptable: acceptableStatusCodes)
        }
    }

    /// Fails unless the response's `Content-Type` matches one of `acceptableContentTypes`
    /// (wildcards allowed). An empty body passes.
    @discardableResult
    public func validate<S: Sequence & Sendable>(contentType acceptableContentTypes: @escaping @Sendable @autoclosure () -> S) -> Self
        where S.Element == String {
        validate { _, response, data in
            ValidationRules.validate(contentType: Array(acceptableContentTypes()), response: response,
                                     isEmpty: data?.isEmpty ?? true)
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
