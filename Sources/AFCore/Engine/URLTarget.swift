/// What a transfer's URL leads to, decided once when its spec is made: an HTTP server, a local
/// file (read as URLSession reads one), or nothing AF sends to.
enum URLTarget: Sendable {
    case http
    case file
    /// No scheme, another scheme, or http(s) without a host: refused before curl, which would
    /// guess `http://` for the first and speaks protocols URLSession does not.
    case unsupported

    /// The target of `url` (the string sent to curl) whose scheme is `scheme`.
    init(scheme: String?, url: String) {
        guard let scheme else { self = .unsupported; return }
        if scheme.equalsIgnoringASCIICase("http") || scheme.equalsIgnoringASCIICase("https") {
            self = Self.hasHost(url, afterScheme: scheme) ? .http : .unsupported
        } else {
            self = scheme.equalsIgnoringASCIICase("file") ? .file : .unsupported
        }
    }

    /// Whether `url` has a non-empty authority: `scheme://` followed by something other than `/`.
    private static func hasHost(_ url: String, afterScheme scheme: String) -> Bool {
        url.withUTF8Bytes { bytes in
            let start = scheme.utf8.count
            guard bytes.count > start + 3, bytes[start] == UInt8(ascii: ":"), bytes[start + 1] == UInt8(ascii: "/"),
                  bytes[start + 2] == UInt8(ascii: "/") else { return false }
            let first = bytes[start + 3]
            return first != UInt8(ascii: "/") && first != UInt8(ascii: "?") && first != UInt8(ascii: "#")
        }
    }
}
