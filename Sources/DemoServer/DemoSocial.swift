import Foundation
import ListenUpAPI
import ListenUpKRPC

/// The social domains of the demo server (contract addendum §2.1, §2.2):
/// `public_profiles`, one row per user (the accounts and the neighbour,
/// ``DemoShelfNeighbour``), kept as the real server's
/// `PublicProfileMaintainer` keeps them (a user's name or finished count
/// changed: a new revision; a deleted user: a tombstone with the full row),
/// and `activities`, the append-only feed: `started_book` when a user's
/// first position in a book is stored, `finished_book` when it becomes
/// finished (upstream `server/.../services/ActivityRecorder.kt` via the
/// completion cascade), or from a test control. Upstream payloads:
/// `contract/src/commonMain/kotlin/com/calypsan/listenup/api/sync/PublicProfileSyncPayload.kt`,
/// `ActivitySyncPayload.kt`. Both are visible to everyone (the demo's books
/// are all visible), so they are recorded with no owner.
extension DemoService.State {
    /// Every user's profile row as it should be now; records those that
    /// changed, and a tombstone for a user who is gone.
    mutating func refreshPublicProfiles(now: Date) {
        var wanted: [(id: String, name: String)] = users.map { ($0.id, $0.shownName) }
        wanted.append((DemoShelfNeighbour.userID, DemoShelfNeighbour.name))
        let nowMs = DemoKRPCMapping.milliseconds(now)
        for (id, name) in wanted {
            let finished = (listening.progress[id] ?? [:]).values.filter(\.finished).count
            let existing = ledger.latest[.publicProfiles]?[id]
            if let existing, existing.kind != .deleted, case .publicProfile(let old) = existing.row,
               old.displayName == name, old.booksFinished == finished {
                continue
            }
            var createdAt = nowMs
            if let existing, case .publicProfile(let old) = existing.row { createdAt = old.createdAt }
            let row = PublicProfileSyncPayload(id: id, displayName: name, booksFinished: finished, revision: 0, updatedAt: nowMs,
                                               createdAt: createdAt)
            ledger.record(.publicProfiles, id: id, row: .publicProfile(row), at: now)
        }
        let kept = Set(wanted.map(\.id))
        for (id, change) in ledger.latest[.publicProfiles] ?? [:] where !kept.contains(id) && change.kind != .deleted {
            ledger.record(.publicProfiles, id: id, row: change.row, deleted: true, at: now)
        }
    }

    /// Records one activity of `userID` (after their profile, so the
    /// feed can name them).
    /// - Returns: the activity's id.
    @discardableResult
    mutating func recordActivity(userID: String, kind: ActivityKind, bookID: String?, isReread: Bool = false, at now: Date) -> String {
        refreshPublicProfiles(now: now)
        let id = "activity-\(ledger.revision + 1)-\(UUID().uuidString.prefix(8).lowercased())"
        let nowMs = DemoKRPCMapping.milliseconds(now)
        let row = ActivitySyncPayload(id: id, userId: userID, type: kind.rawValue, bookId: bookID, isReread: isReread,
                                      occurredAt: nowMs, revision: 0, createdAt: nowMs, updatedAt: nowMs)
        ledger.record(.activities, id: id, row: .activity(row), at: now)
        return id
    }

    /// The activities a position write makes: a first position in a
    /// book starts it, a position that becomes finished finishes it (a
    /// finish after an earlier one is a re-read).
    mutating func recordProgressActivities(userID: String, bookID: String, before: ListeningState.Progress?,
                                           after: ListeningState.Progress, now: Date) {
        if before == nil, !after.finished {
            recordActivity(userID: userID, kind: .startedBook, bookID: bookID, at: now)
        }
        if after.finished, before?.finished != true {
            recordActivity(userID: userID, kind: .finishedBook, bookID: bookID, isReread: before?.finishedAt != nil, at: now)
        }
    }
}

extension DemoKRPCMapping {
    /// A profile or an activity row as its payload JSON at the change's
    /// revision. A profile's tombstone keeps the full row; an activity's
    /// blanks everything (addendum §2.1).
    static func socialJSON(_ change: DemoSyncChange) -> String {
        let deletedAt = change.kind == .deleted ? milliseconds(change.occurredAt) : nil
        switch change.row {
        case .publicProfile(var row):
            row.revision = change.revision
            row.deletedAt = deletedAt
            if let deletedAt { row.updatedAt = deletedAt }
            return (try? KRPCJSON.encode(row)) ?? "{}"
        case .activity(var row):
            row.revision = change.revision
            if let deletedAt {
                row = ActivitySyncPayload(id: row.id, userId: "", type: "", occurredAt: 0, revision: change.revision, createdAt: 0,
                                          updatedAt: deletedAt, deletedAt: deletedAt)
            }
            return (try? KRPCJSON.encode(row)) ?? "{}"
        default:
            return "{}"
        }
    }
}

extension DemoService {
    /// `GET /api/v1/social/feed?limit=` as the Go server answers it
    /// (`internal/api/social_handlers.go`, `handleGetActivityFeed`): the
    /// newest activities first, `limit` 20 by default and at most 50, each
    /// with the user's name and the book's title joined in, empty fields
    /// omitted, and `next_cursor` (`<RFC 3339>|<id>`) when the page is full.
    func socialFeed(_ request: DemoRequest) -> DemoResponse {
        let asked = Int(request.query["limit"] ?? "") ?? 20
        let limit = asked <= 0 ? 20 : min(asked, 50)
        let rows = state.withLock { state -> [ActivityFeedResponse.Activity] in
            var names: [String: String] = [DemoShelfNeighbour.userID: DemoShelfNeighbour.name]
            for user in state.users { names[user.id] = user.shownName }
            let titles = Dictionary(state.books.map { ($0.id, $0.title) }, uniquingKeysWith: { first, _ in first })
            let live = (state.ledger.latest[.activities] ?? [:]).values.compactMap { change -> ActivitySyncPayload? in
                guard change.kind != .deleted, case .activity(let row) = change.row else { return nil }
                return row
            }
            return live.sorted { ($0.occurredAt, $0.id) > ($1.occurredAt, $1.id) }.prefix(limit).map { row in
                let at = Date(timeIntervalSince1970: Double(row.occurredAt) / 1000)
                return ActivityFeedResponse.Activity(
                    id: row.id, type: row.type, createdAt: RFC3339.string(from: at), userID: row.userId,
                    userDisplayName: names[row.userId] ?? "", userAvatarColor: "#6b5b95", userAvatarType: "auto", bookID: row.bookId,
                    bookTitle: row.bookId.flatMap { titles[$0] }, isReread: row.isReread ? true : nil,
                    milestoneValue: row.milestoneValue == 0 ? nil : row.milestoneValue, milestoneUnit: row.milestoneUnit,
                    shelfID: row.shelfId, shelfName: row.shelfName)
            }
        }
        let next = rows.count == limit ? rows.last.map { "\($0.createdAt)|\($0.id)" } : nil
        return .envelope(ActivityFeedResponse(activities: rows, nextCursor: next))
    }
}
