import Foundation
import ListenUpAPI
@testable import ListenUpCore
@testable import ListenUpLive
import Testing

/// Both library caches keep the facets (the server's genre tree, tags,
/// moods, collections and their junction rows) and answer their lists,
/// pages and a book's links alike.
@Suite("Facet store")
struct FacetStoreTests {
    static func stores() -> [any LibraryStore] { [SQLiteLibraryStore.inMemory(), InMemoryLibraryStore()] }
    static let day = Date(timeIntervalSince1970: 1_700_000_000)

    static let tree: [ListenUpCore.Genre] = [
        Genre(id: "g-fiction", name: "Fiction (server)", slug: "fiction", path: "fiction", updatedAt: day),
        Genre(id: "g-fantasy", name: "Fantasy", slug: "fantasy", path: "fiction/fantasy", parentID: "g-fiction", depth: 1, sortOrder: 2,
              updatedAt: day),
        Genre(id: "g-epic", name: "Epic Fantasy", slug: "epic", path: "fiction/fantasy/epic", parentID: "g-fantasy", depth: 2, updatedAt: day),
        Genre(id: "g-sf", name: "Science Fiction", slug: "science-fiction", path: "fiction/science-fiction", parentID: "g-fiction", depth: 1,
              sortOrder: 1, updatedAt: day),
        Genre(id: "g-empty", name: "Poetry", slug: "poetry", path: "fiction/poetry", parentID: "g-fiction", depth: 1, updatedAt: day),
    ]

    static func tag(_ id: String, _ name: String) -> ListenUpCore.Tag { ListenUpCore.Tag(id: id, name: name, slug: id, updatedAt: day) }
    static func link(_ id: String, _ book: String, _ group: String) -> BookMembership {
        BookMembership(id: id, bookID: book, groupID: group, updatedAt: day)
    }

    /// The browse library, and a tag, a mood and a collection over it (kRPC's shape: junction rows by id).
    static func filled(_ store: any LibraryStore) throws {
        try store.apply(BrowseStoreTests.library, deleting: [], state: LibrarySyncState())
        try store.apply(.tags(EntityPage(entities: [tag("t-cozy", "Cozy"), tag("t-long", "Long")])), state: LibrarySyncState())
        try store.apply(.bookTags(EntityPage(entities: [link("bt1", "b1", "t-cozy"), link("bt2", "b2", "t-cozy"), link("bt3", "b5", "t-long"),
                                                        link("bt4", "gone-book", "t-long")])), state: LibrarySyncState())
        try store.apply(.moods(EntityPage(entities: [tag("m-dark", "Dark")])), state: LibrarySyncState())
        try store.apply(.bookMoods(EntityPage(entities: [link("bm1", "b3", "m-dark")])), state: LibrarySyncState())
        try store.apply(.collections(EntityPage(entities: [LibraryCollection(id: "c-club", name: "Book Club", updatedAt: day),
                                                           LibraryCollection(id: "c-all", name: "All Books", isSystem: true, updatedAt: day)])),
                        state: LibrarySyncState())
        try store.apply(.collectionBooks(EntityPage(entities: [link("cb1", "b1", "c-club"), link("cb2", "b5", "c-club"),
                                                               link("cb3", "b1", "c-all")])), state: LibrarySyncState())
    }

    @Test(arguments: stores())
    func tagsMoodsAndCollectionsListTheirCachedBooks(store: any LibraryStore) throws {
        try Self.filled(store)
        let tags = try store.browseItems(.tags).sorted(by: .name)
        #expect(tags.map(\.name) == ["Cozy", "Long"])
        #expect(tags.map(\.bookCount) == [2, 1], "a link to a book the cache does not have counts for nothing")
        #expect(try store.browseItems(.moods).map(\.name) == ["Dark"])
        #expect(try store.browseItems(.collections).map(\.name) == ["Book Club"], "the server's own collections are not listed")
        let page = try #require(try store.browsePage(.tag, id: "t-cozy"))
        #expect(page.name == "Cozy" && page.kind == .tag)
        #expect(page.entries.map(\.title) == ["The Fellowship", "The Two Towers"])
        #expect(try store.browsePage(.collection, id: "c-club")?.entries.map(\.bookID) == ["b5", "b1"], "by title")
        #expect(try store.browsePage(.mood, id: "m-dark")?.entries.map(\.bookID) == ["b3"])
        #expect(try store.browsePage(.tag, id: "no-such-tag") == nil)
        #expect(try store.browsePage(.collection, id: "c-all") == nil)
        let links = try store.links(ofBook: "b1")
        #expect(links.tags.map(\.name) == ["Cozy"] && links.collections.map(\.id) == ["c-club"] && links.moods.isEmpty)
        #expect(try store.links(ofBook: "b3").moods.map(\.name) == ["Dark"])
    }

    @Test(arguments: stores())
    func aJunctionTombstoneIsKnownByItsIdAndTheSameIdComesBack(store: any LibraryStore) throws {
        try Self.filled(store)
        // The tombstone arrives with the ids blanked: only its own id says which row.
        let removed = try store.apply(.bookTags(EntityPage(entities: [], deletedIDs: ["bt2"], nextCursor: "rev:9")),
                                      state: LibrarySyncState(fullSyncDone: true))
        #expect(removed == 1)
        #expect(try store.browsePage(.tag, id: "t-cozy")?.entries.map(\.bookID) == ["b1"])
        #expect(try store.syncState(of: .bookTags).fullSyncDone)
        // Re-added: the same row id, live again.
        try store.apply(.bookTags(EntityPage(entities: [Self.link("bt2", "b2", "t-cozy")])), state: LibrarySyncState())
        #expect(try store.browsePage(.tag, id: "t-cozy")?.entries.map(\.bookID) == ["b1", "b2"])
        #expect(try store.apply(.bookTags(EntityPage(entities: [Self.link("bt2", "b2", "t-cozy")])), state: LibrarySyncState()) == 0,
                "the same row again changes nothing")
        // A tag renamed and one deleted.
        try store.apply(.tags(EntityPage(entities: [Self.tag("t-cozy", "Snug")], deletedIDs: ["t-long"])), state: LibrarySyncState())
        #expect(try store.browseItems(.tags).map(\.name) == ["Snug"])
        #expect(try store.links(ofBook: "b1").tags.map(\.name) == ["Snug"])
    }

    @Test(arguments: stores())
    func aListThatReplacesAllDropsWhatIsNotInIt(store: any LibraryStore) throws {
        try Self.filled(store)
        let changed = try store.apply(.collections(EntityPage(entities: [LibraryCollection(id: "c-club", name: "Book Club", updatedAt: Self.day)],
                                                              replacesAll: true)), state: LibrarySyncState())
        #expect(changed == 1, "the system collection is gone")
        try store.apply(.collectionBooks(EntityPage(entities: [Self.link("c-club:b5", "b5", "c-club")], replacesAll: true)),
                        state: LibrarySyncState())
        #expect(try store.browsePage(.collection, id: "c-club")?.entries.map(\.bookID) == ["b5"])
    }

    @Test(arguments: stores())
    func restBooksNameTheirTagsByTheirSlugs(store: any LibraryStore) throws {
        var book = BrowseStoreTests.library[0]
        book.tags = [ServerBook.Tag(id: "t9", slug: "slow-burn")]
        try store.apply([book], deleting: [], state: LibrarySyncState())
        #expect(try store.browseItems(.tags).map(\.name) == ["Slow burn"])
        #expect(try store.browsePage(.tag, id: "t9")?.entries.map(\.bookID) == ["b1"])
        // The list, when it comes, names it the same way (REST has no names).
        try store.apply(.tags(EntityPage(entities: [Self.tag("t9", "Slow burn")], replacesAll: true)), state: LibrarySyncState())
        #expect(try store.links(ofBook: "b1").tags.map(\.name) == ["Slow burn"])
        book.tags = []
        try store.apply([book], deleting: [], state: LibrarySyncState())
        #expect(try store.browseItems(.tags).isEmpty, "the book no longer names it")
    }

    @Test(arguments: stores())
    func theServersGenreTreeNamesAndNestsTheGenres(store: any LibraryStore) throws {
        try store.apply(BrowseStoreTests.library, deleting: [], state: LibrarySyncState())
        #expect(try store.browseItems(.genres).count == 4, "before the tree: the books' own genres")
        try store.apply(.genres(EntityPage(entities: Self.tree)), state: LibrarySyncState())
        let genres = try store.browseItems(.genres).sorted(by: .name)
        #expect(genres.map(\.name) == ["Fiction (server)", "Fantasy", "Epic Fantasy", "Science Fiction"], "in tree order; no empty genre")
        #expect(genres.map(\.depth) == [0, 1, 2, 1])
        #expect(genres.map(\.bookCount) == [5, 3, 1, 1], "a genre counts the books of the genres under it")
        let fantasy = try #require(try store.browsePage(.genre, id: "g-fantasy"))
        #expect(fantasy.parents.map(\.id) == ["g-fiction"])
        #expect(fantasy.children.map(\.id) == ["g-epic"])
        #expect(Set(fantasy.entries.map(\.bookID)) == ["b1", "b2", "b3"])
        let fiction = try #require(try store.browsePage(.genre, id: "g-fiction"))
        #expect(fiction.name == "Fiction (server)", "the server's name wins")
        #expect(fiction.children.map(\.id) == ["g-sf", "g-fantasy"], "in the curator's order, without the empty one")
        #expect(fiction.entries.count == 5)
        let epic = try #require(try store.browsePage(.genre, id: "g-epic"))
        #expect(epic.parents.map(\.id) == ["g-fiction", "g-fantasy"])
        // A tombstone takes the genre out of the tree; its books keep their link.
        try store.apply(.genres(EntityPage(entities: [], deletedIDs: ["g-epic"])), state: LibrarySyncState())
        #expect(try store.browsePage(.genre, id: "g-fantasy")?.children.isEmpty == true)
        #expect(try store.browseItems(.genres).contains { $0.id == "g-epic" && $0.name == "Epic Fantasy" }, "as the book names it")
    }
}
