import Foundation

extension LibraryModel {
    /// Others' activity for Home's Discover in previews: two readers'
    /// profiles and what they did lately, dated from `now` so the "how long
    /// ago" reads the same in every shot.
    nonisolated static func addPreviewActivities(to store: InMemoryLibraryStore, now: Date) {
        let profiles = [PublicProfile(id: "user-grace", displayName: "Grace Hopper", booksFinished: 12, updatedAt: now),
                        PublicProfile(id: "user-mara", displayName: "Mara Lindqvist", booksFinished: 4, updatedAt: now)]
        func ago(_ minutes: Double) -> Date { now.addingTimeInterval(-minutes * 60) }
        let activities = [
            Activity(id: "activity-1", userID: "user-grace", kind: "finished_book", bookID: "book-3", occurredAt: ago(5)),
            Activity(id: "activity-2", userID: "user-mara", kind: "started_book", bookID: "book-0", occurredAt: ago(140)),
            Activity(id: "activity-3", userID: "user-grace", kind: "streak_milestone", milestoneValue: 7, milestoneUnit: "days",
                     occurredAt: ago(60 * 20)),
            Activity(id: "activity-4", userID: "user-mara", kind: "finished_book", bookID: "book-5", isReread: true,
                     occurredAt: ago(60 * 24 * 3)),
        ]
        do {
            try store.apply(.publicProfiles(EntityPage(entities: profiles)), state: LibrarySyncState())
            try store.apply(.activities(EntityPage(entities: activities)), state: LibrarySyncState())
        } catch {
            // An in-memory store does not fail; the preview would show less.
        }
    }

    /// Who listens now in previews: one reader live, one who stopped a while ago.
    nonisolated static func previewListeningNow(now: Date) -> [ListeningNow] {
        [ListeningNow(userID: "user-mara", displayName: "Mara Lindqvist", bookID: "book-0", lastActiveAt: now.addingTimeInterval(-12 * 60),
                      isLive: true),
         ListeningNow(userID: "user-grace", displayName: "Grace Hopper", bookID: "book-4", lastActiveAt: now.addingTimeInterval(-3 * 3600),
                      isLive: false)]
    }
}
