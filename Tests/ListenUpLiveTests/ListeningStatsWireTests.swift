import Foundation
import ListenUpAPI
import ListenUpKRPC
import Testing
@testable import ListenUpCore
@testable import ListenUpLive

/// Home's stats from each protocol: kRPC's days counted here from the
/// listening events (wall-clock seconds, on the day each ended, here);
/// REST v1's as the Go server counts them.
@Suite("Listening stats on the wire")
struct ListeningStatsWireTests {
    @Test func kRPCDaysAreCountedFromTheEventsInThisComputersTimeZone() {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "America/New_York") ?? .gmt
        // 2026-11-26 12:00 in New York.
        let now = Date(timeIntervalSince1970: 1_795_712_400)
        let ms: (Double) -> Int64 = { Int64(($0 * 1000).rounded()) }
        let base = now.timeIntervalSince1970
        let events = [
            // 20 minutes this morning.
            KRPCStats.Span(bookID: "b1", startedAt: ms(base - 3 * 3600), endedAt: ms(base - 3 * 3600 + 1200)),
            // Ended at 23:30 yesterday New York time, which is already the 26th in UTC.
            KRPCStats.Span(bookID: "b2", startedAt: ms(base - 12.5 * 3600 - 600), endedAt: ms(base - 12.5 * 3600)),
            // Eight days ago: outside the week.
            KRPCStats.Span(bookID: "b3", startedAt: ms(base - 8 * 86_400), endedAt: ms(base - 8 * 86_400 + 6000)),
        ]
        let row = UserStatsSyncPayload(id: "u", totalSecondsAllTime: 93_600, totalSecondsLast7Days: 1_800, totalSecondsLast30Days: 1_800,
                                       booksStarted: 3, booksFinished: 1, currentStreakDays: 2, longestStreakDays: 5,
                                       lastEventDate: "2026-11-26", revision: 1, updatedAt: 1, createdAt: 1)
        let stats = KRPCStats.stats(row, events: events, days: 7, now: now, calendar: calendar)
        #expect(stats.days == [.init(date: "2026-11-25", seconds: 600), .init(date: "2026-11-26", seconds: 1_200)])
        #expect(stats.secondsByBook == ["b1": 1_200, "b2": 600])
        #expect(stats.totalSeconds == 93_600 && stats.currentStreakDays == 2 && stats.booksFinished == 1)
        #expect(KRPCStats.stats(nil, events: [], days: 7, now: now).totalSeconds == 0, "no row yet: nothing listened")
    }

    @Test func theUserStatsRowDecodesWithItsAlwaysPresentNulls() throws {
        let json = #"{"id":"u","totalSecondsAllTime":93600,"totalSecondsLast7Days":5400,"totalSecondsLast30Days":21600,"booksStarted":4,"#
            + #""booksFinished":2,"currentStreakDays":3,"longestStreakDays":9,"lastEventDate":null,"revision":5120,"#
            + #""updatedAt":1787401000123,"createdAt":1787300000000,"deletedAt":null}"#
        let row = try KRPCJSON.decode(UserStatsSyncPayload.self, from: json)
        #expect(row.totalSecondsAllTime == 93_600 && row.longestStreakDays == 9 && row.lastEventDate == nil)
    }

    @Test func theGoServersStatsDecodeWithNullLists() throws {
        let json = #"{"period":"week","start_date":"2026-11-23","end_date":"2026-11-29","total_listen_time_ms":5400000,"#
            + #""books_started":1,"books_finished":0,"current_streak_days":2,"longest_streak_days":4,"#
            + #""daily_listening":[{"date":"2026-11-26","listen_time_ms":1800000,"books_listened":1}],"genre_breakdown":null}"#
        let stats = try ListenUpJSON.decoder.decode(ListeningStatsResponse.self, from: Data(json.utf8))
        #expect(stats.dailyListening == [.init(date: "2026-11-26", listenTimeMs: 1_800_000)])
        #expect(stats.genreBreakdown.isEmpty)
        #expect(stats.currentStreakDays == 2)
    }
}
