import AFCore
import Foundation

/// The input as a `Cache-Control` value, as `Vary` names and as an HTTP date. Checks: delta
/// seconds are never negative; a date read from an IMF-fixdate comes back as the same text
/// when written again (day name aside: it is not checked against the date).
enum CacheFieldsFuzz {
    static func run(_ input: Data) -> [String] {
        let text = String(decoding: input, as: UTF8.self)
        var problems: [String] = []
        let control = CacheControl(text)
        for (name, seconds) in [("max-age", control.maxAge), ("min-fresh", control.minFresh), ("max-stale", control.maxStale)] {
            if let seconds, seconds < 0 { problems.append("\(name) = \(seconds)") }
        }
        _ = CacheLookup.varyNames(["Vary": text])
        if let date = HTTPDate.parse(text), !text.utf8.allSatisfy({ $0 < 0x80 }) {
            problems.append("\(text.debugDescription) is not ASCII, yet read as \(date)")
        }
        // Any date read is read again the same from its IMF-fixdate.
        if let date = HTTPDate.parse(text), date.timeIntervalSince1970 > -11_676_096_000 /* 1600 */,
           HTTPDate.parse(fixdate(date)) != date {
            problems.append("\(fixdate(date)) (from \(text.debugDescription)) does not read back")
        }
        if let date = HTTPDate.parse(text) {
            let trimmed = text.trimmingCharacters(in: CharacterSet(charactersIn: " \t"))
            // IMF-fixdates after the Julian calendar's last use (DateFormatter switches to it before 1583).
            let bytes = Array(trimmed.utf8)
            if bytes.count == 29, bytes[3] == UInt8(ascii: ","), trimmed.hasSuffix(" GMT"), !trimmed.contains(":60 "),
               let year = Int(String(decoding: bytes[12..<16], as: UTF8.self)), year >= 1600,
               String(fixdate(date).dropFirst(3)) != String(trimmed.dropFirst(3)) {
                problems.append("\(trimmed.debugDescription) read as \(fixdate(date))")
            }
        }
        return problems
    }

    private static func fixdate(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return formatter.string(from: date)
    }
}
