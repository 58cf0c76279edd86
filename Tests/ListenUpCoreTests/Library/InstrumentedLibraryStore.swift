import Dispatch
import Foundation
@testable import ListenUpCore

/// The in-memory cache, counting whole reads (`listedBooks()`) and reads of
/// one book (`book(id:)`), and, when given a gate, holding every whole read
/// until the test opens it.
final class InstrumentedLibraryStore: LibraryStore {
    let base = InMemoryLibraryStore()
    let wholeReads = LockedValue(0)
    let bookReads = LockedValue(0)
    /// Whole reads wait for a signal (for at most 30 s: a test that fails
    /// first does not hold its thread for ever).
    let wholeReadGate: DispatchSemaphore?

    init(holdingWholeReads: Bool = false) {
        wholeReadGate = holdingWholeReads ? DispatchSemaphore(value: 0) : nil
    }

    /// Lets held whole reads go on, and every later one.
    func openWholeReads() {
        for _ in 0..<100 { wholeReadGate?.signal() }
    }

    func books() throws -> [CachedBook] { try base.books() }
    func listedBooks() throws -> [CachedBook] {
        wholeReads.withLock { $0 += 1 }
        _ = wholeReadGate?.wait(timeout: .now() + 30)
        return try base.listedBooks()
    }
    func listedBooks(ids: Set<String>) throws -> [CachedBook] { try base.listedBooks(ids: ids) }
    func firstListedBooks(_ count: Int, by sort: LibrarySort) throws -> [CachedBook]? {
        try base.firstListedBooks(count, by: sort)
    }
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
