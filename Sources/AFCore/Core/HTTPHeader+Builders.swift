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

/// AF's default `User-Agent`: what Alamofire sends on Apple platforms, made of true things on
/// Linux, and of nothing that is not known: `name[/version] (distribution version; Linux kernel;
/// architecture) AF/version`, for example `syncd/2.1 (Debian GNU/Linux 12; Linux 6.1.0; x86_64)
/// AF/0.1.0`. The version is the main bundle's `CFBundleShortVersionString` when it has one.
enum UserAgent {
    static func make(executable: String? = CommandLine.arguments.first, bundle: Bundle = .main,
                     osRelease: String? = try? String(contentsOfFile: "/etc/os-release", encoding: .utf8)) -> String {
        var product = executable.map { URL(fileURLWithPath: $0).lastPathComponent }.flatMap { $0.isEmpty ? nil : $0 }
            ?? ProcessInfo.processInfo.processName
        if let version = bundle.object(forInfoDictionaryKey: "CFBundleShortVersionString") as? String, !version.isEmpty {
            product += "/\(version)"
        }
        let system = [osRelease.flatMap(distribution(in:)), kernel, machine].compactMap { $0 }
        let comment = system.isEmpty ? "" : " (\(system.joined(separator: "; ")))"
        return "\(product)\(comment) AF/\(AFInfo.version)"
    }

    /// `NAME VERSION_ID` from an os-release file (`Debian GNU/Linux 12`), when it names one.
    static func distribution(in osRelease: String) -> String? {
        var fields: [String: String] = [:]
        for line in osRelease.split(separator: "\n") {
            guard let equals = line.firstIndex(of: "=") else { continue }
            let value = line[line.index(after: equals)...].trimmingCharacters(in: CharacterSet(charactersIn: "\"' "))
            fields[String(line[..<equals])] = value
        }
        guard let name = fields["NAME"], !name.isEmpty else { return nil }
        return [name, fields["VERSION_ID"]].compactMap { $0 }.filter { !$0.isEmpty }.joined(separator: " ")
    }

    /// `Linux 6.1.0`: the kernel and its release.
    private static var kernel: String? {
        var names = utsname()
        guard uname(&names) == 0 else { return nil }
        let system = field(&names.sysname), release = field(&names.release)
        return system.isEmpty ? nil : [system, release].filter { !$0.isEmpty }.joined(separator: " ")
    }

    /// The machine architecture (`x86_64`, `aarch64`).
    private static var machine: String? {
        var names = utsname()
        guard uname(&names) == 0 else { return nil }
        let machine = field(&names.machine)
        return machine.isEmpty ? nil : machine
    }

    private static func field<T>(_ value: inout T) -> String {
        withUnsafeBytes(of: &value) { bytes in
            String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
        }
    }
}
