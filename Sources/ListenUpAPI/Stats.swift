import Foundation

/// `GET /api/v1/listening/stats` `data` (addendum §7: `listening_handlers.go`,
/// `service/stats.go`, `domain/stats.go`). Times are content milliseconds,
/// periods calendar ones (ISO weeks from Monday) in the server's time zone;
/// a streak day needs 30 s of listening.
public struct ListeningStatsResponse: Codable, Equatable, Sendable {
    public var period: String
    public var totalListenTimeMs: Int64
    public var booksStarted: Int
    public var booksFinished: Int
    public var currentStreakDays: Int
    public var longestStreakDays: Int
    public var dailyListening: [Day]
    public var genreBreakdown: [GenreShare]

    /// One day of the period.
    public struct Day: Codable, Equatable, Sendable {
        /// The day (`YYYY-MM-DD`; a time after it, if any, is ignored).
        public var date: String
        public var listenTimeMs: Int64

        enum CodingKeys: String, CodingKey {
            case date
            case listenTimeMs = "listen_time_ms"
        }

        public init(date: String, listenTimeMs: Int64) {
            self.date = date
            self.listenTimeMs = listenTimeMs
        }
    }

    /// One of the top genres (at most five).
    public struct GenreShare: Codable, Equatable, Sendable {
        public var genreName: String
        public var listenTimeMs: Int64

        enum CodingKeys: String, CodingKey {
            case genreName = "genre_name"
            case listenTimeMs = "listen_time_ms"
        }

        public init(genreName: String, listenTimeMs: Int64) {
            self.genreName = genreName
            self.listenTimeMs = listenTimeMs
        }
    }

    enum CodingKeys: String, CodingKey {
        case period
        case totalListenTimeMs = "total_listen_time_ms"
        case booksStarted = "books_started"
        case booksFinished = "books_finished"
        case currentStreakDays = "current_streak_days"
        case longestStreakDays = "longest_streak_days"
        case dailyListening = "daily_listening"
        case genreBreakdown = "genre_breakdown"
    }

    public init(period: String, totalListenTimeMs: Int64, booksStarted: Int, booksFinished: Int, currentStreakDays: Int,
                longestStreakDays: Int, dailyListening: [Day], genreBreakdown: [GenreShare]) {
        self.period = period
        self.totalListenTimeMs = totalListenTimeMs
        self.booksStarted = booksStarted
        self.booksFinished = booksFinished
        self.currentStreakDays = currentStreakDays
        self.longestStreakDays = longestStreakDays
        self.dailyListening = dailyListening
        self.genreBreakdown = genreBreakdown
    }

    /// Reads the answer; the lists may be `null` (Go's nil slices).
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        period = try c.decode(String.self, forKey: .period)
        totalListenTimeMs = try c.decode(Int64.self, forKey: .totalListenTimeMs)
        booksStarted = try c.decodeIfPresent(Int.self, forKey: .booksStarted) ?? 0
        booksFinished = try c.decodeIfPresent(Int.self, forKey: .booksFinished) ?? 0
        currentStreakDays = try c.decodeIfPresent(Int.self, forKey: .currentStreakDays) ?? 0
        longestStreakDays = try c.decodeIfPresent(Int.self, forKey: .longestStreakDays) ?? 0
        dailyListening = try c.decodeIfPresent([Day].self, forKey: .dailyListening) ?? []
        genreBreakdown = try c.decodeIfPresent([GenreShare].self, forKey: .genreBreakdown) ?? []
    }
}

extension Endpoint where Response == ListeningStatsResponse {
    /// `GET /api/v1/listening/stats?period=` (`day`, `week`, `month`, `year`, `all`).
    public static func listeningStats(period: String) -> Endpoint {
        Endpoint(method: .get, path: "/api/v1/listening/stats", query: [("period", period)], requiresAuth: true)
    }
}
