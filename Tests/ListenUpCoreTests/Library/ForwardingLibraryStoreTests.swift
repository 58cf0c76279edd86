import Foundation
@testable import ListenUpCore
import Testing

/// A wrapper that writes nothing of its own (``ForwardingLibraryStore``)
/// behaves as its base: what it is given lands in the base, what it reads
/// is the base's, and a requirement with a default in the protocol reaches
/// the base's own implementation rather than the default.
@Suite("Forwarding library store")
struct ForwardingLibraryStoreTests {
    /// Forwards every call, changes none.
    final class Plain: ForwardingLibraryStore {
        let base: any LibraryStore
        init(_ base: any LibraryStore) { self.base = base }
    }

    /// The in-memory store, recording the reads whose protocol defaults
    /// would read something else (`listedBooks(ids:)`'s default reads every
    /// book; `firstListedBooks`'s answers nil without asking).
    final class Recorder: ForwardingLibraryStore {
        let memory = InMemoryLibraryStore()
        var base: any LibraryStore { memory }
        let calls = LockedValue<[String]>([])

        func books() throws -> [CachedBook] {
            calls.withLock { $0.append("books") }
            return try base.books()
        }
        func listedBooks() throws -> [CachedBook] {
            calls.withLock { $0.append("listedBooks") }
            return try base.listedBooks()
        }
        func listedBooks(ids: Set<String>) throws -> [CachedBook] {
            calls.withLock { $0.append("listedBooks(ids:)") }
            return try base.listedBooks(ids: ids)
        }
        func firstListedBooks(_ count: Int, by sort: LibrarySort) throws -> [CachedBook]? {
            calls.withLock { $0.append("firstListedBooks") }
            return try base.firstListedBooks(count, by: sort)
        }
    }

    @Test func whatTheWrapperIsGivenLandsInTheBaseAndItReadsTheBases() throws {
        let base = InMemoryLibraryStore()
        let store: any LibraryStore = Plain(base)
        try store.apply(BrowseStoreTests.library, deleting: [], state: LibrarySyncState())
        try store.upsert([BrowseStoreTests.book("b6", "The Hobbit")])
        try store.delete(["b5"])
        try store.setProgress(BookProgress(fraction: 0.5, finished: false), for: "b1")
        try store.saveDiscoveredShelves([Shelf(id: "s1", name: "Shared", bookIDs: ["b1"], updatedAt: Date(timeIntervalSince1970: 1_700_000_000))])

        #expect(try base.listedBooks().map(\.id).sorted() == ["b1", "b2", "b3", "b4", "b6"])
        #expect(try base.progress()["b1"] == BookProgress(fraction: 0.5, finished: false))
        #expect(try base.discoveredShelves().map(\.id) == ["s1"])

        #expect(try store.books() == base.books())
        #expect(try store.book(id: "b6") == base.book(id: "b6"))
        #expect(try store.count() == 5)
        #expect(try store.bookRevisions() == base.bookRevisions())
        #expect(try store.syncState() == base.syncState())
        #expect(try store.browseItems(.series) == base.browseItems(.series))
        #expect(try store.browsePage(.series, id: "lotr") == base.browsePage(.series, id: "lotr"))
        #expect(try store.links(ofBook: "b1") == base.links(ofBook: "b1"))
        #expect(try store.discoveredShelves() == base.discoveredShelves())
    }

    @Test func readsWithAProtocolDefaultReachTheBasesOwn() throws {
        let recorder = Recorder()
        let store: any LibraryStore = Plain(recorder)
        try store.apply(BrowseStoreTests.library, deleting: [], state: LibrarySyncState())
        #expect(try store.listedBooks(ids: ["b1", "b3"]).map(\.id).sorted() == ["b1", "b3"])
        _ = try store.firstListedBooks(2, by: .title)
        #expect(recorder.calls.value == ["listedBooks(ids:)", "firstListedBooks"],
                "a read the wrapper does not forward falls to the protocol's default")
    }
}
