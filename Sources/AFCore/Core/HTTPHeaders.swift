import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// An order-preserving, case-insensitive collection of HTTP headers.
///
/// Adding a name that already exists replaces its value and keeps its original position.
public struct HTTPHeaders: Equatable, Hashable, Sendable {
    private var headers: [HTTPHeader] = []

    /// An empty instance.
    public init() {}

    /// Creates an instance from an array of headers; later duplicates replace earlier ones.
    public init(_ headers: [HTTPHeader]) {
        headers.forEach { update($0) }
    }

    /// Creates an instance from a `[String: String]`.
    public init(_ dictionary: [String: String]) {
        dictionary.forEach { update(HTTPHeader(name: $0.key, value: $0.value)) }
    }

    /// Case-insensitively adds or updates the header with `name`.
    public mutating func add(name: String, value: String) {
        update(HTTPHeader(name: name, value: value))
    }

    /// Case-insensitively adds or updates `header`.
    public mutating func add(_ header: HTTPHeader) {
        update(header)
    }

    /// Case-insensitively updates or appends the header with `name`.
    public mutating func update(name: String, value: String) {
        update(HTTPHeader(name: name, value: value))
    }

    /// Case-insensitively updates or appends `header`.
    public mutating func update(_ header: HTTPHeader) {
        guard let index = headers.index(of: header.name) else {
            headers.append(header)
            return
        }
        headers[index] = header
    }

    /// Case-insensitively removes the header with `name`, if any.
    public mutating func remove(name: String) {
        guard let index = headers.index(of: name) else { return }
        headers.remove(at: index)
    }

    /// Sorts the headers by name, in place.
    public mutating func sort() {
        headers.sort { $0.name.lowercased() < $1.name.lowercased() }
    }

    /// A copy sorted by name.
    public func sorted() -> HTTPHeaders {
        var copy = self
        copy.sort()
        return copy
    }

    /// The position of the first header named `name` (case-insensitively), as `value(for:)` finds it.
    func firstIndex(named name: String) -> Int? { headers.index(of: name) }

    /// Case-insensitively finds the value for `name`.
    public func value(for name: String) -> String? {
        guard let index = headers.index(of: name) else { return nil }
        return headers[index].value
    }

    /// Case-insensitively reads or writes the value for `name`; writing `nil` removes it.
    public subscript(_ name: String) -> String? {
        get { value(for: name) }
        set {
            if let value = newValue {
                update(name: name, value: value)
            } else {
                remove(name: name)
            }
        }
    }

    /// The headers as a dictionary.
    public var dictionary: [String: String] {
        let namesAndValues = headers.map { ($0.name, $0.value) }
        return Dictionary(namesAndValues, uniquingKeysWith: { _, last in last })
    }

    /// The UTF-8 bytes of every name and value.
    package var fieldBytes: Int {
        headers.reduce(0) { $0 + $1.name.utf8.count + $1.value.utf8.count }
    }
}

extension HTTPHeaders: ExpressibleByDictionaryLiteral {
    public init(dictionaryLiteral elements: (String, String)...) {
        elements.forEach { update(name: $0.0, value: $0.1) }
    }
}

extension HTTPHeaders: ExpressibleByArrayLiteral {
    public init(arrayLiteral elements: HTTPHeader...) {
        self.init(elements)
    }
}

extension HTTPHeaders: Sequence {
    public func makeIterator() -> IndexingIterator<[HTTPHeader]> {
        headers.makeIterator()
    }
}

extension HTTPHeaders: Collection {
    public var startIndex: Int { headers.startIndex }
    public var endIndex: Int { headers.endIndex }
    public subscript(position: Int) -> HTTPHeader { headers[position] }
    public func index(after i: Int) -> Int { headers.index(after: i) }
}

extension HTTPHeaders: CustomStringConvertible {
    public var description: String {
        headers.map(\.description).joined(separator: "\n")
    }
}

/// One HTTP header: a name and a value.
public struct HTTPHeader: Equatable, Hashable, Sendable {
    /// The header's name.
    public let name: String
    /// The header's value.
    public let value: String

    /// Creates a header from a name and a value.
    public init(name: String, value: String) {
        self.name = name
        self.value = value
    }
}

extension HTTPHeader: CustomStringConvertible {
    public var description: String { "\(name): \(value)" }
}

extension [HTTPHeader] {
    /// The first header named `name`, compared as `lowercased()` compares (ASCII names without
    /// making lower-cased copies).
    func index(of name: String) -> Int? {
        name.withUTF8Bytes { wanted in
            firstIndex { header in
                header.name.withUTF8Bytes { $0.equalsIgnoringCaseUpToUnicode(wanted) }
                    ?? (header.name.lowercased() == name.lowercased())
            }
        }
    }
}

// MARK: - Views on Foundation types

extension URLRequest {
    /// The request's headers as `HTTPHeaders`.
    public var headers: HTTPHeaders {
        get { allHTTPHeaderFields.map(HTTPHeaders.init) ?? HTTPHeaders() }
        set { allHTTPHeaderFields = newValue.dictionary }
    }
}

extension HTTPURLResponse {
    /// The response's headers as `HTTPHeaders`.
    public var headers: HTTPHeaders {
        (allHeaderFields as? [String: String]).map(HTTPHeaders.init) ?? HTTPHeaders()
    }
}

extension URLSessionConfiguration {
    /// `httpAdditionalHeaders` as `HTTPHeaders`.
    public var headers: HTTPHeaders {
        get { (httpAdditionalHeaders as? [String: String]).map(HTTPHeaders.init) ?? HTTPHeaders() }
        set { httpAdditionalHeaders = newValue.dictionary }
    }
}
