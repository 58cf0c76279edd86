/// A library store that hands every call to another store, `base`: a
/// wrapper that watches or changes a few calls (the drift check's recorder
/// of the books a sync pulls, the tests' counting store) writes only those,
/// and a requirement added to ``LibraryStore`` or ``BrowseStore`` is
/// forwarded here once rather than falling, unnoticed, to a default in each
/// wrapper (``LibraryStore/listedBooks(ids:)``'s default reads every book).
public protocol ForwardingLibraryStore: LibraryStore {
    /// The store the calls go to.
    var base: any LibraryStore { get }
}

extension ForwardingLibraryStore {
    public func books() throws -> [CachedBook] { try base.books() }
    public func listedBooks() throws -> [CachedBook] { try base.listedBooks() }
    public func listedBooks(ids: Set<String>) throws -> [CachedBook] { try base.listedBooks(ids: ids) }
    public func firstListedBooks(_ count: Int, by sort: LibrarySort) throws -> [CachedBook]? {
        try base.firstListedBooks(count, by: sort)
    }
    public func book(id: String) throws -> CachedBook? { try base.book(id: id) }
    public func count() throws -> Int { try base.count() }
    public func bookRevisions() throws -> [String: Int64] { try base.bookRevisions() }
    public func apply(_ books: [ServerBook], deleting deleted: [String], state: LibrarySyncState) throws -> Int {
        try base.apply(books, deleting: deleted, state: state)
    }
    public func upsert(_ books: [ServerBook]) throws { try base.upsert(books) }
    public func delete(_ ids: [String]) throws { try base.delete(ids) }
    public func progress() throws -> [String: BookProgress] { try base.progress() }
    public func setProgress(_ progress: BookProgress?, for bookID: String) throws { try base.setProgress(progress, for: bookID) }
    public func syncState() throws -> LibrarySyncState { try base.syncState() }

    // BrowseStore
    public func browseItems(_ kind: BrowseKind) throws -> [BrowseItem] { try base.browseItems(kind) }
    public func browsePage(_ kind: BrowsePageKind, id: String) throws -> BrowsePageContents? { try base.browsePage(kind, id: id) }
    public func apply(_ rows: BrowseRows, state: LibrarySyncState) throws -> Int { try base.apply(rows, state: state) }
    public func syncState(of domain: BrowseDomain) throws -> LibrarySyncState { try base.syncState(of: domain) }
    public func links(ofBook id: String) throws -> BookLinks { try base.links(ofBook: id) }
    public func listeningStats() throws -> ListeningStats? { try base.listeningStats() }
    public func saveListeningStats(_ stats: ListeningStats) throws { try base.saveListeningStats(stats) }
    public func shelves() throws -> [Shelf] { try base.shelves() }
    public func discoveredShelves() throws -> [Shelf] { try base.discoveredShelves() }
    public func saveDiscoveredShelves(_ shelves: [Shelf]) throws { try base.saveDiscoveredShelves(shelves) }
    public func activityFeed(limit: Int) throws -> [ActivityFeedEntry] { try base.activityFeed(limit: limit) }
}
