import Foundation

/// The profiles and activities an ``InMemoryLibraryStore`` keeps, as the
/// SQLite store keeps them (`SQLiteLibraryStore+Social.swift`): profiles by
/// user id, activities by their id, each kept once (the feed is append-only,
/// contract addendum §2.1) and deleted by id.
struct SocialTables: Sendable {
    var profiles: [String: PublicProfile] = [:]
    var activities: [String: Activity] = [:]

    /// Applies a page of `public_profiles` or `activities`.
    /// - Returns: how many rows it added, changed or deleted.
    mutating func apply(_ rows: BrowseRows) -> Int {
        var changed = 0
        switch rows {
        case .publicProfiles(let page):
            for profile in page.entities where profiles[profile.id] != profile {
                profiles[profile.id] = profile
                changed += 1
            }
            for id in page.deletedIDs where profiles.removeValue(forKey: id) != nil { changed += 1 }
        case .activities(let page):
            if page.replacesAll {
                // REST v1's feed is its newest rows: those kept that it lacks are gone.
                let kept = Set(page.entities.map(\.id))
                for id in activities.keys where !kept.contains(id) {
                    activities[id] = nil
                    changed += 1
                }
            }
            for activity in page.entities where activities[activity.id] == nil {
                activities[activity.id] = activity
                changed += 1
            }
            for id in page.deletedIDs where activities.removeValue(forKey: id) != nil { changed += 1 }
        default:
            break
        }
        return changed
    }
}

extension InMemoryLibraryStore {
    public func activityFeed(limit: Int) throws -> [ActivityFeedEntry] {
        let tables = socialTables.value
        let books = contents.value.books
        let newest = tables.activities.values.sorted { ($0.occurredAt, $0.id) > ($1.occurredAt, $1.id) }
        var entries: [ActivityFeedEntry] = []
        for activity in newest where entries.count < limit {
            let entry = ActivityFeedEntry(activity: activity, userName: tables.profiles[activity.userID]?.displayName,
                                          bookTitle: activity.bookID.flatMap { books[$0]?.title })
            if entry.isShown { entries.append(entry) }
        }
        return entries
    }
}
