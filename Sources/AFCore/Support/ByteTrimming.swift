// Trimming the whitespace around a part of a received line, over its bytes (a String made to
// trim it would cost more than the rest of the line's reading).

extension UnsafeBufferPointer<UInt8> {
    /// Spaces, tabs and line breaks.
    static func isSpace(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\r") || byte == UInt8(ascii: "\n")
    }

    /// The end of `start..<end` with trailing whitespace and line breaks removed.
    func trimmedEnd(from start: Int, to end: Int) -> Int {
        var end = end
        while end > start, Self.isSpace(self[end - 1]) { end -= 1 }
        return end
    }

    /// The start of `start..<end` with leading whitespace removed.
    func trimmedStart(from start: Int, to end: Int) -> Int {
        var start = start
        while start < end, Self.isSpace(self[start]) { start += 1 }
        return start
    }
}
