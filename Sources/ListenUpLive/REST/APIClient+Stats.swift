import Foundation
import ListenUpAPI
import ListenUpCore

/// Home's listening stats on REST v1: the Go server counts them
/// (`GET /api/v1/listening/stats`, addendum §7): the week's days, streaks
/// and top genres, and, asked for the whole time, the total.
extension APIClient {
    public func listeningStats(days: Int) async throws(ServerError) -> ListeningStats? {
        let week = try await authorized(.listeningStats(period: "week"))
        let all = try await authorized(.listeningStats(period: "all"))
        return ListeningStats(totalSeconds: all.totalListenTimeMs / 1000, currentStreakDays: week.currentStreakDays,
                              longestStreakDays: max(week.longestStreakDays, all.longestStreakDays), booksFinished: all.booksFinished,
                              days: week.dailyListening.map { ListeningStats.Day(date: String($0.date.prefix(10)), seconds: $0.listenTimeMs / 1000) },
                              topGenres: week.genreBreakdown.map { ListeningStats.GenreShare(name: $0.genreName, seconds: $0.listenTimeMs / 1000) })
    }
}
