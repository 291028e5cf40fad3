import Foundation

/// A request AF refused to send because part of it could change what goes on the wire (request
/// splitting): a header name or method that is not a token, a header value with CR, LF or NUL, a
/// URL with raw whitespace or control bytes. Delivered as `AFError.createURLRequestFailed(error:)`,
/// before any byte is sent. The description names the header, never its value.
public struct UnsafeRequestError: Error, Sendable, Hashable, LocalizedError, CustomStringConvertible {
    /// Which part of the request was refused.
    public struct Part: Hashable, Sendable, CustomStringConvertible {
        private let name: String
        private init(_ name: String) { self.name = name }

        /// A header field name that is not an RFC 9110 token.
        public static let headerName = Part("header field name")
        /// A header field value containing CR, LF or NUL.
        public static let headerValue = Part("header field value")
        /// A method that is not an RFC 9110 token.
        public static let method = Part("method")
        /// A URL containing whitespace or control bytes.
        public static let url = Part("URL")

        public var description: String { name }
    }

    /// The refused part.
    public let part: Part
    /// The name of the header at fault (for `.headerName`, as given, escaped in the description).
    public let headerName: String?
    /// The method at fault, for `.method`.
    public let method: String?

    init(part: Part, headerName: String? = nil, method: String? = nil) {
        self.part = part
        self.headerName = headerName
        self.method = method
    }

    public var description: String {
        switch part {
        case .headerName:
            "the header field name \(Self.escaped(headerName ?? "")) is not a token"
        case .headerValue:
            "the value of header field \(Self.escaped(headerName ?? "")) contains CR, LF or NUL"
        case .method:
            "the method \(Self.escaped(method ?? "")) is not a token"
        default:
            "the URL contains whitespace or control characters"
        }
    }

    public var errorDescription: String? { "Request not sent: " + description }

    /// `text` quoted, with control characters spelled out, so nothing in it reads as a new line.
    private static func escaped(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\r": result += "\\r"
            case "\n": result += "\\n"
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F:
                result += "\\u{" + String(scalar.value, radix: 16) + "}"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }
}
