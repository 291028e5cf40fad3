import AFCore
import Foundation

/// One httpie-style request item.
enum RequestItem {
    case header(String, String)
    case query(String, String)
    case field(String, String)
    case rawJSON(String, Any)
    case file(String, String)

    /// Splits `item` at its first separator (`:=`, `==`, `=`, `@`, `:`).
    init(_ item: String) throws {
        let separators = [":=", "==", "=", "@", ":"]
        var best: (range: Range<String.Index>, separator: String)?
        for separator in separators {
            guard let range = item.range(of: separator) else { continue }
            if best == nil || range.lowerBound < best!.range.lowerBound { best = (range, separator) }
        }
        guard let (range, separator) = best, range.lowerBound > item.startIndex else {
            throw Invocation.UsageError(description: "cannot read the item \"\(item)\" (Name:Value, name==value, field=value, field:=json, field@file)")
        }
        let name = String(item[..<range.lowerBound]), value = String(item[range.upperBound...])
        switch separator {
        case ":=":
            guard let json = try? JSONSerialization.jsonObject(with: Data(value.utf8), options: .fragmentsAllowed) else {
                throw Invocation.UsageError(description: "\(name):= is not JSON: \(value)")
            }
            self = .rawJSON(name, json)
        case "==": self = .query(name, value)
        case "=": self = .field(name, value)
        case "@": self = .file(name, value)
        default: self = .header(name, value.trimmingCharacters(in: .whitespaces))
        }
    }

    var isFile: Bool {
        if case .file = self { true } else { false }
    }

    var isBodyField: Bool {
        switch self {
        case .field, .rawJSON, .file: true
        default: false
        }
    }

    static func headers(_ items: [RequestItem]) -> HTTPHeaders {
        var headers = HTTPHeaders()
        for case let .header(name, value) in items { headers.add(name: name, value: value) }
        return headers
    }

    /// `url` with the query items appended.
    static func url(_ url: String, adding items: [RequestItem]) throws -> URL {
        guard var components = URLComponents(string: url), components.host != nil else {
            throw Invocation.UsageError(description: "not a URL: \(url)")
        }
        let query = items.compactMap { item -> URLQueryItem? in
            if case let .query(name, value) = item { URLQueryItem(name: name, value: value) } else { nil }
        }
        if !query.isEmpty { components.queryItems = (components.queryItems ?? []) + query }
        guard let result = components.url else { throw Invocation.UsageError(description: "not a URL: \(url)") }
        return result
    }

    /// The JSON object of the body fields.
    static func jsonBody(_ items: [RequestItem]) throws -> Data? {
        var object: [String: Any] = [:]
        for item in items {
            switch item {
            case let .field(name, value): object[name] = value
            case let .rawJSON(name, value): object[name] = value
            default: continue
            }
        }
        return object.isEmpty ? nil : try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
    }

    /// The form fields (raw JSON values as their text).
    static func formFields(_ items: [RequestItem]) -> [(String, String)] {
        items.compactMap { item in
            switch item {
            case let .field(name, value): (name, value)
            case let .rawJSON(name, value): (name, "\(value)")
            default: nil
            }
        }
    }
}
