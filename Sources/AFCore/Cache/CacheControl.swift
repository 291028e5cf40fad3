import Foundation

/// The directives of a `Cache-Control` header (RFC 9111 §5.2), parsed leniently: names are
/// case-insensitive, values may be quoted, unknown directives are kept but mean nothing here.
package struct CacheControl: Equatable {
    /// Directive names (lower-cased) and their values (nil when the directive has none).
    package private(set) var directives: [String: String?] = [:]

    package init(_ header: String?) {
        guard let header else { return }
        for part in Self.split(header) {
            let pieces = part.split(separator: "=", maxSplits: 1).map { $0.trimmingASCIISpaces() }
            guard let name = pieces.first?.lowercased(), !name.isEmpty else { continue }
            var value = pieces.count > 1 ? String(pieces[1]) : nil
            if let quoted = value, quoted.count >= 2, quoted.hasPrefix("\""), quoted.hasSuffix("\"") {
                value = String(quoted.dropFirst().dropLast())
            }
            // The first occurrence wins: a repeated directive is invalid, and the stricter reading
            // (an earlier max-age) is as good as any.
            if directives[name] == nil { directives[name] = .some(value) }
        }
    }

    func has(_ name: String) -> Bool { directives[name] != nil }

    /// The value of a delta-seconds directive; nil when absent or not a number.
    package func seconds(_ name: String) -> TimeInterval? {
        guard let value = directives[name] ?? nil, let number = Int(value), number >= 0 else { return nil }
        return TimeInterval(number)
    }

    var noStore: Bool { has("no-store") }
    var noCache: Bool { has("no-cache") }
    var mustRevalidate: Bool { has("must-revalidate") }
    var onlyIfCached: Bool { has("only-if-cached") }
    var maxAge: TimeInterval? { seconds("max-age") }
    var minFresh: TimeInterval? { seconds("min-fresh") }

    /// `max-stale`: nil when absent; `.infinity` when given without a value (any staleness).
    var maxStale: TimeInterval? {
        guard has("max-stale") else { return nil }
        return seconds("max-stale") ?? ((directives["max-stale"] ?? nil) == nil ? .infinity : nil)
    }

    /// Splits on commas outside quoted strings (compared as bytes: both are ASCII).
    private static func split(_ header: String) -> [Substring] {
        var parts: [Substring] = []
        let bytes = header.utf8
        var start = bytes.startIndex
        var quoted = false
        var index = start
        while index < bytes.endIndex {
            switch bytes[index] {
            case UInt8(ascii: "\""): quoted.toggle()
            case UInt8(ascii: ","):
                if !quoted {
                    parts.append(header[start..<index])
                    start = bytes.index(after: index)
                }
            default: break
            }
            index = bytes.index(after: index)
        }
        parts.append(header[start...])
        return parts.map { $0.trimmingASCIISpaces() }.filter { !$0.isEmpty }
    }
}
