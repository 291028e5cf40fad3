import Foundation

extension HTTPHeader {
    /// `Accept` header.
    public static func accept(_ value: String) -> HTTPHeader {
        HTTPHeader(name: "Accept", value: value)
    }

    /// `Accept-Charset` header.
    public static func acceptCharset(_ value: String) -> HTTPHeader {
        HTTPHeader(name: "Accept-Charset", value: value)
    }

    /// `Accept-Language` header. Use `HTTPHeader.defaultAcceptLanguage` for the system's.
    public static func acceptLanguage(_ value: String) -> HTTPHeader {
        HTTPHeader(name: "Accept-Language", value: value)
    }

    /// `Accept-Encoding` header. Use `HTTPHeader.defaultAcceptEncoding` for what AF decodes.
    public static func acceptEncoding(_ value: String) -> HTTPHeader {
        HTTPHeader(name: "Accept-Encoding", value: value)
    }

    /// `Basic` `Authorization` header from a username and password.
    public static func authorization(username: String, password: String) -> HTTPHeader {
        let credential = Data("\(username):\(password)".utf8).base64EncodedString()
        return authorization("Basic \(credential)")
    }

    /// `Bearer` `Authorization` header from a token.
    public static func authorization(bearerToken: String) -> HTTPHeader {
        authorization("Bearer \(bearerToken)")
    }

    /// `Authorization` header with a raw value.
    public static func authorization(_ value: String) -> HTTPHeader {
        HTTPHeader(name: "Authorization", value: value)
    }

    /// `Content-Disposition` header.
    public static func contentDisposition(_ value: String) -> HTTPHeader {
        HTTPHeader(name: "Content-Disposition", value: value)
    }

    /// `Content-Encoding` header.
    public static func contentEncoding(_ value: String) -> HTTPHeader {
        HTTPHeader(name: "Content-Encoding", value: value)
    }

    /// `Content-Type` header.
    public static func contentType(_ value: String) -> HTTPHeader {
        HTTPHeader(name: "Content-Type", value: value)
    }

    /// `User-Agent` header.
    public static func userAgent(_ value: String) -> HTTPHeader {
        HTTPHeader(name: "User-Agent", value: value)
    }

    /// `Sec-WebSocket-Protocol` header.
    public static func websocketProtocol(_ value: String) -> HTTPHeader {
        HTTPHeader(name: "Sec-WebSocket-Protocol", value: value)
    }
}

extension HTTPHeaders {
    /// The default headers: `Accept-Encoding`, `Accept-Language` and `User-Agent`.
    public static let `default`: HTTPHeaders = [.defaultAcceptEncoding, .defaultAcceptLanguage, .defaultUserAgent]
}

extension HTTPHeader {
    /// `Accept-Encoding` for every encoding AF decodes: `br;q=1.0, gzip;q=0.9, deflate;q=0.8`.
    public static let defaultAcceptEncoding: HTTPHeader = .acceptEncoding("br;q=1.0, gzip;q=0.9, deflate;q=0.8")

    /// `Accept-Language` from the first six preferred languages, with falling quality values.
    public static let defaultAcceptLanguage: HTTPHeader = .acceptLanguage(
        Locale.preferredLanguages.prefix(6).qualityEncoded()
    )

    /// `User-Agent` naming the executable, the OS and AF's version.
    public static let defaultUserAgent: HTTPHeader = .userAgent(UserAgent.make())
}

extension Collection<String> {
    func qualityEncoded() -> String {
        enumerated().map { index, value in
            let quality = 1.0 - (Double(index) * 0.1)
            return "\(value);q=\(quality)"
        }.joined(separator: ", ")
    }
}

enum UserAgent {
    static func make() -> String {
        let executable = CommandLine.arguments.first.map { URL(fileURLWithPath: $0).lastPathComponent } ?? "Unknown"
        let version = ProcessInfo.processInfo.operatingSystemVersion
        let osVersion = "\(version.majorVersion).\(version.minorVersion).\(version.patchVersion)"
        return "\(executable)/Unknown (Unknown; build:Unknown; \(osName) \(osVersion)) AF/\(AFInfo.version)"
    }

    private static var osName: String {
        #if os(Linux)
        "Linux"
        #elseif os(macOS)
        "macOS"
        #elseif os(Windows)
        "Windows"
        #elseif os(Android)
        "Android"
        #else
        "Unknown"
        #endif
    }
}
