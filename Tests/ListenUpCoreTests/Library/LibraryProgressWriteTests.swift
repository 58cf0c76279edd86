import Foundation
import ListenUpAPI
import ListenUpTestSupport
import Testing
@testable import ListenUpCore

/// A book finished or restarted here changes that book in the library, not
/// a new read of the whole cache.
@MainActor
@Suite("Library: a progress write here")
struct LibraryProgressWriteTests {
    /// The in-memory cache, counting whole reads (`listedBooks()`) and
    /// reads of one book (`book(id:)`).
    final class CountingStore: LibraryStore {
        let base = InMemoryLibraryStore()
        let wholeReads = LockedValue(0)
        let bookReads = LockedValue(0)

        func books() throws -> [CachedBook] { try base.books() }
        func listedBooks() throws -> [CachedBook] {
            wholeReads.withLock { $0 += 1 }
            return try base.listedBooks()
        }
        func listedBooks(ids: Set<String>) throws -> [CachedBook] { try base.listedBooks(ids: ids) }
        func book(id: String) throws -> CachedBook? {
            bookReads.withLock { $0 += 1 }
            return try base.book(id: id)
        }
        func count() throws -> Int { try base.count() }
        func bookRevisions() throws -> [String: Int64] { try base.bookRevisions() }
        func apply(_ books: [ServerBook], deleting deleted: [String], state: LibrarySyncState) throws -> Int {
            try base.apply(books, deleting: deleted, state: state)
        }
        func upsert(_ books: [ServerBook]) throws { try base.upsert(books) }
        func delete(_ ids: [String]) throws { try base.delete(ids) }
        func progress() throws -> [String: BookProgress] { try base.progress() }
        func setProgress(_ progress: BookProgress?, for bookID: String) throws { try base.setProgress(progress, for: bookID) }
        func syncState() throws -> LibrarySyncState { try base.syncState() }
        func browseItems(_ kind: BrowseKind) throws -> [BrowseItem] { try base.browseItems(kind) }
        func browsePage(_ kind: BrowsePageKind, id: String) throws -> BrowsePageContents? { try base.browsePage(kind, id: id) }
        func apply(_ rows: BrowseRows, state: LibrarySyncState) throws -> Int { try base.apply(rows, state: state) }
        func syncState(of domain: BrowseDomain) throws -> LibrarySyncState { try base.syncState(of: domain) }
        func links(ofBook id: String) throws -> BookLinks { try base.links(ofBook: id) }
        func listeningStats() throws -> ListeningStats? { try base.listeningStats() }
        func saveListeningStats(_ stats: ListeningStats) throws { try base.saveListeningStats(stats) }
        func shelves() throws -> [Shelf] { try base.shelves() }
        func discoveredShelves() throws -> [Shelf] { try base.discoveredShelves() }
        func saveDiscoveredShelves(_ shelves: [Shelf]) throws { try base.saveDiscoveredShelves(shelves) }
        func activityFeed(limit: Int) throws -> [ActivityFeedEntry] { try base.activityFeed(limit: limit) }
    }

    func settle(_ done: () -> Bool) async {
        for _ in 0..<300 where !done() { try? await Task.sleep(for: .milliseconds(10)) }
    }

    @Test func markingABookFinishedShowsItFinishedWithoutReadingTheCacheAgain() async throws {
        let server = try ScriptedServer(titles: [])
        let store = CountingStore()
        _ = try store.apply([try PlayerModelTests.book(), try ScriptedServer.book(id: "book-2", title: "Another")], deleting: [],
                        state: LibrarySyncState())
        var dependencies = Dependencies.test()
        dependencies.openLibrary = { _, _ in store }
        dependencies.makePlaybackEngine = { ScriptedEngine() }
        let session = Session(try #require(await server.currentSession), connection: server)
        // The session wires the player's write to the library.
        let signedIn = SignedInSession(session: session, dependencies: dependencies, send: { _ in })
        let (player, library) = (signedIn.player, signedIn.library)
        defer { signedIn.leave() }
        await settle { library.books.count == 2 }
        try #require(library.books.count == 2)
        library.send(.finished(true))
        #expect(library.visible.isEmpty)
        let reads = store.wholeReads.value

        player.send(.markFinished(bookID: "book-1", finished: true))
        #expect(library.books.first { $0.id == "book-1" }?.progress?.finished == true, "at once, on the main actor")
        #expect(library.visible.map(\.id) == ["book-1"], "the Finished filter follows")
        #expect(library.books.first { $0.id == "book-2" }?.progress == nil)
        #expect(try store.progress()["book-1"]?.finished == true, "written to the cache")

        player.send(.markFinished(bookID: "book-1", finished: false))
        #expect(library.books.first { $0.id == "book-1" }?.progress?.finished == false)
        #expect(library.visible.isEmpty)
        try await Task.sleep(for: .milliseconds(200))
        #expect(store.wholeReads.value == reads, "the cache is not read again for one book")
    }
}
