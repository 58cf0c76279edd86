import Foundation
import ListenUpAPI
import ListenUpKRPC

/// Listening stats, derived from what the demo records (the listening
/// events, positions and finishes), the way each real server counts them.
///
/// REST v1 answers `GET /api/v1/listening/stats` as the Go server does
/// (`internal/api/listening_handlers.go handleGetUserStats`,
/// `internal/service/stats.go GetUserStats`, `internal/domain/stats.go`):
/// calendar periods (ISO weeks from Monday) in this process's time zone,
/// content milliseconds, a streak day needs 30 s.
///
/// kRPC keeps one `user_stats` row per user, re-derived after every event,
/// position write and finish as `UserStatsDerivation.kt deriveUserStats`
/// does: wall-clock seconds, rolling 7/30-day windows, streaks over event
/// days ∪ position `lastPlayedAt` days ∪ finish days in the user's home
/// time zone (UTC unless a listening event named one).
enum DemoStats {
    /// The periods the Go server takes, in its enum's order.
    static let periods = ["day", "week", "month", "year", "all"]
    /// The least content time that makes a day a streak day (Go `minListenMs`).
    static let minimumStreakMs: Int64 = 30_000

    /// Go's `UserStatsResponse`, every key (`streak_calendar` is never empty here).
    struct GoResponse: Encodable {
        struct Day: Encodable {
            var date: String
            var listenTimeMs: Int64
            var booksListened: Int
            enum CodingKeys: String, CodingKey {
                case date, listenTimeMs = "listen_time_ms", booksListened = "books_listened"
            }
        }

        struct Genre: Encodable {
            var genreSlug: String
            var genreName: String
            var listenTimeMs: Int64
            var percentage: Double
            enum CodingKeys: String, CodingKey {
                case genreSlug = "genre_slug", genreName = "genre_name", listenTimeMs = "listen_time_ms", percentage
            }
        }

        struct StreakDay: Encodable {
            var date: String
            var hasListened: Bool
            var listenTimeMs: Int64
            var intensity: Int
            enum CodingKeys: String, CodingKey {
                case date, hasListened = "has_listened", listenTimeMs = "listen_time_ms", intensity
            }
        }

        var period: String
        var startDate: String
        var endDate: String
        var totalListenTimeMs: Int64 = 0
        var booksStarted = 0
        var booksFinished = 0
        var currentStreakDays = 0
        var longestStreakDays = 0
        var dailyListening: [Day] = []
        var genreBreakdown: [Genre] = []
        var streakCalendar: [StreakDay] = []

        enum CodingKeys: String, CodingKey {
            case period, startDate = "start_date", endDate = "end_date", totalListenTimeMs = "total_listen_time_ms"
            case booksStarted = "books_started", booksFinished = "books_finished", currentStreakDays = "current_streak_days"
            case longestStreakDays = "longest_streak_days", dailyListening = "daily_listening", genreBreakdown = "genre_breakdown"
            case streakCalendar = "streak_calendar"
        }
    }

    /// What the Go stats are counted from: one user's events and progress.
    struct Record {
        var events: [ListeningEventDTO]
        var progress: [String: ListeningState.Progress]
    }

    // MARK: REST v1 (Go)

    /// `[start, end)` of `period` around `now` (`StatsPeriod.Bounds`); a nil
    /// start is Go's zero time (all time). End is always tomorrow's midnight.
    static func bounds(_ period: String, now: Date, calendar: Calendar) -> (start: Date?, end: Date) {
        let today = calendar.startOfDay(for: now)
        let end = calendar.date(byAdding: .day, value: 1, to: today) ?? today
        let parts = calendar.dateComponents([.year, .month], from: today)
        switch period {
        case "week":
            let weekday = calendar.component(.weekday, from: today)  // 1 = Sunday
            let daysSinceMonday = (weekday + 5) % 7
            return (calendar.date(byAdding: .day, value: -daysSinceMonday, to: today), end)
        case "month":
            return (calendar.date(from: DateComponents(year: parts.year, month: parts.month, day: 1)), end)
        case "year":
            return (calendar.date(from: DateComponents(year: parts.year, month: 1, day: 1)), end)
        case "all":
            return (nil, end)
        default:
            return (today, end)
        }
    }

    /// The Go server's answer for one user and a valid period.
    static func goStats(_ record: Record, period: String, genres: [String: [String]], now: Date,
                        calendar: Calendar = .current) -> GoResponse {
        let (start, end) = bounds(period, now: now, calendar: calendar)
        var response = GoResponse(period: period, startDate: start.map { rfc3339($0, calendar.timeZone) } ?? "0001-01-01T00:00:00Z",
                                  endDate: rfc3339(end, calendar.timeZone))
        // GetEventsForUserInRange: ended_at in [start, end], newest first.
        let inRange = record.events.filter { event in
            let ended = date(event.endedAt)
            return (start.map { ended >= $0 } ?? true) && ended <= end
        }.sorted { $0.endedAt > $1.endedAt }
        response.booksFinished = record.progress.values.filter { progress in
            guard progress.finished, let finished = progress.finishedAt else { return false }
            return (start.map { finished >= $0 } ?? true) && finished <= end
        }.count
        response.booksStarted = record.progress.values.filter { progress in
            (start.map { progress.startedAt >= $0 } ?? true) && progress.startedAt < end
        }.count

        var days: [String: (utcDate: String, ms: Int64, books: Set<String>)] = [:]
        var genreMs: [String: Int64] = [:]
        for event in inRange {
            let ms = contentMs(event)
            response.totalListenTimeMs += ms
            let key = dayString(date(event.endedAt), calendar.timeZone)
            // Go labels a day with the date of its first (newest) event as
            // stored, in UTC: the same as the key on a UTC server.
            var day = days[key] ?? (dayString(date(event.endedAt), utc), 0, [])
            day.ms += ms
            day.books.insert(event.bookID)
            days[key] = day
            for slug in genres[event.bookID] ?? [] { genreMs[slug, default: 0] += ms }
        }
        response.dailyListening = days.values.sorted { $0.utcDate < $1.utcDate }
            .map { GoResponse.Day(date: $0.utcDate, listenTimeMs: $0.ms, booksListened: $0.books.count) }
        let genreTotal = genreMs.values.reduce(0, +)
        response.genreBreakdown = genreMs.map { slug, ms in
            GoResponse.Genre(genreSlug: slug, genreName: displayName(slug: slug), listenTimeMs: ms,
                             percentage: genreTotal > 0 ? Double(ms) / Double(genreTotal) * 100 : 0)
        }.sorted { $0.listenTimeMs != $1.listenTimeMs ? $0.listenTimeMs > $1.listenTimeMs : $0.genreSlug < $1.genreSlug }
        response.genreBreakdown = Array(response.genreBreakdown.prefix(5))
        (response.currentStreakDays, response.longestStreakDays) = goStreaks(record.events, now: now, calendar: calendar)
        response.streakCalendar = goCalendar(record.events, now: now, calendar: calendar)
        return response
    }

    /// `calculateStreaks`: every event ever, summed per local day; days with
    /// 30 s or more count; the current run must end today or yesterday.
    static func goStreaks(_ events: [ListeningEventDTO], now: Date, calendar: Calendar) -> (current: Int, longest: Int) {
        var perDay: [Date: Int64] = [:]
        for event in events { perDay[calendar.startOfDay(for: date(event.endedAt)), default: 0] += contentMs(event) }
        let qualifying = perDay.filter { $0.value >= minimumStreakMs }.map(\.key)
        return streaks(Set(qualifying), today: calendar.startOfDay(for: now), calendar: calendar)
    }

    /// `buildStreakCalendar`: 84 days ending today. Go truncates each day to
    /// a UTC midnight and names it in local time; kept as it does.
    static func goCalendar(_ events: [ListeningEventDTO], now: Date, calendar: Calendar) -> [GoResponse.StreakDay] {
        let days = 84
        let windowStart = truncatedToUTCDay(calendar.date(byAdding: .day, value: -days, to: now) ?? now)
        let windowEnd = now.addingTimeInterval(86_400)
        var perDay: [String: Int64] = [:]
        for event in events {
            let ended = date(event.endedAt)
            guard ended >= windowStart, ended <= windowEnd else { continue }
            perDay[dayString(ended, calendar.timeZone), default: 0] += contentMs(event)
        }
        let most = perDay.values.max() ?? 0
        return (0..<days).reversed().map { back in
            let day = truncatedToUTCDay(calendar.date(byAdding: .day, value: -back, to: now) ?? now)
            let key = dayString(day, calendar.timeZone)
            let ms = perDay[key] ?? 0
            let listened = ms >= minimumStreakMs
            let intensity = listened && most > 0 ? min(Int(Double(ms) / Double(most) * 3) + 1, 4) : 0
            return GoResponse.StreakDay(date: key, hasListened: listened, listenTimeMs: ms, intensity: intensity)
        }
    }

    /// Go's `genreDisplayName`: the slug's words, each capitalised.
    static func displayName(slug: String) -> String {
        slug.split(separator: "-", omittingEmptySubsequences: false).map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined(separator: " ")
    }

    /// A genre name as a slug (`Science Fiction` → `science-fiction`).
    static func slug(_ name: String) -> String {
        name.lowercased().split(whereSeparator: { !$0.isLetter && !$0.isNumber }).joined(separator: "-")
    }

    // MARK: kRPC (Kotlin)

    /// `deriveUserStats` as of `now` in `timeZone`; revision and timestamps 0.
    static func derive(userID: String, events: [ListeningEventDTO], progress: [ListeningState.Progress], now: Date,
                       timeZone: TimeZone) -> UserStatsSyncPayload {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let ordered = events.sorted { $0.endedAt < $1.endedAt }
        let nowMs = Int64((now.timeIntervalSince1970 * 1000).rounded(.down))
        let cutoff7 = nowMs - 7 * 86_400_000, cutoff30 = nowMs - 30 * 86_400_000
        var total: Int64 = 0, last7: Int64 = 0, last30: Int64 = 0
        var streakDays = Set<Date>()
        for event in ordered {
            total += (event.endedAt - event.startedAt) / 1000
            if event.endedAt >= cutoff7 { last7 += (event.endedAt - max(event.startedAt, cutoff7)) / 1000 }
            if event.endedAt >= cutoff30 { last30 += (event.endedAt - max(event.startedAt, cutoff30)) / 1000 }
            streakDays.insert(calendar.startOfDay(for: date(event.endedAt)))
        }
        // The demo keeps no `book_reads`: one finish per finished position
        // (a re-read is not counted twice).
        let finished = progress.filter(\.finished)
        for row in progress { streakDays.insert(calendar.startOfDay(for: row.lastPlayedAt)) }
        for row in finished { if let at = row.finishedAt { streakDays.insert(calendar.startOfDay(for: at)) } }
        let (current, longest) = streaks(streakDays, today: calendar.startOfDay(for: now), calendar: calendar)
        return UserStatsSyncPayload(
            id: userID, totalSecondsAllTime: total, totalSecondsLast7Days: last7, totalSecondsLast30Days: last30,
            booksStarted: Set(events.map(\.bookID)).count, booksFinished: finished.count, currentStreakDays: current,
            longestStreakDays: longest, lastEventDate: ordered.last.map { dayString(date($0.endedAt), timeZone) },
            revision: 0, updatedAt: 0, createdAt: 0, deletedAt: nil)
    }

    // MARK: Shared

    /// Current and longest runs of consecutive days (`StreakReducer.reduce`,
    /// and Go's `calculateStreaks` over its qualifying days): the current
    /// one counts only if the latest day is today or yesterday.
    static func streaks(_ days: Set<Date>, today: Date, calendar: Calendar) -> (current: Int, longest: Int) {
        let sorted = days.sorted()
        guard let latest = sorted.last else { return (0, 0) }
        var longest = 0, run = 0
        var previous: Date?
        for day in sorted {
            run = previous.flatMap { calendar.date(byAdding: .day, value: 1, to: $0) } == day ? run + 1 : 1
            longest = max(longest, run)
            previous = day
        }
        let yesterday = calendar.date(byAdding: .day, value: -1, to: today)
        guard latest == today || latest == yesterday else { return (0, longest) }
        var current = 0
        var cursor: Date? = latest
        while let day = cursor, days.contains(day) {
            current += 1
            cursor = calendar.date(byAdding: .day, value: -1, to: day)
        }
        return (current, longest)
    }

    /// Content time of an event (Go `DurationMs`: end − start position).
    static func contentMs(_ event: ListeningEventDTO) -> Int64 {
        max(0, event.endPositionMs - event.startPositionMs)
    }

    static func date(_ milliseconds: Int64) -> Date {
        Date(timeIntervalSince1970: Double(milliseconds) / 1000)
    }

    static let utc = TimeZone(identifier: "UTC") ?? TimeZone(secondsFromGMT: 0) ?? .current

    /// `YYYY-MM-DD` of `date` in `zone`.
    static func dayString(_ date: Date, _ zone: TimeZone) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let parts = calendar.dateComponents([.year, .month, .day], from: date)
        return String(format: "%04d-%02d-%02d", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0)
    }

    /// Go's `time.RFC3339` in `zone`: `2026-11-23T00:00:00+01:00`, or `Z` in UTC.
    static func rfc3339(_ date: Date, _ zone: TimeZone) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.calendar = Calendar(identifier: .gregorian)
        formatter.timeZone = zone
        formatter.dateFormat = "yyyy-MM-dd'T'HH:mm:ssXXXXX"
        return formatter.string(from: date)
    }

    /// Go's `Time.Truncate(24 * time.Hour)`: down to a UTC midnight.
    static func truncatedToUTCDay(_ date: Date) -> Date {
        Date(timeIntervalSince1970: (date.timeIntervalSince1970 / 86_400).rounded(.down) * 86_400)
    }
}
