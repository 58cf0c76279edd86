import Foundation
import ListenUpAPI
@testable import ListenUpCore
@testable import ListenUpLive
import Testing

/// Both library caches keep the user's shelves alike: kRPC's rows (a shelf,
/// its books one row each, keyed by the row's id), REST v1's whole list,
/// and others' shelves as last discovered.
@Suite("Shelf store")
struct ShelfStoreTests {
    static func stores() -> [any LibraryStore] { BrowseStoreTests.stores() }
    static let date = Date(timeIntervalSince1970: 1_700_000_000)

    static func shelf(_ id: String, _ name: String, books: [String] = [], isPrivate: Bool? = false, owner: ShelfOwner? = nil) -> Shelf {
        Shelf(id: id, name: name, description: "About \(name)", isPrivate: isPrivate, bookIDs: books, updatedAt: date, owner: owner)
    }

    static func row(_ id: String, _ shelf: String, _ book: String, _ order: Int) -> ShelfBook {
        ShelfBook(id: id, shelfID: shelf, bookID: book, sortOrder: order, updatedAt: date)
    }

    @Test(arguments: stores())
    func krpcRowsGiveShelvesTheirBooksInOrder(store: any LibraryStore) throws {
        try store.apply(BrowseStoreTests.library, deleting: [], state: LibrarySyncState())
        #expect(try store.apply(.shelves(EntityPage(entities: [Self.shelf("s1", "Bedtime"), Self.shelf("s2", "Commute")])),
                                state: LibrarySyncState()) == 2)
        try store.apply(.shelfBooks(EntityPage(entities: [Self.row("r1", "s1", "b3", 2), Self.row("r2", "s1", "b1", 0),
                                                         Self.row("r3", "s1", "not-cached", 1), Self.row("r4", "s2", "b5", 0)])),
                        state: LibrarySyncState())
        let shelves = try store.shelves().sorted { $0.name < $1.name }
        #expect(shelves.map(\.name) == ["Bedtime", "Commute"])
        #expect(shelves.first?.bookIDs == ["b1", "b3"], "by sort order; a book the cache lacks is left out")
        #expect(shelves.first?.isPrivate == false)
        let items = try store.browseItems(.shelves).sorted(by: .name)
        #expect(items.map(\.bookCount) == [2, 1])
        let page = try #require(try store.browsePage(.shelf, id: "s1"))
        #expect(page.entries.map(\.bookID) == ["b1", "b3"], "the shelf's order, not by title")
        #expect(page.description == "About Bedtime" && page.owner == nil)
        #expect(try store.browsePage(.shelf, id: "nothing") == nil)
    }

    @Test(arguments: stores())
    func aTombstoneDeletesByRowIDAndTheSameRowComesBack(store: any LibraryStore) throws {
        try store.apply(BrowseStoreTests.library, deleting: [], state: LibrarySyncState())
        try store.apply(.shelves(EntityPage(entities: [Self.shelf("s1", "Bedtime")])), state: LibrarySyncState())
        try store.apply(.shelfBooks(EntityPage(entities: [Self.row("r1", "s1", "b1", 0), Self.row("r2", "s1", "b2", 1)])),
                        state: LibrarySyncState())
        // The tombstone names the row only (its shelfId and bookId are blanked on the wire).
        #expect(try store.apply(.shelfBooks(EntityPage(entities: [], deletedIDs: ["r1"])), state: LibrarySyncState()) == 1)
        #expect(try store.shelves().first?.bookIDs == ["b2"])
        // Put back: the same row id, live again, at the end.
        try store.apply(.shelfBooks(EntityPage(entities: [Self.row("r1", "s1", "b1", 2)])), state: LibrarySyncState())
        #expect(try store.shelves().first?.bookIDs == ["b2", "b1"])
        #expect(try store.apply(.shelfBooks(EntityPage(entities: [Self.row("r1", "s1", "b1", 2)])), state: LibrarySyncState()) == 0,
                "the same row again is no change")
        // A deleted shelf goes with its books.
        #expect(try store.apply(.shelves(EntityPage(entities: [], deletedIDs: ["s1"])), state: LibrarySyncState()) == 1)
        #expect(try store.shelves().isEmpty)
        #expect(try store.browseItems(.shelves).isEmpty)
    }

    @Test(arguments: stores())
    func restsWholeListReplacesWhatIsKept(store: any LibraryStore) throws {
        try store.apply(BrowseStoreTests.library, deleting: [], state: LibrarySyncState())
        let first = [Self.shelf("s1", "Bedtime", books: ["b2", "b1"], isPrivate: nil), Self.shelf("s2", "Commute", books: ["b5"], isPrivate: nil)]
        #expect(try store.apply(.allShelves(first), state: LibrarySyncState()) == 2)
        #expect(try store.apply(.allShelves(first), state: LibrarySyncState()) == 0, "the same list again is no change")
        #expect(try store.shelves().first { $0.id == "s1" }?.bookIDs == ["b2", "b1"])
        #expect(try store.shelves().first { $0.id == "s1" }?.isPrivate == nil, "REST v1 has no private flag")
        let second = [Self.shelf("s1", "Bedtime", books: ["b1"], isPrivate: nil)]
        #expect(try store.apply(.allShelves(second), state: LibrarySyncState()) == 2, "one changed, one gone")
        #expect(try store.shelves().map(\.id) == ["s1"])
        #expect(try store.shelves().first?.bookIDs == ["b1"])
        #expect(try store.syncState(of: .shelves) == LibrarySyncState())
    }

    @Test(arguments: stores())
    func discoveredShelvesAreKeptAndOpenReadOnly(store: any LibraryStore) throws {
        try store.apply(BrowseStoreTests.library, deleting: [], state: LibrarySyncState())
        #expect(try store.discoveredShelves().isEmpty)
        let mara = ShelfOwner(id: "u2", name: "Mara")
        try store.saveDiscoveredShelves([Self.shelf("d1", "Favourites", books: ["b5", "gone", "b4"], owner: mara)])
        let kept = try store.discoveredShelves()
        #expect(kept.first?.bookIDs == ["b5", "b4"])
        let page = try #require(try store.browsePage(.shelf, id: "d1"))
        #expect(page.owner == mara)
        #expect(page.entries.map(\.bookID) == ["b5", "b4"])
        #expect(try store.shelves().isEmpty, "not the user's")
    }

    @Test func namesAreCheckedBeforeSending() {
        #expect(ShelfName.problem("  ", limit: 100)?.code == "invalidName")
        #expect(ShelfName.problem(String(repeating: "a", count: 101), limit: 100)?.code == "invalidName")
        #expect(ShelfName.problem(" Bedtime ", limit: 100) == nil)
        #expect(ShelfName.cleaned(" Bedtime ") == "Bedtime")
        #expect(ShelfProblem(.server(status: 404, message: "")).code == "notFound")
        #expect(ShelfProblem(.server(status: 403, message: "")).code == "forbidden")
        #expect(ShelfProblem(.transport(.timedOut)).code == "timedOut")
    }
}
