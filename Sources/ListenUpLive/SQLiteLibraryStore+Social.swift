import Foundation
import GRDB
import ListenUpCore

/// The social domains in the library cache (migration `v8-social`): every
/// user's public profile (`publicProfile`, by user id) and the activity
/// feed (`activity`, by the row's id). The feed is append-only (contract
/// addendum §2.1, upstream `cli/data/sync/domains/ActivitiesDomain.kt`): a
/// row is inserted if absent and never rewritten; a tombstone (everything
/// blanked) deletes it by id. Names are joined in when read.
extension SQLiteLibraryStore {
    static func registerSocialMigration(_ migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v8-social") { db in
            try db.create(table: "publicProfile") { table in
                table.primaryKey("id", .text)
                table.column("displayName", .text).notNull()
                table.column("avatarType", .text).notNull()
                table.column("booksFinished", .integer).notNull()
                table.column("updatedAt", .datetime).notNull()
            }
            try db.create(table: "activity") { table in
                table.primaryKey("id", .text)
                table.column("userID", .text).notNull()
                table.column("kind", .text).notNull()
                table.column("bookID", .text)
                table.column("isReread", .boolean).notNull()
                table.column("durationMs", .integer).notNull()
                table.column("milestoneValue", .integer).notNull()
                table.column("milestoneUnit", .text)
                table.column("shelfName", .text)
                table.column("occurredAt", .datetime).notNull()
            }
            try db.create(index: "activity_occurredAt", on: "activity", columns: ["occurredAt"])
        }
    }

    /// Applies a page of `public_profiles` or `activities`.
    static func applySocial(_ rows: BrowseRows, in db: Database) throws -> Int {
        var changed = 0
        switch rows {
        case .publicProfiles(let page):
            for profile in page.entities {
                try db.cachedStatement(sql: """
                    INSERT INTO publicProfile (id, displayName, avatarType, booksFinished, updatedAt) VALUES (?, ?, ?, ?, ?)
                    ON CONFLICT(id) DO UPDATE SET displayName = excluded.displayName, avatarType = excluded.avatarType,
                        booksFinished = excluded.booksFinished, updatedAt = excluded.updatedAt
                    WHERE (displayName, avatarType, booksFinished, updatedAt)
                        IS NOT (excluded.displayName, excluded.avatarType, excluded.booksFinished, excluded.updatedAt)
                    """).execute(arguments: [profile.id, profile.displayName, profile.avatarType, profile.booksFinished, profile.updatedAt])
                changed += db.changesCount
            }
            for id in page.deletedIDs {
                try db.execute(sql: "DELETE FROM publicProfile WHERE id = ?", arguments: [id])
                changed += db.changesCount
            }
        case .activities(let page):
            if page.replacesAll {
                // REST v1's feed is its newest rows: those kept that it lacks are gone.
                let kept = Set(page.entities.map(\.id))
                for id in try String.fetchAll(db, sql: "SELECT id FROM activity") where !kept.contains(id) {
                    try db.execute(sql: "DELETE FROM activity WHERE id = ?", arguments: [id])
                    changed += 1
                }
            }
            for row in page.entities {
                try db.cachedStatement(sql: """
                    INSERT OR IGNORE INTO activity (id, userID, kind, bookID, isReread, durationMs, milestoneValue, milestoneUnit,
                        shelfName, occurredAt) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """).execute(arguments: [row.id, row.userID, row.kind, row.bookID, row.isReread, row.durationMs, row.milestoneValue,
                                             row.milestoneUnit, row.shelfName, row.occurredAt])
                changed += db.changesCount
            }
            for id in page.deletedIDs {
                try db.execute(sql: "DELETE FROM activity WHERE id = ?", arguments: [id])
                changed += db.changesCount
            }
        default:
            break
        }
        return changed
    }

    public func activityFeed(limit: Int) throws -> [ActivityFeedEntry] {
        try read { db in
            // Rows naming a book the cache lacks, or a kind this build does
            // not say, are skipped in SQL so `limit` counts shown entries.
            let kinds = ActivityFeedEntry.Kind.allCases.map(\.rawValue)
            let placeholders = Array(repeating: "?", count: kinds.count).joined(separator: ", ")
            var arguments = StatementArguments(kinds)
            arguments += [max(0, limit)]
            let rows = try Row.fetchAll(db, sql: """
                SELECT a.*, p.displayName AS userName, b.title AS bookTitle FROM activity a
                LEFT JOIN publicProfile p ON p.id = a.userID LEFT JOIN book b ON b.id = a.bookID
                WHERE a.kind IN (\(placeholders)) AND (a.bookID IS NULL OR b.id IS NOT NULL)
                ORDER BY a.occurredAt DESC, a.id DESC LIMIT ?
                """, arguments: arguments)
            return rows.map { row in
                ActivityFeedEntry(
                    activity: Activity(id: row["id"], userID: row["userID"], kind: row["kind"], bookID: row["bookID"],
                                       isReread: row["isReread"], durationMs: row["durationMs"], milestoneValue: row["milestoneValue"],
                                       milestoneUnit: row["milestoneUnit"], shelfName: row["shelfName"], occurredAt: row["occurredAt"]),
                    userName: row["userName"], bookTitle: row["bookTitle"])
            }
        }
    }
}
