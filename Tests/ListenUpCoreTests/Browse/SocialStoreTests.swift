import Foundation
import ListenUpAPI
@testable import ListenUpCore
@testable import ListenUpLive
import Testing

/// Both library caches keep the social domains alike: profiles by user id,
/// the activity feed append-only (a row once kept is never rewritten; a
/// tombstone deletes it by id), and the feed read newest first with the
/// names joined in.
@Suite("Social store")
struct SocialStoreTests {
    static let date = Date(timeIntervalSince1970: 1_700_000_000)

    static func activity(_ id: String, _ user: String, _ kind: String, book: String?, minutesAgo: Double) -> Activity {
        Activity(id: id, userID: user, kind: kind, bookID: book, occurredAt: date.addingTimeInterval(-minutesAgo * 60))
    }

    @Test(arguments: BrowseStoreTests.stores())
    func theFeedIsNewestFirstWithNamesAndVisibleBooksOnly(store: any LibraryStore) throws {
        try store.apply(BrowseStoreTests.library, deleting: [], state: LibrarySyncState())
        #expect(try store.activityFeed(limit: 10).isEmpty)
        #expect(try store.apply(.publicProfiles(EntityPage(entities: [PublicProfile(id: "u2", displayName: "Grace Hopper", updatedAt: Self.date)])),
                                state: LibrarySyncState(fullSyncDone: true, deltaCursor: "rev:3")) == 1)
        let rows = [Self.activity("a1", "u2", "started_book", book: "b1", minutesAgo: 30),
                    Self.activity("a2", "u2", "finished_book", book: "b5", minutesAgo: 5),
                    Self.activity("a3", "u3", "finished_book", book: "b2", minutesAgo: 10),
                    Self.activity("a4", "u2", "finished_book", book: "not-cached", minutesAgo: 1),
                    Self.activity("a5", "u2", "some_future_kind", book: nil, minutesAgo: 2),
                    Self.activity("a6", "u2", "user_joined", book: nil, minutesAgo: 60)]
        #expect(try store.apply(.activities(EntityPage(entities: rows)), state: LibrarySyncState(fullSyncDone: true, deltaCursor: "rev:9")) == 6)
        let feed = try store.activityFeed(limit: 10)
        #expect(feed.map(\.id) == ["a2", "a3", "a1", "a6"], "newest first; an unknown kind and an unseen book are not shown")
        #expect(feed.first?.userName == "Grace Hopper" && feed.first?.bookTitle == "Dune")
        #expect(feed[1].userName == nil, "no profile kept for u3")
        #expect(try store.activityFeed(limit: 2).map(\.id) == ["a2", "a3"])
        #expect(try store.syncState(of: .activities).deltaCursor == "rev:9")
        #expect(try store.syncState(of: .publicProfiles).deltaCursor == "rev:3")
    }

    @Test(arguments: BrowseStoreTests.stores())
    func activitiesAreKeptOnceAndATombstoneDeletesByID(store: any LibraryStore) throws {
        try store.apply(BrowseStoreTests.library, deleting: [], state: LibrarySyncState())
        try store.apply(.activities(EntityPage(entities: [Self.activity("a1", "u2", "finished_book", book: "b1", minutesAgo: 5)])),
                        state: LibrarySyncState())
        // The same id again, changed: append-only, the first row stays.
        #expect(try store.apply(.activities(EntityPage(entities: [Self.activity("a1", "u9", "started_book", book: "b2", minutesAgo: 1)])),
                                state: LibrarySyncState()) == 0)
        #expect(try store.activityFeed(limit: 5).first?.activity.userID == "u2")
        #expect(try store.apply(.activities(EntityPage(entities: [], deletedIDs: ["a1", "never-seen"])), state: LibrarySyncState()) == 1)
        #expect(try store.activityFeed(limit: 5).isEmpty)
    }

    @Test(arguments: BrowseStoreTests.stores())
    func aRenamedProfileRenamesTheFeedAndADeletedOneLeavesItNameless(store: any LibraryStore) throws {
        try store.apply(BrowseStoreTests.library, deleting: [], state: LibrarySyncState())
        try store.apply(.publicProfiles(EntityPage(entities: [PublicProfile(id: "u2", displayName: "Grace", updatedAt: Self.date)])),
                        state: LibrarySyncState())
        try store.apply(.activities(EntityPage(entities: [Self.activity("a1", "u2", "finished_book", book: "b1", minutesAgo: 5)])),
                        state: LibrarySyncState())
        let renamed = PublicProfile(id: "u2", displayName: "Grace Hopper", updatedAt: Self.date.addingTimeInterval(1))
        #expect(try store.apply(.publicProfiles(EntityPage(entities: [renamed])), state: LibrarySyncState()) == 1)
        #expect(try store.apply(.publicProfiles(EntityPage(entities: [renamed])), state: LibrarySyncState()) == 0, "the same row is no change")
        #expect(try store.activityFeed(limit: 5).first?.userName == "Grace Hopper")
        try store.apply(.publicProfiles(EntityPage(entities: [], deletedIDs: ["u2"])), state: LibrarySyncState())
        #expect(try store.activityFeed(limit: 5).first?.userName == nil)
    }
}
