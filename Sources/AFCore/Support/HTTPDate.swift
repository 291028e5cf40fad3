import Foundation

/// HTTP dates (RFC 9110 §5.6.7): the IMF-fixdate form, and the obsolete RFC 850 and asctime forms
/// recipients must still accept.
enum HTTPDate {
    private static let obsoleteFormats = [
        "EEEE, dd-MMM-yy HH:mm:ss 'GMT'",   // Sunday, 06-Nov-94 08:49:37 GMT
        "EEE MMM d HH:mm:ss yyyy",          // Sun Nov  6 08:49:37 1994
    ]

    /// The date `text` names, or nil when it is in none of the three forms.
    static func parse(_ text: String) -> Date? {
        let trimmed = text.trimmingASCIISpaces()
        if let date = fixdate(trimmed) { return date }
        let collapsed = trimmed.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
        if let date = fixdate(Substring(collapsed)) { return date }
        for format in obsoleteFormats {
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = TimeZone(identifier: "GMT")
            formatter.dateFormat = format
            if let date = formatter.date(from: collapsed) { return date }
        }
        return nil
    }

    private static let dayNames = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
    private static let monthNames = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// An IMF-fixdate (`Sun, 06 Nov 1994 08:49:37 GMT`), the form servers send, read by position.
    private static func fixdate(_ text: Substring) -> Date? {
        let bytes = Array(text.utf8)
        guard bytes.count == 29, bytes[3] == UInt8(ascii: ","), bytes[4] == 0x20, bytes[7] == 0x20, bytes[11] == 0x20,
              bytes[16] == 0x20, bytes[19] == UInt8(ascii: ":"), bytes[22] == UInt8(ascii: ":"), bytes[25] == 0x20,
              String(decoding: bytes[26...], as: UTF8.self) == "GMT",
              dayNames.contains(String(decoding: bytes[0..<3], as: UTF8.self)),
              let monthIndex = monthNames.firstIndex(of: String(decoding: bytes[8..<11], as: UTF8.self)),
              let day = number(bytes[5..<7]), let year = number(bytes[12..<16]), let hour = number(bytes[17..<19]),
              let minute = number(bytes[20..<22]), let second = number(bytes[23..<25]),
              day >= 1, day <= daysIn(month: monthIndex + 1, year: year), hour < 24, minute < 60, second < 61
        else { return nil }
        let days = daysSinceEpoch(year: year, month: monthIndex + 1, day: day)
        return Date(timeIntervalSince1970: TimeInterval(((days * 24 + hour) * 60 + minute) * 60 + second))
    }

    /// The decimal value of an all-digit run; nil when any byte is not a digit.
    private static func number(_ digits: ArraySlice<UInt8>) -> Int? {
        var value = 0
        for byte in digits {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
        }
        return value
    }

    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Days from 1970-01-01 to the given proleptic Gregorian date (the civil-from-days inverse).
    private static func daysSinceEpoch(year: Int, month: Int, day: Int) -> Int {
        let shiftedYear = month <= 2 ? year - 1 : year
        let era = (shiftedYear >= 0 ? shiftedYear : shiftedYear - 399) / 400
        let yearOfEra = shiftedYear - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}
