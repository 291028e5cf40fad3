// Comparing HTTP names (field names, schemes, tokens) without case, without making lower-cased
// copies: over the strings' UTF-8 bytes in place.

extension String {
    /// Equality ignoring the case of ASCII letters, as HTTP field names compare.
    func equalsIgnoringASCIICase(_ other: String) -> Bool {
        // Counting a native string's UTF-8 is free, and most names differ in length.
        guard utf8.count == other.utf8.count else { return false }
        return withUTF8Bytes { mine in other.withUTF8Bytes { mine.equalsIgnoringASCIICase($0) } }
    }

    /// Runs `body` over the string's UTF-8 bytes: in place for a native string (every string on
    /// Linux), else over a contiguous copy.
    @inline(__always)
    func withUTF8Bytes<Result>(_ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows -> Result {
        if let result = try utf8.withContiguousStorageIfAvailable(body) { return result }
        var copy = self
        return try copy.withUTF8(body)
    }
}

extension UnsafeBufferPointer<UInt8> {
    /// Equality of two byte strings, ASCII letters compared without case.
    func equalsIgnoringASCIICase(_ other: Self) -> Bool {
        guard count == other.count else { return false }
        for index in indices where !self[index].equalsIgnoringASCIICase(other[index]) { return false }
        return true
    }

    /// Equality of the `lowercased()` forms when it is decided before the first byte that is not
    /// ASCII: at a difference of two ASCII letters or signs, or at the end of the shorter. Nil
    /// otherwise (Unicode's lower-casing then decides: it maps some characters, such as the Kelvin
    /// sign, to ASCII letters).
    func equalsIgnoringCaseUpToUnicode(_ other: Self) -> Bool? {
        for index in 0..<Swift.min(count, other.count) {
            let mine = self[index], theirs = other[index]
            if mine >= 0x80 || theirs >= 0x80 { return nil }
            if !mine.equalsIgnoringASCIICase(theirs) { return false }
        }
        guard count != other.count else { return true }
        // Lower-casing never drops a character: a longer one differs, unless Unicode maps more.
        let rest = count > other.count ? self[other.count...] : other[count...]
        return rest.allSatisfy { $0 < 0x80 } ? false : nil
    }
}

extension UInt8 {
    /// Equality of two bytes, ASCII letters compared without case.
    func equalsIgnoringASCIICase(_ other: UInt8) -> Bool {
        guard self != other else { return true }
        let folded = self | 0x20
        return folded == other | 0x20 && folded >= UInt8(ascii: "a") && folded <= UInt8(ascii: "z")
    }
}
