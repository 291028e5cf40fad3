import AFCore
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The input as one `Set-Cookie` field value, handed to FoundationNetworking's cookie parser when
/// AF would. Checks: no crash; printable ASCII values are all handed over.
enum SetCookieFuzz {
    static func run(_ input: Data) -> [String] {
        let value = String(decoding: input, as: UTF8.self)
        guard let readable = SetCookieField.readable(value) else {
            return value.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) ? ["\(value.debugDescription) refused"] : []
        }
        _ = HTTPCookie.cookies(withResponseHeaderFields: ["Set-Cookie": readable], for: URL(string: "http://fuzz.test/a/b")!)
        return []
    }
}
