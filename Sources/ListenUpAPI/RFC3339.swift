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

        var components = DateComponents()
        components.calendar = Calendar(identifier: .gregorian)
        components.timeZone = TimeZone(secondsFromGMT: 0)
        components.year = year
        components.month = month
        components.day = day
        components.hour = hour
        components.minute = minute
        components.second = min(second, 59)
        guard let base = components.date else { return nil }
        return base.addingTimeInterval(fraction - TimeInterval(offset))
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
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(secondsFromGMT: 0) ?? calendar.timeZone
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: whole)
        func pad(_ value: Int?, _ width: Int) -> String {
            let text = String(value ?? 0)
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
