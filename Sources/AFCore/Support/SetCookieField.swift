import Foundation

/// `Set-Cookie` field values that FoundationNetworking's `HTTPCookie` parser may be given. That
/// parser crashes the process on some non-ASCII text (an emoji before the name, a combining
/// mark in an `Expires` date) and misreads other (a combining mark ends a name early). RFC
/// 6265's cookie grammar is ASCII, and a user agent ignores a malformed `Set-Cookie`: so does AF.
package enum SetCookieField {
    /// `value` when it is printable ASCII (tabs allowed); nil when the field is to be ignored.
    package static func readable(_ value: String) -> String? {
        value.utf8.allSatisfy { ($0 >= 0x20 && $0 < 0x7F) || $0 == 0x09 } ? value : nil
    }
}
