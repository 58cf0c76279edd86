import Foundation
import Testing
@testable import ListenUpAPI

/// RFC 3339 times are parsed and written with calendar arithmetic by hand
/// (a Calendar per time was slow); checked against Foundation's Calendar.
@Suite("RFC 3339 arithmetic")
struct RFC3339Tests {
    static func calendarText(_ seconds: Int) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(secondsFromGMT: 0) ?? calendar.timeZone
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second],
                                            from: Date(timeIntervalSince1970: TimeInterval(seconds)))
        func pad(_ value: Int?, _ width: Int) -> String {
            let text = String(value ?? 0)
            return String(repeating: "0", count: max(0, width - text.count)) + text
        }
        return "\(pad(parts.year, 4))-\(pad(parts.month, 2))-\(pad(parts.day, 2))T\(pad(parts.hour, 2)):\(pad(parts.minute, 2)):\(pad(parts.second, 2))Z"
    }

    @Test func agreesWithFoundationsCalendarFrom1900To2200() {
        var generator = SystemRandomNumberGenerator()
        // 1900-01-01 … 2200-01-01, plus the edges around leap days and epochs.
        var samples = (0..<3_000).map { _ in Int.random(in: -2_208_988_800...7_258_118_400, using: &generator) }
        samples += [0, -1, 86_399, 86_400, 951_782_400, 951_868_799, 951_868_800, 4_107_542_400, -2_203_891_200]
        for seconds in samples {
            let expected = Self.calendarText(seconds)
            #expect(RFC3339.string(from: Date(timeIntervalSince1970: TimeInterval(seconds))) == expected)
            #expect(RFC3339.date(from: expected) == Date(timeIntervalSince1970: TimeInterval(seconds)), "\(expected)")
        }
    }

    @Test func offsetsFractionsAndRollover() {
        #expect(RFC3339.date(from: "2026-05-01T08:00:12+02:00") == RFC3339.date(from: "2026-05-01T06:00:12Z"))
        #expect(RFC3339.date(from: "2024-03-01T00:00:00-00:30") == RFC3339.date(from: "2024-03-01T00:30:00Z"))
        #expect(RFC3339.date(from: "2026-04-28T16:20:05.5Z")?.timeIntervalSince1970.truncatingRemainder(dividingBy: 1) == 0.5)
        // Day 30 of February rolls over as DateComponents did.
        #expect(RFC3339.date(from: "2023-02-30T00:00:00Z") == RFC3339.date(from: "2023-03-02T00:00:00Z"))
        #expect(RFC3339.string(from: Date(timeIntervalSince1970: 1_777_393_205.25)) == "2026-04-28T16:20:05.25Z")
    }
}
