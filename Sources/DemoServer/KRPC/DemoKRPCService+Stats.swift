import Foundation
import JSONToolkit
import ListenUpKRPC

/// `PlaybackService.getStats` (addendum §4.1): the caller's `user_stats`
/// row as stored, or `null` before their first listening.
extension DemoKRPCService {
    func getStats(_ call: DemoKRPCCall) throws -> DemoKRPCOutcome {
        let userID = try call.userID
        let row = service.state.withLock { $0.storedUserStats(userID: userID) }
        return .result(DemoKRPCWrap.success(row?.kotlinJSON ?? "null"))
    }
}

extension UserStatsSyncPayload {
    /// Every key, `lastEventDate` and `deletedAt` as null when absent (no default).
    var kotlinJSON: String {
        var object = JSONWriter.object()
        object.string("id", id)
        object.integer("totalSecondsAllTime", totalSecondsAllTime)
        object.integer("totalSecondsLast7Days", totalSecondsLast7Days)
        object.integer("totalSecondsLast30Days", totalSecondsLast30Days)
        object.integer("booksStarted", Int64(booksStarted))
        object.integer("booksFinished", Int64(booksFinished))
        object.integer("currentStreakDays", Int64(currentStreakDays))
        object.integer("longestStreakDays", Int64(longestStreakDays))
        object.string("lastEventDate", lastEventDate)
        object.integer("revision", revision)
        object.integer("updatedAt", updatedAt)
        object.integer("createdAt", createdAt)
        object.integer("deletedAt", deletedAt)
        return object.finished()
    }
}
