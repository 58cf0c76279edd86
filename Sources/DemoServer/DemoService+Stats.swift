import Foundation
import ListenUpAPI
import ListenUpKRPC

/// `GET /api/v1/listening/stats` (REST v1), and the kRPC `user_stats` rows
/// kept in the sync ledger; the counting itself is ``DemoStats``.
extension DemoService {
    /// The Go server's answer: `period` defaults to `week`; any other value
    /// than the five it knows is huma's enum violation (422).
    func listeningStats(_ request: DemoRequest, user: User) -> DemoResponse {
        let asked = request.query["period"] ?? ""
        let period = asked.isEmpty ? "week" : asked
        guard DemoStats.periods.contains(period) else {
            return .failure(422, "expected value to be one of \"\(DemoStats.periods.joined(separator: ", "))\" (query.period: \(period))")
        }
        let genres = Dictionary(books.map { ($0.id, ($0.genres ?? []).map(DemoStats.slug)) }, uniquingKeysWith: { first, _ in first })
        let record = state.withLock { state in
            DemoStats.Record(events: Array((state.listening.events[user.id] ?? [:]).values),
                             progress: state.listening.progress[user.id] ?? [:])
        }
        return .envelope(DemoStats.goStats(record, period: period, genres: genres, now: Date()))
    }
}

extension DemoService.State {
    /// How old a row may be before a pull heals it (`STATS_STALENESS_LIMIT_MS`).
    static let statsStalenessLimit: TimeInterval = 3_600

    /// Heals `userID`'s row before a pull, as `UserStatsRepository.pullSince`
    /// does: re-derived when it is over an hour old; a user without a row keeps none.
    mutating func healUserStats(userID: String, now: Date) {
        guard let change = ledger.latest[.userStats]?[userID], now.timeIntervalSince(change.occurredAt) > Self.statsStalenessLimit else {
            return
        }
        refreshUserStats(userID: userID, now: now)
    }

    /// Re-derives `userID`'s `user_stats` row as of `now` and records it at
    /// a new revision when it changed (the real server's stats cascade
    /// after an event or a finish, and the heal of a pull).
    mutating func refreshUserStats(userID: String, now: Date) {
        let existing = ledger.latest[.userStats]?[userID]
        let zone = listening.homeTimeZones[userID].flatMap(TimeZone.init(identifier:)) ?? DemoStats.utc
        var row = DemoStats.derive(userID: userID, events: Array((listening.events[userID] ?? [:]).values),
                                   progress: Array((listening.progress[userID] ?? [:]).values), now: now, timeZone: zone)
        let nowMs = Int64((now.timeIntervalSince1970 * 1000).rounded(.down))
        if case .userStats(let old)? = existing?.row {
            var unchanged = old
            unchanged.updatedAt = 0
            unchanged.createdAt = 0
            unchanged.revision = 0
            if unchanged == row { return }
            row.createdAt = old.createdAt
        } else {
            row.createdAt = nowMs
        }
        row.updatedAt = nowMs
        ledger.record(.userStats, id: userID, ownerID: userID, row: .userStats(row), at: now)
    }

    /// `userID`'s stored `user_stats` row with its revision, as stored (no heal).
    func storedUserStats(userID: String) -> UserStatsSyncPayload? {
        guard let change = ledger.latest[.userStats]?[userID], case .userStats(var row) = change.row else { return nil }
        row.revision = change.revision
        return row
    }
}
