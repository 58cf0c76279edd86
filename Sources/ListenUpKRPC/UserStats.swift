/// The user's stats row (`UserStatsSyncPayload`, addendum §4.2), domain
/// `user_stats`, and `PlaybackService.getStats`'s answer
/// (`contract/src/commonMain/kotlin/com/calypsan/listenup/api/sync/UserStatsSyncPayload.kt`).
/// `lastEventDate` and `deletedAt` have no default, so they are always sent.
public struct UserStatsSyncPayload: Codable, Sendable, Equatable {
    /// The user's id.
    public var id: String
    /// Wall-clock seconds of every listening event.
    public var totalSecondsAllTime: Int64
    /// The same over the rolling last 7 × 24 hours.
    public var totalSecondsLast7Days: Int64
    /// The same over the rolling last 30 days.
    public var totalSecondsLast30Days: Int64
    /// Distinct books with a listening event.
    public var booksStarted: Int
    /// Finishes (re-reads count).
    public var booksFinished: Int
    /// Consecutive days ending today or yesterday.
    public var currentStreakDays: Int
    /// The longest run ever.
    public var longestStreakDays: Int
    /// `YYYY-MM-DD` of the last event; nil before the first.
    public var lastEventDate: String?
    public var revision: Int64
    public var updatedAt: Int64
    public var createdAt: Int64
    public var deletedAt: Int64?

    /// Creates a row; each parameter sets the property of the same name.
    public init(id: String, totalSecondsAllTime: Int64, totalSecondsLast7Days: Int64, totalSecondsLast30Days: Int64,
                booksStarted: Int, booksFinished: Int, currentStreakDays: Int, longestStreakDays: Int, lastEventDate: String?,
                revision: Int64, updatedAt: Int64, createdAt: Int64, deletedAt: Int64? = nil) {
        self.id = id
        self.totalSecondsAllTime = totalSecondsAllTime
        self.totalSecondsLast7Days = totalSecondsLast7Days
        self.totalSecondsLast30Days = totalSecondsLast30Days
        self.booksStarted = booksStarted
        self.booksFinished = booksFinished
        self.currentStreakDays = currentStreakDays
        self.longestStreakDays = longestStreakDays
        self.lastEventDate = lastEventDate
        self.revision = revision
        self.updatedAt = updatedAt
        self.createdAt = createdAt
        self.deletedAt = deletedAt
    }
}
