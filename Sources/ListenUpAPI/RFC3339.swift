import Foundation

/// RFC 3339 times as the server writes them: Go's RFC3339Nano, 0–9
/// fractional digits with trailing zeros trimmed, any UTC offset.
public enum RFC3339 {
    /// Parses `2026-04-28T16:20:05.118274301Z`, `2026-05-01T08:00:12+02:00`, …
    /// Fractions beyond what `Date` holds are rounded.
    public static func date(from text: String) -> Date? {
        let bytes = Array(text.utf8)
        func digits(_ range: Range<Int>) -> Int? {
            guard range.upperBound <= bytes.count else { return nil }
            var value = 0
            for index in range {
                let byte = bytes[index]
                guard byte >= 48, byte <= 57 else { return nil }
                value = value * 10 + Int(byte - 48)
            }
            return value
        }
        guard bytes.count >= 20,
              let year = digits(0..<4), bytes[4] == UInt8(ascii: "-"),
              let month = digits(5..<7), bytes[7] == UInt8(ascii: "-"),
              let day = digits(8..<10), bytes[10] == UInt8(ascii: "T") || bytes[10] == UInt8(ascii: "t"),
              let hour = digits(11..<13), bytes[13] == UInt8(ascii: ":"),
              let minute = digits(14..<16), bytes[16] == UInt8(ascii: ":"),
              let second = digits(17..<19),
              (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 61
        else { return nil }

        var index = 19
        var fraction = 0.0
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            var scale = 0.1
            let start = index
            while index < bytes.count, bytes[index] >= 48, bytes[index] <= 57 {
                fraction += Double(bytes[index] - 48) * scale
                scale /= 10
                index += 1
            }
            guard index > start, index - start <= 9 else { return nil }
        }
        guard index < bytes.count else { return nil }
        var offset = 0
        switch bytes[index] {
        case UInt8(ascii: "Z"), UInt8(ascii: "z"):
            index += 1
        case UInt8(ascii: "+"), UInt8(ascii: "-"):
            let sign = bytes[index] == UInt8(ascii: "-") ? -1 : 1
            guard let offsetHours = digits(index + 1..<index + 3), index + 3 < bytes.count, bytes[index + 3] == UInt8(ascii: ":"),
                  let offsetMinutes = digits(index + 4..<index + 6) else { return nil }
            offset = sign * (offsetHours * 3600 + offsetMinutes * 60)
            index += 6
        default:
            return nil
        }
        guard index == bytes.count else { return nil }

        // Calendar arithmetic by hand: a Calendar per time made decoding a
        // sync page (several times per book) cost more than the network.
        let days = daysFromCivil(year: year, month: month, day: day)
        let whole = ((days * 24 + hour) * 60 + minute) * 60 + min(second, 59) - offset
        return Date(timeIntervalSince1970: TimeInterval(whole) + fraction)
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's
    /// `days_from_civil`); out-of-range days roll over like DateComponents.
    static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The date of a day count since 1970-01-01 (`civil_from_days`).
    static func civilFromDays(_ days: Int) -> (year: Int, month: Int, day: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    /// Formats in UTC like Go's RFC3339Nano: up to 9 fractional digits,
    /// trailing zeros trimmed, no fraction when whole.
    public static func string(from date: Date) -> String {
        let seconds = date.timeIntervalSince1970.rounded(.down)
        var nanos = Int(((date.timeIntervalSince1970 - seconds) * 1_000_000_000).rounded())
        var whole = Date(timeIntervalSince1970: seconds)
        if nanos >= 1_000_000_000 {
            nanos -= 1_000_000_000
            whole = whole.addingTimeInterval(1)
        }
        let total = Int(whole.timeIntervalSince1970)
        let days = total >= 0 ? total / 86_400 : (total - 86_399) / 86_400
        let secondOfDay = total - days * 86_400
        let civil = civilFromDays(days)
        let parts = (year: civil.year, month: civil.month, day: civil.day,
                     hour: secondOfDay / 3_600, minute: secondOfDay / 60 % 60, second: secondOfDay % 60)
        func pad(_ value: Int, _ width: Int) -> String {
            let text = String(value)
            return String(repeating: "0", count: max(0, width - text.count)) + text
        }
        var text = "\(pad(parts.year, 4))-\(pad(parts.month, 2))-\(pad(parts.day, 2))T\(pad(parts.hour, 2)):\(pad(parts.minute, 2)):\(pad(parts.second, 2))"
        if nanos > 0 {
            var fraction = pad(nanos, 9)
            while fraction.hasSuffix("0") { fraction.removeLast() }
            text += "." + fraction
        }
        return text + "Z"
    }
}
