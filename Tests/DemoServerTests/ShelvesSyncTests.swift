import DemoServer
import Foundation
import ListenUpAPI
import ListenUpCore
import ListenUpLive
import ListenUpTestSupport
import Testing

/// Shelves through the real clients against the demo server on loopback,
/// over both protocols, into both caches: the starter shelf, changes made
/// through the seam and by the server's controls, a book taken off and put
/// back (kRPC: the same row id, its tombstone with the pair blanked),
/// others' shelves to discover, and refusals said plainly.
@Suite("Shelves over both protocols", .serialized)
struct ShelvesSyncTests {
    let sync = BrowseSyncTests()
    static let email = BrowseSyncTests.email

    /// Syncs the books and the browse domains into `store`.
    func synced(_ client: any ServerConnection, into store: any LibraryStore) async throws {
        _ = try await LibrarySync(server: client, store: store, logger: sync.logs.logger).run { _ in }
        try await BrowseSync(server: client, store: store, pageSize: 2).run()
    }

    static let stores: [@Sendable () -> any LibraryStore] = [{ SQLiteLibraryStore.inMemory() }, { InMemoryLibraryStore() }]

    @Test(arguments: [DemoProtocol.rest, .krpc], [0, 1])
    func shelvesFollowTheServer(wire: DemoProtocol, storeIndex: Int) async throws {
        let (server, client) = try await sync.signedIn(wire, books: 8)
        defer { Task { await server.stop() } }
        let store = Self.stores[storeIndex]()
        try await synced(client, into: store)
        let books = try store.books().map(\.id).sorted()
        try #require(books.count == 8)

        // A new user has a public "To Read" shelf.
        var shelves = try store.shelves()
        #expect(shelves.map(\.name) == ["To Read"])
        #expect(shelves.first?.isPrivate == (wire == .krpc ? false : nil), "REST v1 has no private flag")

        // Made through the seam, with two books.
        let made = try await client.createShelf(name: "Night Reading", description: "Short ones", isPrivate: false)
        try await client.addBook(books[0], toShelf: made.id)
        try await client.addBook(books[1], toShelf: made.id)
        try await client.addBook(books[1], toShelf: made.id)
        try await synced(client, into: store)
        shelves = try store.shelves()
        #expect(shelves.first { $0.id == made.id }?.bookIDs == [books[0], books[1]], "in order, once each")
        #expect(shelves.first { $0.id == made.id }?.description == "Short ones")
        #expect(try store.browseItems(.shelves).first { $0.id == made.id }?.bookCount == 2)
        let page = try #require(try store.browsePage(.shelf, id: made.id))
        #expect(page.entries.map(\.bookID) == [books[0], books[1]] && page.owner == nil)

        // Taken off, then put back: the same row, at the end.
        let row = server.shelfBookRowID(shelfID: made.id, bookID: books[0])
        try await client.removeBook(books[0], fromShelf: made.id)
        try await synced(client, into: store)
        #expect(try store.shelves().first { $0.id == made.id }?.bookIDs == [books[1]])
        try await client.addBook(books[0], toShelf: made.id)
        try await synced(client, into: store)
        #expect(server.shelfBookRowID(shelfID: made.id, bookID: books[0]) == row, "the server brings the same row back")
        #expect(try store.shelves().first { $0.id == made.id }?.bookIDs == [books[1], books[0]])

        // Changed on another device (the server's controls).
        #expect(server.renameShelf(id: made.id, to: "Bedtime"))
        #expect(server.addBookToShelf(shelfID: made.id, bookID: books[2]))
        try await synced(client, into: store)
        let changed = try #require(try store.shelves().first { $0.id == made.id })
        #expect(changed.name == "Bedtime")
        #expect(changed.bookIDs == [books[1], books[0], books[2]])

        // Renamed through the seam, then deleted.
        let renamed = try await client.updateShelf(id: made.id, name: "Bedtime Stories", description: "", isPrivate: true)
        #expect(renamed.name == "Bedtime Stories")
        #expect(renamed.isPrivate == (wire == .krpc ? true : nil))
        try await client.deleteShelf(id: made.id)
        try await synced(client, into: store)
        #expect(try store.shelves().map(\.name) == ["To Read"])
        #expect(try store.browsePage(.shelf, id: made.id) == nil)

        // Others' shelves: the neighbour's, with its owner and books.
        let found = try await client.discoverShelves()
        #expect(found.map(\.name) == ["Mara's Favourites"])
        #expect(found.first?.owner?.name == "Mara Lindqvist")
        #expect(found.first?.bookIDs.count == 3)
        try store.saveDiscoveredShelves(found)
        let theirID = try #require(found.first?.id)
        let theirs = try #require(try store.browsePage(.shelf, id: theirID))
        #expect(theirs.owner?.name == "Mara Lindqvist" && theirs.entries.count == 3)

        // Refusals, said plainly.
        await #expect(throws: ServerError.self) { try await client.deleteShelf(id: "no-such-shelf") }
        do {
            _ = try await client.updateShelf(id: "no-such-shelf", name: "X", description: "", isPrivate: false)
            Issue.record("an unknown shelf was renamed")
        } catch {
            #expect(ShelfProblem(error).code == "notFound", "\(error)")
        }
        do {
            try await client.addBook(books[0], toShelf: theirID)
            Issue.record("someone else's shelf was changed")
        } catch {
            #expect(ShelfProblem(error).code == "forbidden", "\(error)")
        }
    }

    /// The benches' account with many shelves (`--shelves`): every shelf
    /// and its 20 books reach the cache, on both protocols.
    @Test(arguments: [DemoProtocol.rest, .krpc])
    func anAccountWithManyShelvesSyncsThemAll(wire: DemoProtocol) async throws {
        let (server, client) = try await sync.signedIn(wire, books: 30, shelves: 5)
        defer { Task { await server.stop() } }
        let store = SQLiteLibraryStore.inMemory()
        try await synced(client, into: store)
        let library = Set(try store.books().map(\.id))
        let shelves = try store.shelves().sorted { $0.name < $1.name }
        #expect(shelves.map(\.name) == ["Shelf 2", "Shelf 3", "Shelf 4", "Shelf 5", "To Read"])
        for shelf in shelves.dropLast() {
            #expect(shelf.bookIDs.count == 20 && Set(shelf.bookIDs).count == 20, "\(shelf.name)")
            #expect(Set(shelf.bookIDs).isSubset(of: library), "\(shelf.name)")
        }
        #expect(shelves.last?.bookIDs.isEmpty == true)
    }

    @Test func krpcTombstonesBlankThePairAndKeyByTheRowID() async throws {
        let (server, client) = try await sync.signedIn(.krpc, books: 4)
        defer { Task { await server.stop() } }
        let store = SQLiteLibraryStore.inMemory()
        try await synced(client, into: store)
        let shelf = try #require(try store.shelves().first)
        let book = try #require(try store.books().first?.id)
        try await client.addBook(book, toShelf: shelf.id)
        try await synced(client, into: store)
        let cursor = try store.syncState(of: .shelfBooks).deltaCursor
        try await client.removeBook(book, fromShelf: shelf.id)

        // The delta page: the row's tombstone, its pair blanked, keyed by id.
        let rows = try await client.syncBrowse(.shelfBooks, limit: 50, cursor: cursor, updatedAfter: nil)
        guard case .shelfBooks(let page) = rows else { Issue.record("\(rows)"); return }
        #expect(page.entities.isEmpty)
        #expect(page.deletedIDs == [try #require(server.shelfBookRowID(shelfID: shelf.id, bookID: book))])
        try store.apply(rows, state: try store.syncState(of: .shelfBooks))
        #expect(try store.shelves().first?.bookIDs == [])
    }
}
