import Foundation
import ListenUpAPI
@testable import ListenUpCore
@testable import ListenUpLive
import Testing

/// Both library caches (SQLite, the app's; in memory, previews') keep each
/// book's links and answer the browse lists and pages alike.
@Suite("Browse store")
struct BrowseStoreTests {
    static func stores() -> [any LibraryStore] { [SQLiteLibraryStore.inMemory(), InMemoryLibraryStore()] }

    /// A book with people, series places and genres, as a REST v1 sync gives it.
    static func restBook(_ id: String, _ title: String, people: [(String, String, [String])] = [], series: [(String, String, String?)] = [],
                         genres: [(String, String, String)] = [], added: TimeInterval = 0) -> SyncBook {
        var book = SyncBook(createdAt: Date(timeIntervalSince1970: 1_700_000_000 + added), updatedAt: Date(timeIntervalSince1970: 1_700_000_000),
                            id: id, title: title, path: "/\(id)", audioFiles: [], totalDuration: 1000, totalSize: 1,
                            contributors: people.map { BookContributor(contributorID: $0.0, name: $0.1, roles: $0.2) })
        if !series.isEmpty { book.seriesInfo = series.map { SeriesInfo(seriesID: $0.0, name: $0.1, sequence: $0.2) } }
        if !genres.isEmpty {
            book.genreIDs = genres.map(\.0)
            book.genres = genres.map(\.1)
        }
        return book
    }

    /// ``restBook(_:_:people:series:genres:added:)`` as the seam hands it
    /// to the cache (REST v1's mapping), its genres with their paths as a
    /// kRPC server gives them.
    static func book(_ id: String, _ title: String, people: [(String, String, [String])] = [], series: [(String, String, String?)] = [],
                     genres: [(String, String, String)] = [], added: TimeInterval = 0) -> ServerBook {
        var book = ServerBook(restBook(id, title, people: people, series: series, genres: genres, added: added))
        book.genres = genres.map { ServerBook.Genre(id: $0.0, name: $0.1, path: $0.2) }
        return book
    }

    static let library: [ServerBook] = [
        book("b1", "The Fellowship", people: [("tolkien", "J. R. R. Tolkien", ["author"]), ("serkis", "Andy Serkis", ["narrator"])],
             series: [("lotr", "The Lord of the Rings", "1")], genres: [("g-fantasy", "Fantasy", "fiction/fantasy")], added: 10),
        book("b2", "The Two Towers", people: [("tolkien", "J. R. R. Tolkien", ["author"]), ("serkis", "Andy Serkis", ["narrator"])],
             series: [("lotr", "The Lord of the Rings", "2")], genres: [("g-fantasy", "Fantasy", "fiction/fantasy")], added: 20),
        book("b3", "The Return of the King", people: [("tolkien", "J. R. R. Tolkien", ["author"])],
             series: [("lotr", "The Lord of the Rings", "10")], genres: [("g-epic", "Epic Fantasy", "fiction/fantasy/epic")], added: 30),
        book("b4", "Tales from the Perilous Realm", people: [("tolkien", "J. R. R. Tolkien", ["author", "narrator"])],
             series: [("lotr", "The Lord of the Rings", nil)], genres: [("g-fiction", "Fiction", "fiction")], added: 40),
        book("b5", "Dune", people: [("herbert", "Frank Herbert", ["author"]), ("serkis", "Andy Serkis", ["narrator"])],
             series: [("dune", "Dune", "1.5")], genres: [("g-sf", "Science Fiction", "fiction/science-fiction")], added: 50),
    ]

    @Test(arguments: stores())
    func listsCountEachItemsBooks(store: any LibraryStore) throws {
        try store.apply(Self.library, deleting: [], state: LibrarySyncState())
        let series = try store.browseItems(.series).sorted(by: .name)
        #expect(series.map(\.name) == ["Dune", "The Lord of the Rings"])
        #expect(series.map(\.bookCount) == [1, 4])
        let authors = try store.browseItems(.authors).sorted(by: .bookCount)
        #expect(authors.map(\.id) == ["tolkien", "herbert"])
        let narrators = try store.browseItems(.narrators).sorted(by: .name)
        #expect(narrators.map(\.name) == ["Andy Serkis", "J. R. R. Tolkien"], "the author who reads one book is a narrator too")
        #expect(narrators.map(\.bookCount) == [3, 1])
        #expect(try store.browseItems(.series).sorted(by: .recentlyAdded).map(\.id) == ["dune", "lotr"])
        #expect(try store.browseItems(.genres).count == 4)
    }

    @Test(arguments: stores())
    func aSeriesPageIsInSequenceOrderWithUnnumberedBooksLast(store: any LibraryStore) throws {
        try store.apply(Self.library, deleting: [], state: LibrarySyncState())
        let page = try #require(try store.browsePage(.series, id: "lotr"))
        #expect(page.name == "The Lord of the Rings")
        #expect(page.entries.map(\.bookID) == ["b1", "b2", "b3", "b4"], "2 before 10, no number last")
        #expect(page.entries.map(\.sequence) == ["1", "2", "10", nil])
        #expect(try store.browsePage(.series, id: "nothing") == nil)
    }

    @Test(arguments: stores())
    func aContributorPageGivesEachBooksRoles(store: any LibraryStore) throws {
        try store.apply(Self.library, deleting: [], state: LibrarySyncState())
        let tolkien = try #require(try store.browsePage(.contributor, id: "tolkien"))
        #expect(tolkien.entries.count == 4)
        #expect(tolkien.entries.first { $0.bookID == "b4" }?.roles == ["author", "narrator"])
        #expect(tolkien.entries.first { $0.bookID == "b1" }?.roles == ["author"])
        let serkis = try #require(try store.browsePage(.contributor, id: "serkis"))
        #expect(Set(serkis.entries.map(\.bookID)) == ["b1", "b2", "b5"])
        #expect(serkis.entries.allSatisfy { $0.roles == ["narrator"] })
    }

    @Test(arguments: stores())
    func aGenrePageHoldsTheGenresUnderItAndNamesItsParents(store: any LibraryStore) throws {
        try store.apply(Self.library, deleting: [], state: LibrarySyncState())
        let fantasy = try #require(try store.browsePage(.genre, id: "g-fantasy"))
        #expect(Set(fantasy.entries.map(\.bookID)) == ["b1", "b2", "b3"], "Epic Fantasy is under Fantasy")
        #expect(fantasy.parents.map(\.name) == ["Fiction"])
        let epic = try #require(try store.browsePage(.genre, id: "g-epic"))
        #expect(epic.parents.map(\.name) == ["Fiction", "Fantasy"])
        #expect(epic.entries.map(\.bookID) == ["b3"])
    }

    @Test(arguments: stores())
    func theServersContributorsAndSeriesNameAndDescribeTheirItems(store: any LibraryStore) throws {
        try store.apply(Self.library, deleting: [], state: LibrarySyncState())
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        try store.apply(.series(EntityPage(entities: [Series(id: "lotr", name: "Lord of the Rings", sortName: "Lord of the Rings",
                                                             description: "<p>Three <b>books</b>.</p>", updatedAt: now)])),
                        state: LibrarySyncState(fullSyncDone: true, newestUpdate: now))
        try store.apply(.contributors(EntityPage(entities: [Contributor(id: "tolkien", name: "John Ronald Reuel Tolkien",
                                                                        sortName: "Tolkien, J. R. R.", updatedAt: now)])),
                        state: LibrarySyncState(fullSyncDone: true))
        #expect(try store.browseItems(.series).first { $0.id == "lotr" }?.name == "Lord of the Rings", "the server's name wins")
        let page = try #require(try store.browsePage(.series, id: "lotr"))
        #expect(page.name == "Lord of the Rings")
        #expect(page.description?.contains("Three books.") == true, "plain text")
        let authors = try store.browseItems(.authors).sorted(by: .name)
        #expect(authors.map(\.id) == ["herbert", "tolkien"], "by sort name: Herbert before Tolkien")
        #expect(try store.syncState(of: .series).newestUpdate == now)
        #expect(try store.syncState(of: .contributors).fullSyncDone)
        // Deleted on the server: the book's own link names it again.
        let removed = try store.apply(.series(EntityPage(entities: [], deletedIDs: ["lotr", "never-seen"])), state: LibrarySyncState())
        #expect(removed == 1)
        #expect(try store.browsePage(.series, id: "lotr")?.name == "The Lord of the Rings")
    }

    @Test(arguments: stores())
    func deletedAndChangedBooksLeaveTheLists(store: any LibraryStore) throws {
        try store.apply(Self.library, deleting: [], state: LibrarySyncState())
        try store.apply([], deleting: ["b5"], state: LibrarySyncState())
        #expect(try store.browseItems(.series).map(\.id) == ["lotr"])
        #expect(try store.browsePage(.contributor, id: "herbert") == nil)
        // Only a genre changes: the links are written again.
        var moved = Self.library[3]
        moved.genres = [ServerBook.Genre(id: "g-sf", name: "Science Fiction", path: "fiction/science-fiction")]
        #expect(try store.apply([moved], deleting: [], state: LibrarySyncState()) == 1)
        #expect(try store.links(ofBook: "b4").genres.map(\.id) == ["g-sf"])
        #expect(try store.apply([moved], deleting: [], state: LibrarySyncState()) == 0, "stored again as it was: no change")
        try store.delete(["b1"])
        #expect(try store.browsePage(.series, id: "lotr")?.entries.map(\.bookID) == ["b2", "b3", "b4"])
    }

    @Test func booksCachedBeforeTheLinksWereKeptGetThemAtTheNextSync() throws {
        let store = SQLiteLibraryStore.inMemory()
        try store.apply(Self.library, deleting: [], state: LibrarySyncState())
        // As a cache from before schema v5 has them: rows with no links and an empty key.
        try store.write { db in
            try db.execute(sql: "DELETE FROM bookPerson; DELETE FROM bookSeries; DELETE FROM bookGenre; UPDATE book SET links = ''")
        }
        #expect(try store.browseItems(.series).isEmpty)
        #expect(try store.apply(Self.library, deleting: [], state: LibrarySyncState()) == Self.library.count, "every row differs by its key")
        #expect(try store.browseItems(.series).count == 2)
        #expect(try store.links(ofBook: "b4").people.map(\.role) == ["author", "narrator"])
    }

    @Test(arguments: stores())
    func aBooksLinksAreKeptInOrder(store: any LibraryStore) throws {
        try store.apply(Self.library, deleting: [], state: LibrarySyncState())
        let links = try store.links(ofBook: "b1")
        #expect(links.people.map(\.id) == ["tolkien", "serkis"])
        #expect(links.series.map(\.sequence) == ["1"])
        #expect(links.genres.map(\.path) == ["fiction/fantasy"])
        #expect(try store.links(ofBook: "unknown") == BookLinks())
    }
}

@Suite("Browse order and links")
struct BrowseOrderTests {
    @Test func sequencesSortAsNumbersThenUnnumberedByTitle() {
        let entries = [("a", "Zeta", "10"), ("b", "Alpha", nil), ("c", "Beta", "2"), ("d", "Gamma", "1.5"), ("e", "Delta", "x"),
                       ("f", "Epsilon", "1")]
            .map { BrowsePageEntry(bookID: $0.0, title: $0.1, sequence: $0.2) }
        let ordered = BrowsePageContents(kind: .series, id: "s", name: "S", entries: entries).entries.map(\.bookID)
        #expect(ordered == ["f", "d", "c", "a", "b", "e"], "1, 1.5, 2, 10, then Alpha and Delta (no readable number) by title")
        let byTitle = BrowsePageContents(kind: .contributor, id: "p", name: "P", entries: entries).entries.map(\.bookID)
        #expect(byTitle == ["b", "c", "e", "f", "d", "a"])
    }

    @Test func linksMergeRolesAndPairRESTGenresOnlyWhenTheyLineUp() {
        var book = BrowseStoreTests.restBook("b", "B", people: [("p", "P", ["author", "narrator"]), ("p", "P", ["author"])])
        book.genres = ["Fantasy", "Horror"]
        book.genreIDs = ["g1"]
        let links = BookLinks(ServerBook(book))
        #expect(links.people.map(\.role) == ["author", "narrator"], "one entry per person and role")
        #expect(links.genres.map(\.id) == ["Fantasy", "Horror"], "ids that do not line up with the names are not guessed")
        book.genreIDs = ["g1", "g2"]
        #expect(BookLinks(ServerBook(book)).genres.map(\.id) == ["g1", "g2"])
        #expect(BookLinks(ServerBook(book)).key != links.key)
    }

    @Test func searchMatchesEveryWordFoldedAndSortsKeepTiesStable() {
        let items = [BrowseItem(id: "1", name: "Émile Zola", bookCount: 2), BrowseItem(id: "2", name: "Zadie Smith", bookCount: 2),
                     BrowseItem(id: "3", name: "Emily Brontë", bookCount: 5)]
        #expect(items.matching("emil").map(\.id) == ["1", "3"], "accents folded")
        #expect(items.matching("zola emile").map(\.id) == ["1"])
        #expect(items.sorted(by: .bookCount).map(\.id) == ["3", "1", "2"], "ties by name")
    }
}
