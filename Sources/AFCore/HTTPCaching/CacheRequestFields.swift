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
        let count = name.utf8.count
        let named = line.withUTF8Bytes { bytes in
            bytes.count > count && (bytes[count] == UInt8(ascii: ":") || bytes[count] == UInt8(ascii: ";"))
                && name.withUTF8Bytes { UnsafeBufferPointer(rebasing: bytes[..<count]).equalsIgnoringASCIICase($0) }
        }
        guard named else { return nil }
        return line[line.utf8.index(line.utf8.startIndex, offsetBy: count + 1)...].trimmingASCIISpaces()
    }
}
