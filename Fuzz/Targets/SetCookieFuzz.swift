import AFCore
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The input as one `Set-Cookie` field value, made readable as AF makes it and handed to
/// FoundationNetworking's cookie parser, as a response's cookies are. Checks: no crash; what
/// `readable` keeps of a printable ASCII value is the value itself.
enum SetCookieFuzz {
    static func run(_ input: Data) -> [String] {
        let value = String(decoding: input, as: UTF8.self)
        let readable = SetCookieField.readable(value)
        _ = HTTPCookie.cookies(withResponseHeaderFields: ["Set-Cookie": readable], for: URL(string: "http://fuzz.test/a/b")!)
        if value.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }), readable != value { return ["\(value.debugDescription) changed"] }
        return []
    }
}
