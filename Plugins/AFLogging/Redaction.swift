import AFCore
import Foundation

/// What never reaches a log: credentials in URLs, secret query values, credential headers.
public enum Redaction {
    /// Query parameter names whose values are replaced (compared case-insensitively).
    public static let secretQueryNames: Set<String> = [
        "access_token", "api_key", "apikey", "auth", "client_secret", "code", "id_token", "key", "password",
        "refresh_token", "secret", "sig", "signature", "token",
    ]

    /// Header names whose values are replaced (compared case-insensitively).
    public static let secretHeaderNames: Set<String> = [
        "authorization", "proxy-authorization", "cookie", "set-cookie", "x-api-key", "x-auth-token",
    ]

    static let mask = "REDACTED"

    /// `url` without user and password, with secret query values masked.
    public static func url(_ url: URL?) -> String {
        guard let url, var components = URLComponents(url: url, resolvingAgainstBaseURL: true) else { return "-" }
        if components.user != nil || components.password != nil {
            components.user = nil
            components.password = nil
        }
        components.queryItems = components.queryItems?.map { item in
            secretQueryNames.contains(item.name.lowercased()) ? URLQueryItem(name: item.name, value: mask) : item
        }
        return components.string ?? "-"
    }

    /// `headers` with credential values masked, as "Name: value" lines sorted by name.
    public static func headers(_ headers: HTTPHeaders) -> [String] {
        headers.sorted().map { header in
            "\(header.name): \(secretHeaderNames.contains(header.name.lowercased()) ? mask : header.value)"
        }
    }
}
