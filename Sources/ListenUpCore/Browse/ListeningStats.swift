import Foundation

/// The signed-in user's listening, as Home shows it: the seam's own type,
/// which both protocols fill (REST v1: `GET /api/v1/listening/stats`;
/// kRPC: the `user_stats` row and the `listening_events` domain).
public struct ListeningStats: Codable, Equatable, Sendable {
    /// One calendar day's listening.
    public struct Day: Codable, Equatable, Sendable {
        /// `YYYY-MM-DD`.
        public var date: String
        public var seconds: Int64

        public init(date: String, seconds: Int64) {
            self.date = date
            self.seconds = seconds
        }
    }

    /// A genre's share of the listening.
    public struct GenreShare: Codable, Equatable, Sendable {
        public var name: String
        public var seconds: Int64

        public init(name: String, seconds: Int64) {
            self.name = name
            self.seconds = seconds
        }
    }

    /// All listening ever, seconds.
    public var totalSeconds: Int64
    public var currentStreakDays: Int
    public var longestStreakDays: Int
    public var booksFinished: Int
    /// Listening per day, for the days the server (or the events) named;
    /// a day missing had none.
    public var days: [Day]
    /// The top genres, as the server counts them (REST v1); empty when it
    /// does not (kRPC): then ``secondsByBook`` lets the app count them.
    public var topGenres: [GenreShare]
    /// Listening per book over the days of ``days`` (kRPC), for the genres.
    public var secondsByBook: [String: Int64]

    public init(totalSeconds: Int64 = 0, currentStreakDays: Int = 0, longestStreakDays: Int = 0, booksFinished: Int = 0,
                days: [Day] = [], topGenres: [GenreShare] = [], secondsByBook: [String: Int64] = [:]) {
        self.totalSeconds = totalSeconds
        self.currentStreakDays = currentStreakDays
        self.longestStreakDays = longestStreakDays
        self.booksFinished = booksFinished
        self.days = days
        self.topGenres = topGenres
        self.secondsByBook = secondsByBook
    }

    /// Minutes of each of the seven days ending on `today` (a date of the
    /// ``Day/date`` form), oldest first: the week's bars.
    public func minutesByDay(endingOn today: Date, calendar: Calendar = .current) -> [Int] {
        let seconds = Dictionary(days.map { ($0.date, $0.seconds) }, uniquingKeysWith: +)
        return (0..<7).reversed().map { back in
            guard let day = calendar.date(byAdding: .day, value: -back, to: today) else { return 0 }
            return Int((seconds[Self.dayString(day, calendar: calendar)] ?? 0) / 60)
        }
    }

    /// `date` as `YYYY-MM-DD` in `calendar`'s time zone.
    public static func dayString(_ date: Date, calendar: Calendar = .current) -> String {
        let parts = calendar.dateComponents([.year, .month, .day], from: date)
        return String(format: "%04d-%02d-%02d", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0)
    }
}
