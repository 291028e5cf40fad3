import Foundation

/// One part of a form: its headers and where its bytes come from.
struct BodyPart {
    enum Source {
        case data(Data)
        case file(URL)
        case stream(InputStream)
    }

    var headers: HTTPHeaders
    var source: Source
    /// The number of body bytes the part promises.
    var length: UInt64

    /// Whether the part's bytes are read from a file of the app's.
    var isFile: Bool {
        if case .file = source { true } else { false }
    }
}

/// Builds part headers that real parsers read back: quoted parameters with `\` and `"` escaped,
/// CR and LF percent-encoded (they cannot appear in a header), UTF-8 kept as it is (RFC 7578
/// §4.2: no `filename*`).
enum PartHeaders {
    static func contentDisposition(name: String, fileName: String?) -> String {
        var value = "form-data; name=\"\(quoted(name))\""
        if let fileName { value += "; filename=\"\(quoted(fileName))\"" }
        return value
    }

    static func quoted(_ value: String) -> String {
        var result = ""
        result.reserveCapacity(value.utf8.count)
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\\": result += "\\\\"
            case "\"": result += "\\\""
            case "\r": result += "%0D"
            case "\n": result += "%0A"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// A header value with CR and LF percent-encoded, so a value cannot start a new header.
    static func sanitized(_ value: String) -> String {
        value.replacingOccurrences(of: "\r", with: "%0D").replacingOccurrences(of: "\n", with: "%0A")
    }

    static func make(name: String, fileName: String?, mimeType: String?) -> HTTPHeaders {
        var headers: HTTPHeaders = ["Content-Disposition": contentDisposition(name: name, fileName: fileName)]
        if let mimeType { headers.add(name: "Content-Type", value: sanitized(mimeType)) }
        return headers
    }
}
