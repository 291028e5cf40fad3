/// What may go on the wire as a request's method, header fields and URL (RFC 9110 §5.1, §5.5,
/// §9.1): names and methods are tokens; values carry no CR, LF or NUL; the URL no whitespace or
/// control bytes. Pure; scans UTF-8 bytes without allocating.
enum WireRules {
    /// The problem of a request line with this method and URL, if any.
    static func problem(method: String, url: String) -> UnsafeRequestError? {
        problem(method: method, urlIsClean: isCleanURL(url))
    }

    /// The problem of a request line with this method and a URL `isCleanURL` judged.
    static func problem(method: String, urlIsClean: Bool) -> UnsafeRequestError? {
        if !isToken(method) { return UnsafeRequestError(part: .method, method: method) }
        if !urlIsClean { return UnsafeRequestError(part: .url) }
        return nil
    }

    /// The problem of one header field, if any.
    static func problem(name: String, value: String) -> UnsafeRequestError? {
        if !isToken(name) { return UnsafeRequestError(part: .headerName, headerName: name) }
        if !isSafeValue(value) { return UnsafeRequestError(part: .headerValue, headerName: name) }
        return nil
    }

    static func isToken(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { bytes in !bytes.isEmpty && bytes.allSatisfy(isTokenByte) }
    }

    static func isSafeValue(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { bytes in !bytes.contains { $0 == 0x0D || $0 == 0x0A || $0 == 0x00 } }
    }

    static func isCleanURL(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { bytes in !bytes.contains { $0 <= 0x20 || $0 == 0x7F } }
    }

    /// tchar: ALPHA, DIGIT and ! # $ % & ' * + - . ^ _ ` | ~
    private static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
             UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        case UInt8(ascii: "!"), UInt8(ascii: "#"), UInt8(ascii: "$"), UInt8(ascii: "%"), UInt8(ascii: "&"),
             UInt8(ascii: "'"), UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."),
             UInt8(ascii: "^"), UInt8(ascii: "_"), UInt8(ascii: "`"), UInt8(ascii: "|"), UInt8(ascii: "~"):
            true
        default:
            false
        }
    }
}
