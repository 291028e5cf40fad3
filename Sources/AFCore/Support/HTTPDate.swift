import Foundation

/// HTTP dates (RFC 9110 §5.6.7): the IMF-fixdate form, and the obsolete RFC 850 and asctime forms
/// recipients must still accept.
package enum HTTPDate {
    /// The date `text` names, or nil when it is in none of the three forms. Every form is read
    /// by position over ASCII bytes, strictly: anything else (a stray character, a field out of
    /// range, any non-ASCII byte) is no date.
    package static func parse(_ text: String) -> Date? {
        let trimmed = text.trimmingASCIISpaces()
        guard trimmed.utf8.allSatisfy({ $0 < 0x80 }) else { return nil }
        if let date = fixdate(Array(trimmed.utf8)) { return date }
        // The obsolete forms, and a fixdate with doubled spaces, read with runs of spaces as one.
        let collapsed = Array(trimmed.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ").utf8)
        return fixdate(collapsed) ?? rfc850(collapsed) ?? asctime(collapsed)
    }

    private static let dayNames = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
    private static let longDayNames = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
    private static let monthNames = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// An IMF-fixdate (`Sun, 06 Nov 1994 08:49:37 GMT`), the form servers send.
    private static func fixdate(_ bytes: [UInt8]) -> Date? {
        guard bytes.count == 29, bytes[3] == UInt8(ascii: ","), bytes[4] == 0x20, bytes[7] == 0x20, bytes[11] == 0x20,
              bytes[16] == 0x20, bytes[25] == 0x20, text(bytes[26...]) == "GMT", dayNames.contains(text(bytes[0..<3])),
              let day = number(bytes[5..<7]), let year = number(bytes[12..<16]) else { return nil }
        return date(year: year, month: bytes[8..<11], day: day, time: bytes[17..<25])
    }

    /// The obsolete RFC 850 form (`Sunday, 06-Nov-94 08:49:37 GMT`); a two-digit year more than
    /// 50 years ahead is taken as the last such year past (RFC 9110 §5.6.7).
    private static func rfc850(_ bytes: [UInt8]) -> Date? {
        guard let comma = bytes.firstIndex(of: UInt8(ascii: ",")), longDayNames.contains(text(bytes[..<comma])) else { return nil }
        let rest = bytes[(comma + 1)...].map { $0 }
        guard rest.count == 23, rest[0] == 0x20, rest[3] == UInt8(ascii: "-"), rest[7] == UInt8(ascii: "-"), rest[10] == 0x20,
              rest[19] == 0x20, text(rest[20...]) == "GMT",
              let day = number(rest[1..<3]), let shortYear = number(rest[8..<10]) else { return nil }
        let thisYear = Calendar(identifier: .gregorian).dateComponents(in: TimeZone(identifier: "GMT")!, from: Date()).year ?? 2000
        var year = thisYear - thisYear % 100 + shortYear
        if year > thisYear + 50 { year -= 100 }
        return date(year: year, month: rest[4..<7], day: day, time: rest[11..<19])
    }

    /// The obsolete asctime form (`Sun Nov  6 08:49:37 1994`, read with its spaces collapsed).
    private static func asctime(_ bytes: [UInt8]) -> Date? {
        guard bytes.count == 23 || bytes.count == 24, dayNames.contains(text(bytes[0..<3])), bytes[3] == 0x20, bytes[7] == 0x20
        else { return nil }
        let dayEnd = bytes.count == 24 ? 10 : 9
        guard bytes[dayEnd] == 0x20, bytes[dayEnd + 9] == 0x20, let day = number(bytes[8..<dayEnd]),
              let year = number(bytes[(dayEnd + 10)...]), bytes.count - (dayEnd + 10) == 4 else { return nil }
        return date(year: year, month: bytes[4..<7], day: day, time: bytes[(dayEnd + 1)..<(dayEnd + 9)])
    }

    /// The date of `year`, a month name, `day` and `HH:MM:SS`, when each is in range (a leap
    /// second, :60, is the next minute).
    private static func date(year: Int, month: ArraySlice<UInt8>, day: Int, time: ArraySlice<UInt8>) -> Date? {
        let time = Array(time)
        guard let monthIndex = monthNames.firstIndex(of: text(month)), time.count == 8,
              time[2] == UInt8(ascii: ":"), time[5] == UInt8(ascii: ":"),
              let hour = number(time[0..<2]), let minute = number(time[3..<5]), let second = number(time[6..<8]),
              day >= 1, day <= daysIn(month: monthIndex + 1, year: year), hour < 24, minute < 60, second < 61
        else { return nil }
        let days = daysSinceEpoch(year: year, month: monthIndex + 1, day: day)
        return Date(timeIntervalSince1970: TimeInterval(((days * 24 + hour) * 60 + minute) * 60 + second))
    }

    private static func text(_ bytes: ArraySlice<UInt8>) -> String {
        String(decoding: bytes, as: UTF8.self)
    }

    /// The decimal value of an all-digit run; nil when any byte is not a digit.
    private static func number(_ digits: ArraySlice<UInt8>) -> Int? {
        guard !digits.isEmpty else { return nil }
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
