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
        return acceptableContentTypes(acceptField: accept)
    }

    /// The content types an `Accept` field lists, in order (parameters kept, spaces trimmed).
    static func acceptableContentTypes(acceptField accept: String) -> [String] {
        accept.split(separator: ",", omittingEmptySubsequences: false).map { String($0.trimmingASCIISpaces()) }
    }

    /// Content-type validation against the request's `Accept` field; without one (or with an
    /// empty body) it passes without reading the response's type.
    static func validate(acceptFieldOf request: URLRequest?, responseContentType: @autoclosure () -> String?,
                         isEmpty: Bool) -> Request.ValidationResult {
        guard !isEmpty, let accept = request?.value(forHTTPHeaderField: "Accept") else { return .success(()) }
        return validate(contentType: acceptableContentTypes(acceptField: accept), responseContentType: responseContentType(),
                        isEmpty: isEmpty)
    }

    static func validate(contentType acceptable: [String], response: HTTPURLResponse, isEmpty: Bool) -> Request.ValidationResult {
        validate(contentType: acceptable, responseContentType: response.value(forHTTPHeaderField: "Content-Type"), isEmpty: isEmpty)
    }

    /// The same from the response's `Content-Type` field as received. An error lists the
    /// acceptable types sorted, as Alamofire's does.
    static func validate(contentType acceptable: [String], responseContentType contentType: String?,
                         isEmpty: Bool) -> Request.ValidationResult {
        // "*/*" (what a request without an Accept field accepts) matches any type, and stands in
        // for a missing or unreadable one: nothing to parse.
        if isEmpty || acceptable.contains("*/*") { return .success(()) }
        guard let contentType, let responseType = MIMEType(contentType) else {
            if acceptable.contains(where: { MIMEType($0)?.matchesAll == true }) { return .success(()) }
            return .failure(AFError.responseValidationFailed(reason: .missingContentType(acceptableContentTypes: acceptable.sorted())))
        }
        for type in acceptable {
            if let acceptableType = MIMEType(type), acceptableType.matches(responseType) { return .success(()) }
        }
        // Named as `HTTPURLResponse.mimeType` gives it: the type before any parameter, lower-cased.
        let mimeType = (contentType.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false).first
            .map(String.init) ?? contentType).lowercased()
        return .failure(AFError.responseValidationFailed(
            reason: .unacceptableContentType(acceptableContentTypes: acceptable.sorted(), responseContentType: mimeType)))
    }
}

/// A `type/subtype` pair, parameters dropped, lower-cased, with `*` wildcards. Parsed over the
/// UTF-8 bytes: validation runs on every response.
struct MIMEType {
    let type: Substring
    let subtype: Substring

    var matchesAll: Bool { type == "*" && subtype == "*" }

    init?(_ string: String) {
        let utf8 = string.utf8
        let end = utf8.firstIndex(of: UInt8(ascii: ";")) ?? utf8.endIndex
        guard let slash = utf8[..<end].firstIndex(of: UInt8(ascii: "/")) else { return nil }
        let type = Self.trimmed(utf8[..<slash]), subtype = Self.trimmed(utf8[utf8.index(after: slash)..<end])
        guard !type.isEmpty, !subtype.isEmpty, !subtype.contains(UInt8(ascii: "/")) else { return nil }
        self.type = Self.lowercased(type)
        self.subtype = Self.lowercased(subtype)
    }

    func matches(_ other: MIMEType) -> Bool {
        (type == other.type || type == "*" || other.type == "*")
            && (subtype == other.subtype || subtype == "*" || other.subtype == "*")
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    private static func trimmed(_ bytes: Substring.UTF8View) -> Substring.UTF8View {
        guard let first = bytes.firstIndex(where: { !isSpace($0) }),
              let last = bytes.lastIndex(where: { !isSpace($0) }) else { return bytes[bytes.endIndex...] }
        return bytes[first...last]
    }

    /// `bytes` as a Substring, ASCII letters lower-cased (a copy only when there are capitals).
    private static func lowercased(_ bytes: Substring.UTF8View) -> Substring {
        guard bytes.contains(where: { (0x41...0x5A).contains($0) }) else { return Substring(bytes) }
        return Substring(String(decoding: bytes.map { (0x41...0x5A).contains($0) ? $0 | 0x20 : $0 }, as: UTF8.self))
    }
}
