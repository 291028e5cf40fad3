import Foundation

/// `date` as an HTTP-date (IMF-fixdate, RFC 9110), as servers send it in `Date`,
/// `Last-Modified` and `Expires`.
package func httpDate(_ date: Date) -> String {
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = TimeZone(identifier: "GMT")
    formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
    return formatter.string(from: date)
}
