import Foundation

/// Everything the engine needs to run one HTTP exchange (one hop of a task).
struct TransferSpec: Sendable {
    var url: String
    var method: String
    /// Header lines in curl's form: `Name: value`, or `Name;` for an empty value.
    var headerLines: [String]
    var body: Data?
    /// Idle timeout: how long to wait for a connection or for more data.
    var idleTimeout: TimeInterval
    /// Whole-exchange timeout.
    var resourceTimeout: TimeInterval
    var httpVersion: HTTPVersionPreference
    var caFile: String?
    var caPath: String?
}

/// Which HTTP version the engine asks curl for.
enum HTTPVersionPreference: Sendable {
    /// HTTP/2 over TLS when ALPN agrees, HTTP/1.1 otherwise.
    case automatic
    /// HTTP/1.1 only.
    case http1Only
    /// HTTP/2 without upgrade over cleartext (h2c prior knowledge).
    case http2PriorKnowledge
}

/// The status line and headers of a response, as received.
struct ResponseHead: Sendable {
    var statusCode: Int
    var httpVersion: String
    var headers: [(name: String, value: String)]

    /// Header fields with repeated names joined by `, `, as URLSession presents them.
    var headerFields: [String: String] {
        var fields: [String: String] = [:]
        var canonicalNames: [String: String] = [:]
        for (name, value) in headers {
            let key = name.lowercased()
            if let existingName = canonicalNames[key] {
                fields[existingName] = fields[existingName].map { "\($0), \(value)" } ?? value
            } else {
                canonicalNames[key] = name
                fields[name] = value
            }
        }
        return fields
    }

    func value(for name: String) -> String? {
        let lowercased = name.lowercased()
        return headers.first { $0.name.lowercased() == lowercased }?.value
    }
}

/// Parses header lines as curl's header callback hands them over, one line a call.
struct ResponseHeadParser {
    private var current: ResponseHead?
    private(set) var completed: ResponseHead?

    /// Feeds one raw line (with its CRLF). Returns true when a final (non-1xx) head just completed.
    mutating func consume(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
        var end = line.count
        while end > 0, line[end - 1] == UInt8(ascii: "\n") || line[end - 1] == UInt8(ascii: "\r") {
            end -= 1
        }
        if end == 0 {
            guard let head = current else { return false }
            current = nil
            if (100..<200).contains(head.statusCode) { return false }
            completed = head
            return true
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: line[0..<end]), as: UTF8.self)
        if text.hasPrefix("HTTP/") {
            current = Self.statusLine(text)
        } else if let colon = text.firstIndex(of: ":"), current != nil {
            let name = String(text[..<colon])
            let value = text[text.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            current?.headers.append((name, value))
        }
        return false
    }

    private static func statusLine(_ text: String) -> ResponseHead? {
        let parts = text.split(separator: " ", maxSplits: 2)
        guard parts.count >= 2, let code = Int(parts[1]) else { return nil }
        return ResponseHead(statusCode: code, httpVersion: String(parts[0]), headers: [])
    }
}
