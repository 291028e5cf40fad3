import Foundation

/// `Set-Cookie` field values made safe for FoundationNetworking's `HTTPCookie` parser, which
/// crashes the process on an `Expires` date holding some non-ASCII text (its DateFormatter
/// mixes character and UTF-16 counts). A cookie date is ASCII (RFC 6265 §5.1.1), and a date that
/// does not parse is ignored (§5.2.1), so such an `Expires` attribute is dropped, the cookie kept.
package enum SetCookieField {
    /// `value` without any `Expires` attribute that has a byte outside printable ASCII.
    package static func readable(_ value: String) -> String {
        guard !value.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) else { return value }
        let attributes = value.split(separator: ";", omittingEmptySubsequences: false)
        let kept = attributes.enumerated().filter { index, attribute in
            guard index > 0 else { return true }  // the name=value pair itself
            let name = attribute.split(separator: "=", maxSplits: 1).first?.trimmingASCIISpaces() ?? ""
            return !(name.lowercased() == "expires" && !attribute.utf8.allSatisfy { $0 >= 0x20 && $0 < 0x7F })
        }
        return kept.map { String($0.element) }.joined(separator: ";")
    }
}
