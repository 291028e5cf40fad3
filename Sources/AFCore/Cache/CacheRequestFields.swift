import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The method and header fields of a request as the cache rules read them: the lines an exchange
/// sends (what the server sees, so what Vary is matched against), or a `URLRequest`'s own fields.
package struct CacheRequestFields {
    private enum Source {
        case request(URLRequest)
        /// curl's form: `Name: value`, or `Name;` for an empty value; each name at most once.
        case lines([String])
    }

    /// The request method, upper-cased.
    package let method: String
    private let source: Source

    /// The fields of `request` itself.
    package init(_ request: URLRequest) {
        method = (request.httpMethod ?? "GET").uppercased()
        source = .request(request)
    }

    /// The fields an exchange sends.
    init(sentBy spec: TransferSpec) {
        method = spec.method.uppercased()
        source = .lines(spec.headerLines)
    }

    /// The value of the field `name` (case-insensitive), or nil when the request has none.
    package func value(for name: String) -> String? {
        switch source {
        case let .request(request):
            return request.value(forHTTPHeaderField: name)
        case let .lines(lines):
            for line in lines {
                if let value = Self.value(of: line, ifNamed: name) { return String(value) }
            }
            return nil
        }
    }

    /// The value of a curl header line when its name is `name`, compared without allocating.
    static func value(of line: String, ifNamed name: String) -> Substring? {
        let bytes = line.utf8
        guard bytes.count > name.utf8.count else { return nil }
        let end = bytes.index(bytes.startIndex, offsetBy: name.utf8.count)
        guard bytes[end] == UInt8(ascii: ":") || bytes[end] == UInt8(ascii: ";"),
              zip(bytes[..<end], name.utf8).allSatisfy({ $0.equalsIgnoringASCIICase($1) }) else { return nil }
        return line[bytes.index(after: end)...].trimmingASCIISpaces()
    }
}
