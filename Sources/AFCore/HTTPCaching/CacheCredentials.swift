import CCurlShim
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The credentials a request carries (`Authorization`, `Proxy-Authorization`, `Cookie`, a URL's
/// user and password, a challenge credential): what partitions an HTTP cache, so a response stored
/// for one set of credentials is never served to a request with another set, or with none. Held
/// in memory only; a storage keeps `partition(key:)`, a keyed hash, never the values.
public struct CacheCredentials: Sendable, Hashable {
    /// Canonical name-value pairs, in a fixed order of names.
    private let parts: [(name: String, value: String)]

    /// No credentials at all: the partition every anonymous request shares.
    public static let anonymous = CacheCredentials(parts: [])

    private init(parts: [(name: String, value: String)]) {
        self.parts = parts
    }

    /// The credentials of `request` as it stands (its header fields and its URL's user info).
    public init(request: URLRequest) {
        let fields = request.allHTTPHeaderFields ?? [:]
        self.init(headers: fields.map { ($0.key, $0.value) }, url: request.url, user: nil, password: nil)
    }

    /// The credentials among `headers` (as sent), `url`'s user info and a challenge credential.
    init(headers: some Sequence<(String, String)>, url: URL?, user: String?, password: String?) {
        var found: [String: String] = [:]
        for (name, value) in headers {
            for credentialName in Self.headerNames where name.equalsIgnoringASCIICase(credentialName) {
                // Cookie order carries no meaning: the same cookies are the same credentials.
                found[credentialName] = credentialName == "cookie" ? Self.sortedCookies(value) : value
            }
        }
        var parts = Self.headerNames.compactMap { name in found[name].map { (name, $0) } }
        if let user = url?.user { parts.append(("url-user", user)) }
        if let password = url?.password { parts.append(("url-password", password)) }
        if let user { parts.append(("challenge-user", user)) }
        if let password { parts.append(("challenge-password", password)) }
        self.init(parts: parts)
    }

    /// The header fields that carry credentials, lower-cased.
    static let headerNames = ["authorization", "proxy-authorization", "cookie"]

    private static func sortedCookies(_ value: String) -> String {
        value.split(separator: ";").map { $0.trimmingASCIISpaces() }.sorted().joined(separator: "; ")
    }

    /// Whether the request carries no credentials.
    public var isAnonymous: Bool { parts.isEmpty }

    /// The partition's name under `key`: "" when anonymous, else the hex HMAC-SHA-256 of the
    /// credentials (each part length-prefixed, so no two sets share an encoding).
    public func partition(key: [UInt8]) -> String {
        guard !parts.isEmpty else { return "" }
        var message = Data()
        for part in parts {
            for text in [part.name, part.value] {
                let bytes = Data(text.utf8)
                withUnsafeBytes(of: UInt64(bytes.count).bigEndian) { message.append(contentsOf: $0) }
                message.append(bytes)
            }
        }
        var digest = [UInt8](repeating: 0, count: 32)
        let done = key.withUnsafeBufferPointer { keyBytes in
            message.withUnsafeBytes { messageBytes in
                afc_hmac_sha256(keyBytes.baseAddress, keyBytes.count,
                                messageBytes.bindMemory(to: UInt8.self).baseAddress, messageBytes.count, &digest)
            }
        }
        // A failed HMAC must not put credentials in a shared partition: one no lookup can name.
        guard done == 1 else { return "unhashable-" + UUID().uuidString }
        return digest.map { String(format: "%02x", $0) }.joined()
    }

    public static func == (lhs: CacheCredentials, rhs: CacheCredentials) -> Bool {
        lhs.parts.elementsEqual(rhs.parts) { $0.name == $1.name && $0.value == $1.value }
    }

    public func hash(into hasher: inout Hasher) {
        for part in parts {
            hasher.combine(part.name)
            hasher.combine(part.value)
        }
    }
}
