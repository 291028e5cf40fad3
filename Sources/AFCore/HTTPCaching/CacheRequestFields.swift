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
        let named = line.withUTF8Bytes { isNamed($0, name) }
        return named ? value(of: line, nameLength: name.utf8.count) : nil
    }

    /// The first of `names` that a curl header line has, with its value: one look at the line
    /// for all of them.
    static func field(of line: String, among names: [String]) -> (name: String, value: Substring)? {
        let match = line.withUTF8Bytes { bytes in names.first { isNamed(bytes, $0) } }
        return match.map { ($0, value(of: line, nameLength: $0.utf8.count)) }
    }

    /// Whether the line's bytes start with `name` (without case) and a separator.
    private static func isNamed(_ line: UnsafeBufferPointer<UInt8>, _ name: String) -> Bool {
        let count = name.utf8.count
        return line.count > count && (line[count] == UInt8(ascii: ":") || line[count] == UInt8(ascii: ";"))
            && name.withUTF8Bytes { UnsafeBufferPointer(rebasing: line[..<count]).equalsIgnoringASCIICase($0) }
    }

    private static func value(of line: String, nameLength: Int) -> Substring {
        line[line.utf8.index(line.utf8.startIndex, offsetBy: nameLength + 1)...].trimmingASCIISpaces()
    }
}
