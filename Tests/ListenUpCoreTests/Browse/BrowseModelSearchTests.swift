import Foundation
import ListenUpAPI
@testable import ListenUpCore
import Testing

/// Keys typed while the lists a search needs are being read do not read
/// them again: at 50,000 books the read outlasts the gap between two keys,
/// and each key started another whole read (a dozen at once after a word).
@MainActor @Suite("Browse model search")
struct BrowseModelSearchTests {
    @Test func keysTypedDuringTheReadDoNotReadTheListsAgain() async throws {
        let store = HeldBrowseStore()
        try store.inner.apply(BrowseStoreTests.library, deleting: [], state: LibrarySyncState())
        let dependencies = Dependencies.test()
        let library = LibraryModel(dependencies: dependencies, session: nil, load: false, send: { _ in })
        let browse = BrowseModel(dependencies: dependencies, store: store, library: library)
        library.browse = browse
        store.held.value = true
        for text in ["d", "du", "dun", "dune"] { library.send(.search(text)) }
        // The first key's read waits in its first list while the others are typed.
        for _ in 0..<400 where store.itemReads.value < 1 { try await Task.sleep(for: .milliseconds(5)) }
        try await Task.sleep(for: .milliseconds(50))
        store.held.value = false
        for _ in 0..<400 where browse.reads < 1 { try await Task.sleep(for: .milliseconds(5)) }
        try #require(browse.reads == 1)
        try await Task.sleep(for: .milliseconds(50))
        #expect(store.itemReads.value == 3, "series, authors and narrators read once, not once per key")
        #expect(browse.seriesMatches.map(\.id) == ["dune"], "the read shows the last key's matches")
        library.send(.search("serk"))
        #expect(browse.peopleMatches.map(\.name) == ["Andy Serkis"])
        library.send(.search(""))
        browse.send(.show(.authors))
        #expect(store.itemReads.value == 3, "a list the search read is not read again when shown")
        #expect(browse.lists[.authors]?.map(\.id) == ["herbert", "tolkien"])
    }
}

/// An in-memory store whose lists wait while `held` is set, counting their reads.
private final class HeldBrowseStore: BrowseStore {
    let inner = InMemoryLibraryStore()
    let held = LockedValue(false)
    let itemReads = LockedValue(0)

    func browseItems(_ kind: BrowseKind) throws -> [BrowseItem] {
        itemReads.withLock { $0 += 1 }
        while held.value { Thread.sleep(forTimeInterval: 0.002) }
        return try inner.browseItems(kind)
    }

    func browsePage(_ kind: BrowsePageKind, id: String) throws -> BrowsePageContents? { try inner.browsePage(kind, id: id) }
    func apply(_ rows: BrowseRows, state: LibrarySyncState) throws -> Int { try inner.apply(rows, state: state) }
    func syncState(of domain: BrowseDomain) throws -> LibrarySyncState { try inner.syncState(of: domain) }
    func links(ofBook id: String) throws -> BookLinks { try inner.links(ofBook: id) }
    func listeningStats() throws -> ListeningStats? { try inner.listeningStats() }
    func saveListeningStats(_ stats: ListeningStats) throws { try inner.saveListeningStats(stats) }
    func shelves() throws -> [Shelf] { try inner.shelves() }
    func discoveredShelves() throws -> [Shelf] { try inner.discoveredShelves() }
    func saveDiscoveredShelves(_ shelves: [Shelf]) throws { try inner.saveDiscoveredShelves(shelves) }
    func activityFeed(limit: Int) throws -> [ActivityFeedEntry] { try inner.activityFeed(limit: limit) }
}
