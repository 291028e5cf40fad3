import Foundation

/// The directives of a `Cache-Control` header (RFC 9111 §5.2) that a private cache acts on, parsed
/// leniently in one pass over the header's bytes: names are case-insensitive, values may be
/// quoted, other directives mean nothing here. A repeated directive counts at its first occurrence
/// (it is invalid, and the stricter reading, an earlier max-age, is as good as any).
package struct CacheControl: Equatable {
    package private(set) var noStore = false
    package private(set) var noCache = false
    package private(set) var mustRevalidate = false
    package private(set) var onlyIfCached = false
    package private(set) var isPublic = false
    package private(set) var isPrivate = false
    /// `max-age`, nil when absent or not a number.
    package private(set) var maxAge: TimeInterval?
    /// `min-fresh`, nil when absent or not a number.
    package private(set) var minFresh: TimeInterval?
    /// `max-stale`: nil when absent or not a number; `.infinity` when given without a value (any
    /// staleness).
    package private(set) var maxStale: TimeInterval?
    /// The valued directives met so far (bits of `ValuedDirective`): only the first counts.
    private var seenValued: UInt8 = 0

    private enum ValuedDirective: UInt8 { case maxAge = 1, minFresh = 2, maxStale = 4 }

    /// Equal when they mean the same (whatever was skipped on the way).
    package static func == (lhs: Self, rhs: Self) -> Bool {
        (lhs.noStore, lhs.noCache, lhs.mustRevalidate, lhs.onlyIfCached, lhs.isPublic, lhs.isPrivate)
            == (rhs.noStore, rhs.noCache, rhs.mustRevalidate, rhs.onlyIfCached, rhs.isPublic, rhs.isPrivate)
            && (lhs.maxAge, lhs.minFresh, lhs.maxStale) == (rhs.maxAge, rhs.minFresh, rhs.maxStale)
    }

    package init(_ header: String?) {
        header?.withUTF8Bytes { bytes in
            var start = 0
            var quoted = false
            // Commas outside quoted strings end a directive.
            for index in bytes.indices {
                switch bytes[index] {
                case UInt8(ascii: "\""): quoted.toggle()
                case UInt8(ascii: ",") where !quoted:
                    read(bytes, start..<index)
                    start = index + 1
                default: break
                }
            }
            read(bytes, start..<bytes.count)
        }
    }

    /// Takes in one directive, `name` or `name=value`, the bytes of `header` in `range`.
    private mutating func read(_ header: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) {
        var part = header.spaceTrimmed(range)
        // Leading `=` signs are skipped (`=no-store` is read as `no-store`): the cautious reading.
        while let first = part.first, header[first] == UInt8(ascii: "=") { part = header.spaceTrimmed(first + 1..<part.upperBound) }
        let equals = part.first { header[$0] == UInt8(ascii: "=") }
        let name = header.spaceTrimmed(part.lowerBound..<(equals ?? part.upperBound))
        guard !name.isEmpty else { return }
        // `name=` counts as a directive without a value.
        var value = equals.map { header.spaceTrimmed($0 + 1..<part.upperBound) }.flatMap { $0.isEmpty ? nil : $0 }
        if let quoted = value, quoted.count >= 2, header[quoted.lowerBound] == UInt8(ascii: "\""),
           header[quoted.upperBound - 1] == UInt8(ascii: "\"") {
            value = quoted.lowerBound + 1..<quoted.upperBound - 1
        }
        if header.names(name, "no-store") { noStore = true }
        else if header.names(name, "no-cache") { noCache = true }
        else if header.names(name, "must-revalidate") { mustRevalidate = true }
        else if header.names(name, "only-if-cached") { onlyIfCached = true }
        else if header.names(name, "public") { isPublic = true }
        else if header.names(name, "private") { isPrivate = true }
        else if header.names(name, "max-age") {
            if firstOccurrence(of: .maxAge) { maxAge = value.flatMap(header.deltaSeconds) }
        } else if header.names(name, "min-fresh") {
            if firstOccurrence(of: .minFresh) { minFresh = value.flatMap(header.deltaSeconds) }
        } else if header.names(name, "max-stale") {
            if firstOccurrence(of: .maxStale) { maxStale = value == nil ? .infinity : value.flatMap(header.deltaSeconds) }
        }
    }

    /// Whether `directive` is met for the first time, noting it.
    private mutating func firstOccurrence(of directive: ValuedDirective) -> Bool {
        defer { seenValued |= directive.rawValue }
        return seenValued & directive.rawValue == 0
    }
}

/// A header's bytes, read by offsets.
private extension UnsafeBufferPointer<UInt8> {
    /// `range` without leading and trailing spaces and tabs.
    func spaceTrimmed(_ range: Range<Int>) -> Range<Int> {
        var lower = range.lowerBound, upper = range.upperBound
        while lower < upper, self[lower] == 0x20 || self[lower] == 0x09 { lower += 1 }
        while upper > lower, self[upper - 1] == 0x20 || self[upper - 1] == 0x09 { upper -= 1 }
        return lower..<upper
    }

    /// Whether the bytes in `range` are `directive`, ASCII letters compared without case.
    func names(_ range: Range<Int>, _ directive: StaticString) -> Bool {
        range.count == directive.utf8CodeUnitCount
            && directive.withUTF8Buffer { UnsafeBufferPointer(rebasing: self[range]).equalsIgnoringASCIICase($0) }
    }

    /// A delta-seconds value (an optional sign, then digits, as `Int(_:)` reads them); nil when
    /// not a number, negative, or past `Int`'s range.
    func deltaSeconds(_ range: Range<Int>) -> TimeInterval? {
        var index = range.lowerBound
        let negative = index < range.upperBound && self[index] == UInt8(ascii: "-")
        if index < range.upperBound, negative || self[index] == UInt8(ascii: "+") { index += 1 }
        guard index < range.upperBound else { return nil }
        var number = 0
        while index < range.upperBound {
            let digit = Int(self[index]) - Int(UInt8(ascii: "0"))
            guard (0...9).contains(digit) else { return nil }
            let (times10, overflow) = number.multipliedReportingOverflow(by: 10)
            let (sum, overflowAgain) = times10.addingReportingOverflow(digit)
            guard !overflow, !overflowAgain else { return nil }
            number = sum
            index += 1
        }
        return negative && number != 0 ? nil : TimeInterval(number)
    }
}
