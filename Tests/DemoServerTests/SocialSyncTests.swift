import DemoServer
import Foundation
import ListenUpAPI
import ListenUpCore
import ListenUpLive
import ListenUpTestSupport
import Testing

/// The social domains through the real clients against the demo server on
/// loopback, into both caches: kRPC's `public_profiles` and `activities`
/// (a profile per user, an activity when someone starts or finishes a book,
/// append-only), and REST v1, which has no feed for them (addendum §7).
@Suite("Social domains over both protocols", .serialized)
struct SocialSyncTests {
    let sync = BrowseSyncTests()

    func synced(_ client: any ServerConnection, into store: any LibraryStore) async throws {
        _ = try await LibrarySync(server: client, store: store, logger: sync.logs.logger).run { _ in }
        try await BrowseSync(server: client, store: store, pageSize: 2).run()
    }

    @Test(arguments: [0, 1])
    func theFeedFollowsWhatPeopleDoOverKRPC(storeIndex: Int) async throws {
        let (server, client) = try await sync.signedIn(.krpc, books: 6)
        defer { Task { await server.stop() } }
        let store = ShelvesSyncTests.stores[storeIndex]()
        #expect(client.hasActivityFeed)
        try await synced(client, into: store)
        let books = try store.books().sorted { $0.id < $1.id }
        try #require(books.count == 6)
        #expect(try store.activityFeed(limit: 10).isEmpty, "nothing happened yet")

        // The neighbour finishes one book, then starts another.
        let finished = try #require(server.recordActivity("finished_book", bookID: books[0].id))
        let started = try #require(server.recordActivity("started_book", bookID: books[1].id))
        #expect(server.recordActivity("no_such_kind", bookID: nil) == nil)
        try await synced(client, into: store)
        var feed = try store.activityFeed(limit: 10)
        #expect(feed.map(\.id) == [started, finished] || feed.map(\.id) == [finished, started])
        #expect(feed.allSatisfy { $0.userName == DemoServer.neighbourName && $0.activity.userID == DemoServer.neighbourUserID })
        #expect(feed.first { $0.id == finished }?.bookTitle == books[0].title)
        #expect(feed.first { $0.id == finished }?.kind == .finishedBook)

        // The signed-in user finishes a book on another device: their own
        // activities come with their profile's name.
        server.recordPositionFromAnotherDevice(bookID: books[2].id, positionMs: 1, finished: true)
        try await synced(client, into: store)
        feed = try store.activityFeed(limit: 10)
        let mine = try #require(feed.first { $0.activity.bookID == books[2].id && $0.kind == .finishedBook })
        #expect(mine.userName != nil && mine.userName != DemoServer.neighbourName)
        #expect(try store.activityFeed(limit: 10).count == feed.count, "a second sync adds nothing")
        let count = server.activityCount
        try await synced(client, into: store)
        let again = try store.activityFeed(limit: 10)
        #expect(server.activityCount == count && again.count == feed.count)
    }

    @Test(arguments: [0, 1])
    func restReadsTheGoServersFeedOnEachSync(storeIndex: Int) async throws {
        let (server, client) = try await sync.signedIn(.rest, books: 4)
        defer { Task { await server.stop() } }
        #expect(client.hasActivityFeed, "GET /api/v1/social/feed")
        let books = server.libraryBookIDs
        let first = try #require(server.recordActivity("finished_book", bookID: books[0]))
        let store = ShelvesSyncTests.stores[storeIndex]()
        try await synced(client, into: store)
        var feed = try store.activityFeed(limit: 10)
        #expect(feed.map(\.id) == [first])
        #expect(feed.first?.userName == DemoServer.neighbourName && feed.first?.kind == .finishedBook)
        #expect(feed.first?.bookTitle == (try store.book(id: books[0]))?.title)

        // The next sync brings what happened since, newest first.
        let second = try #require(server.recordActivity("started_book", bookID: books[1]))
        try await synced(client, into: store)
        feed = try store.activityFeed(limit: 10)
        #expect(feed.map(\.id) == [second, first])
        let again = try await RESTSocialRows.sameAgain(client)
        #expect(try store.apply(again, state: LibrarySyncState()) == 0, "an unchanged feed is no change")
    }

    /// Who listens now, through both clients: the neighbour's session shows
    /// (kRPC dated from its start, REST v1 undated), the caller's own never
    /// does, and an ended session leaves nothing (the neighbour keeps no
    /// unfinished position to fill in with).
    @Test(arguments: [DemoProtocol.krpc, DemoProtocol.rest])
    func whoListensNowComesFromTheServer(wire: DemoProtocol) async throws {
        let (server, client) = try await sync.signedIn(wire, books: 3)
        defer { Task { await server.stop() } }
        let books = server.libraryBookIDs
        #expect(try await client.currentlyListening().isEmpty)

        let before = Date()
        #expect(server.setListening(bookID: books[1]))
        server.recordPositionFromAnotherDevice(bookID: books[0], positionMs: 60_000, finished: false)
        let rows = try await client.currentlyListening()
        #expect(rows.map(\.userID) == [DemoServer.neighbourUserID], "the caller is never listed")
        let row = try #require(rows.first)
        #expect(row.bookID == books[1] && row.isLive && row.displayName == DemoServer.neighbourName)
        if wire == .krpc {
            #expect(try #require(row.lastActiveAt).timeIntervalSince(before) > -1, "the session's start")
        } else {
            #expect(row.lastActiveAt == nil, "the Go server gives no time")
        }

        #expect(server.setListening(bookID: nil))
        #expect(try await client.currentlyListening().isEmpty)
        #expect(!server.setListening(bookID: books[0], byUser: "nobody@example.com"))
    }

    @Test func theGoShapeOmitsEmptyFieldsAndCapsTheLimit() throws {
        let text = #"{"activities":[{"id":"a1","type":"streak_milestone","created_at":"2026-01-02T03:04:05Z","user_id":"u1","#
            + #""user_display_name":"Grace","user_avatar_color":"teal","user_avatar_type":"auto","milestone_value":7,"milestone_unit":"days"}]}"#
        let feed = try ListenUpJSON.decoder.decode(ActivityFeedResponse.self, from: Data(text.utf8))
        #expect(feed.activities.first?.bookID == nil && feed.activities.first?.milestoneValue == 7 && feed.nextCursor == nil)
        #expect(Endpoint.activityFeed(limit: 500).percentEncodedQuery == "limit=50")
        #expect(Endpoint.activityFeed(limit: 0).percentEncodedQuery == "limit=1")
    }
}

/// A second read of the REST feed, as the next sync would hand it to the cache.
enum RESTSocialRows {
    static func sameAgain(_ client: any ServerConnection) async throws -> BrowseRows {
        try await client.syncBrowse(.activities, limit: 50, cursor: nil, updatedAfter: nil)
    }
}
