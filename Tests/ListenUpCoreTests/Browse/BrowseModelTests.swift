import Foundation
import ListenUpAPI
@testable import ListenUpCore
import ListenUpTestSupport
import Testing

/// The browse model reads lists and pages from the session's cache, follows
/// the search, re-reads on a cache change, and keeps a stack of pages.
@MainActor @Suite("Browse model")
struct BrowseModelTests {
    let store = InMemoryLibraryStore()
    let library: LibraryModel
    let browse: BrowseModel

    init() throws {
        try store.apply(BrowseStoreTests.library, deleting: [], state: LibrarySyncState())
        let dependencies = Dependencies.test()
        library = LibraryModel(dependencies: dependencies, session: nil, load: false, send: { _ in })
        browse = BrowseModel(dependencies: dependencies, store: store, library: library)
        library.browse = browse
    }

    /// Waits until the model has read `count` times in all.
    func reads(_ count: Int) async throws {
        for _ in 0..<400 where browse.reads < count { try await Task.sleep(for: .milliseconds(5)) }
        try #require(browse.reads >= count, "read \(browse.reads) times, wanted \(count)")
    }

    @Test func aListIsReadWhenFirstShownAndSortedAsAsked() async throws {
        #expect(browse.lists.isEmpty, "nothing read before it is shown")
        browse.send(.show(.authors))
        try await reads(1)
        #expect(browse.lists[.authors]?.map(\.id) == ["herbert", "tolkien"])
        browse.send(.sort(.authors, .bookCount))
        #expect(browse.lists[.authors]?.map(\.id) == ["tolkien", "herbert"])
        #expect(browse.items(.authors)?.count == 2)
    }

    @Test func eachListsOrderIsKeptForTheNextRun() async throws {
        let dependencies = Dependencies.test(settings: AppSettings(browseSorts: ["narrators": "recentlyAdded", "series": "pages"]))
        let first = BrowseModel(dependencies: dependencies, store: store, library: nil)
        #expect(first.sorts[.narrators] == .recentlyAdded, "the order kept")
        #expect(first.sorts[.series] == .name && first.sorts[.authors] == .name, "an unknown or missing order is by name")
        first.send(.sort(.authors, .bookCount))
        first.send(.sort(.narrators, .name))
        #expect(dependencies.settings.load().browseSorts == ["authors": "bookCount"], "a list by name is not named")
        let next = BrowseModel(dependencies: dependencies, store: store, library: nil)
        #expect(next.sorts[.authors] == .bookCount && next.sorts[.narrators] == .name)
    }

    @Test func theLibrarysSearchFindsSeriesAndPeople() async throws {
        library.send(.search("dune"))
        try await reads(1)
        #expect(browse.seriesMatches.map(\.id) == ["dune"])
        #expect(browse.peopleMatches.isEmpty)
        library.send(.search("serk"))
        #expect(browse.peopleMatches.map(\.name) == ["Andy Serkis"])
        library.send(.search(""))
        #expect(browse.seriesMatches.isEmpty && browse.peopleMatches.isEmpty)
    }

    @Test func pagesStackAndAreReadAgainWhenTheCacheChanges() async throws {
        browse.send(.open(.series, id: "lotr"))
        try await reads(1)
        browse.send(.open(.contributor, id: "serkis"))
        try await reads(2)
        #expect(browse.pages.map(\.contents.name) == ["The Lord of the Rings", "Andy Serkis"])
        try store.apply(.contributors(EntityPage(entities: [Contributor(id: "serkis", name: "Andrew Serkis", updatedAt: .now)])),
                        state: LibrarySyncState())
        browse.cacheChanged()
        try await reads(3)
        #expect(browse.pages.last?.contents.name == "Andrew Serkis", "a rename shows on the open page")
        browse.send(.back)
        #expect(browse.pages.map(\.key) == [BrowseModel.PageKey(kind: .series, id: "lotr")])
        // Every book of the series gone: its page closes.
        try store.apply([], deleting: ["b1", "b2", "b3", "b4"], state: LibrarySyncState())
        browse.cacheChanged()
        try await reads(4)
        #expect(browse.pages.isEmpty)
    }

    @Test func aPageTheCacheLacksIsSaidToBeMissing() async throws {
        browse.send(.open(.genre, id: "g-none"))
        for _ in 0..<400 where browse.missingPage == nil { try await Task.sleep(for: .milliseconds(5)) }
        #expect(browse.missingPage == BrowseModel.PageKey(kind: .genre, id: "g-none"))
        #expect(browse.pages.isEmpty)
    }
}
