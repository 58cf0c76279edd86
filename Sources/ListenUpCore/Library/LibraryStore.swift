import Foundation

/// One book as the library page needs it, kept in the local cache.
public struct CachedBook: Codable, Equatable, Sendable, Identifiable {
    public var id: String
    public var title: String
    /// Authors, comma-separated.
    public var authors: String
    public var narrators: String
    /// `Series #sequence`, comma-separated.
    public var series: String
    /// Milliseconds.
    public var duration: Int64
    public var createdAt: Date
    public var updatedAt: Date
    /// The server says a cover exists (`cover_image` present).
    public var hasCover: Bool
    /// Title, authors, narrators and series folded for search (``SearchKey``).
    public var searchKey: String
    /// What the details panel shows, JSON (``BookDetails``).
    public var details: Data
    /// The server's revision of the book (kRPC; nil on REST v1), for the
    /// library digest (``LibraryDigest``).
    public var revision: Int64?

    public init(id: String, title: String, authors: String, narrators: String, series: String, duration: Int64,
                createdAt: Date, updatedAt: Date, hasCover: Bool = false, details: BookDetails = BookDetails(),
                encoder: JSONEncoder = JSONEncoder(), revision: Int64? = nil) {
        let searchKey = SearchKey.fold([title, authors, narrators, series].map { $0.replacingOccurrences(of: "\n", with: " ") }
            .joined(separator: "\n"))
        self.init(id: id, title: title, authors: authors, narrators: narrators, series: series, duration: duration,
                  createdAt: createdAt, updatedAt: updatedAt, hasCover: hasCover, storedSearchKey: searchKey,
                  storedDetails: (try? encoder.encode(details)) ?? Data(), revision: revision)
    }

    /// This book as a list holds it (``LibraryStore/listedBooks()``): its
    /// details empty and no revision.
    public var listed: CachedBook {
        var listed = self
        listed.details = Data()
        listed.revision = nil
        return listed
    }

    /// A book exactly as a store kept it (search key and details JSON as
    /// they were stored).
    public init(id: String, title: String, authors: String, narrators: String, series: String, duration: Int64,
                createdAt: Date, updatedAt: Date, hasCover: Bool, storedSearchKey: String, storedDetails: Data, revision: Int64? = nil) {
        self.id = id
        self.title = title
        self.authors = authors
        self.narrators = narrators
        self.series = series
        self.duration = duration
        self.createdAt = createdAt
        self.updatedAt = updatedAt
        self.hasCover = hasCover
        searchKey = storedSearchKey
        details = storedDetails
        self.revision = revision
    }

    public init(_ book: ServerBook, encoder: JSONEncoder = JSONEncoder()) {
        func names(_ role: String) -> String { book.names(withRole: role).joined(separator: ", ") }
        let series = book.series.map { info in info.sequence.map { "\(info.name) #\($0)" } ?? info.name }
        self.init(id: book.id, title: book.title, authors: names("author").isEmpty ? (book.author ?? "") : names("author"),
                  narrators: names("narrator").isEmpty ? (book.narrator ?? "") : names("narrator"),
                  series: series.joined(separator: ", "), duration: book.totalDuration,
                  createdAt: book.createdAt, updatedAt: book.updatedAt, hasCover: book.hasCover,
                  details: BookDetails(book), encoder: encoder, revision: book.revision)
    }

    /// `book` as a store keeps it, its details written by
    /// ``BookDetails/sortedKeysJSON`` (the bytes `JSONEncoder` writes with
    /// `.sortedKeys`, several times faster): what a sync stores for each
    /// of thousands of books.
    public init(sortingKeys book: ServerBook) {
        func names(_ role: String) -> String { book.names(withRole: role).joined(separator: ", ") }
        let series = book.series.map { info in info.sequence.map { "\(info.name) #\($0)" } ?? info.name }
        let title = book.title
        let authors = names("author").isEmpty ? (book.author ?? "") : names("author")
        let narrators = names("narrator").isEmpty ? (book.narrator ?? "") : names("narrator")
        let seriesText = series.joined(separator: ", ")
        // As the other initialiser, without a Foundation call for the usual
        // field with no line feed.
        let searchKey = SearchKey.fold([title, authors, narrators, seriesText].map { field in
            field.utf8.contains(0x0A) ? field.replacingOccurrences(of: "\n", with: " ") : field
        }.joined(separator: "\n"))
        self.init(id: book.id, title: title, authors: authors, narrators: narrators, series: seriesText,
                  duration: book.totalDuration, createdAt: book.createdAt, updatedAt: book.updatedAt,
                  hasCover: book.hasCover, storedSearchKey: searchKey,
                  storedDetails: BookDetails(book).sortedKeysJSON, revision: book.revision)
    }

    /// The details, decoded (empty when unreadable).
    public var decodedDetails: BookDetails {
        (try? JSONDecoder().decode(BookDetails.self, from: details)) ?? BookDetails()
    }
}

/// What the details panel shows beyond the card: kept as JSON with the book.
public struct BookDetails: Codable, Equatable, Sendable {
    public struct Person: Codable, Equatable, Sendable {
        public var name: String
        public var roles: [String]
    }

    public struct ChapterEntry: Codable, Equatable, Sendable {
        public var title: String
        /// Milliseconds from the start of the book.
        public var start: Int64
        public var duration: Int64
        /// The server's id of the chapter (nil on REST v1).
        public var id: String?
    }

    public var subtitle: String?
    /// The server's description, HTML included (strip it to show it).
    public var description: String?
    public var publisher: String?
    public var publishYear: String?
    public var contributors: [Person] = []
    public var chapters: [ChapterEntry] = []
    /// The audio files in play order (nil in caches written before the
    /// player; a full sync fills them in).
    public var audioFiles: [AudioFileEntry]?

    /// One audio file of the book.
    public struct AudioFileEntry: Codable, Equatable, Sendable {
        /// `audio_files[].id`.
        public var id: String
        /// Milliseconds.
        public var duration: Int64
        /// Bytes, as the server reported.
        public var size: Int64
        public var format: String

        public init(id: String, duration: Int64, size: Int64, format: String) {
            self.id = id
            self.duration = duration
            self.size = size
            self.format = format
        }
    }

    public init() {}

    public init(_ book: ServerBook) {
        subtitle = book.subtitle
        description = book.description
        publisher = book.publisher
        publishYear = book.publishYear
        contributors = book.contributors.map { Person(name: $0.creditedAs ?? $0.name, roles: $0.roles) }
        chapters = book.chapters.sorted { $0.startTime < $1.startTime }.map {
            ChapterEntry(title: $0.title, start: $0.startTime, duration: max(0, $0.endTime - $0.startTime), id: $0.id)
        }
        audioFiles = book.audioFiles.map { AudioFileEntry(id: $0.id, duration: $0.duration, size: $0.size, format: $0.format) }
    }
}

extension LibraryStore {
    /// Every book read and sorted: no quicker than the whole read, so nil.
    public func firstListedBooks(_ count: Int, by sort: LibrarySort) throws -> [CachedBook]? { nil }

    /// The books among `ids`, filtered from ``listedBooks()`` (stores that
    /// can look rows up by id do better).
    public func listedBooks(ids: Set<String>) throws -> [CachedBook] {
        try listedBooks().filter { ids.contains($0.id) }
    }
}

/// How far the user has listened to a book.
public struct BookProgress: Equatable, Sendable {
    /// 0...1.
    public var fraction: Double
    public var finished: Bool

    public init(fraction: Double, finished: Bool) {
        self.fraction = min(1, max(0, fraction.isFinite ? fraction : 0))
        self.finished = finished
    }
}

/// Where a sync stands, kept with the books so a restart resumes.
public struct LibrarySyncState: Codable, Equatable, Sendable {
    /// A full sync has completed once; from now on deltas.
    public var fullSyncDone = false
    /// The cursor of the next page of an interrupted full sync.
    public var resumeCursor: String?
    /// The newest `updated_at` seen (server clock): the next delta's `updated_after`.
    public var newestUpdate: Date?
    /// Where the next delta starts, for a server that says so on the last
    /// page of a sync (kRPC: its revision, as an opaque cursor); the first
    /// page of a delta asks from there. Always nil on REST v1, whose last
    /// page has no cursor (deltas go by ``newestUpdate`` alone).
    public var deltaCursor: String?

    public init(fullSyncDone: Bool = false, resumeCursor: String? = nil, newestUpdate: Date? = nil, deltaCursor: String? = nil) {
        self.fullSyncDone = fullSyncDone
        self.resumeCursor = resumeCursor
        self.newestUpdate = newestUpdate
        self.deltaCursor = deltaCursor
    }
}

/// The library cache of one server and user: the books, their listening
/// progress and where the last sync stopped. ``LibrarySync`` fills it,
/// ``LibraryLiveUpdates`` changes it, the library model reads it.
///
/// The app's is SQLite (`SQLiteLibraryStore` in `ListenUpLive`, one file per
/// server and user); ``InMemoryLibraryStore`` serves previews and tests.
/// Implementations are thread-safe: syncs write off the main actor while
/// the page reads. The cache keeps what browsing reads too (``BrowseStore``):
/// each book's links are written with the book.
public protocol LibraryStore: BrowseStore {
    /// Every cached book, in no particular order (``LibraryIndex`` sorts).
    func books() throws -> [CachedBook]

    /// Every cached book as the list needs it (``CachedBook/listed``), in no
    /// particular order: no details (only the details panel shows them, one
    /// book at a time through ``book(id:)``) and no revision
    /// (``bookRevisions()`` reads those).
    func listedBooks() throws -> [CachedBook]

    /// The cached books among `ids` as the list needs them (as
    /// ``listedBooks()``), in no particular order; ids not in
    /// the cache are left out. What a live change reads, rather than the
    /// whole library.
    func listedBooks(ids: Set<String>) throws -> [CachedBook]

    /// The first `count` books of the library in `sort`'s order (as
    /// ``LibraryIndex/order(by:)`` puts them), as ``listedBooks()`` gives
    /// them: what a window draws before the whole library is read
    /// (``LibraryReadAhead/FirstScreen``). Nil: this store has no quicker
    /// way than reading every book.
    func firstListedBooks(_ count: Int, by sort: LibrarySort) throws -> [CachedBook]?

    /// One cached book.
    func book(id: String) throws -> CachedBook?

    /// How many books are cached.
    func count() throws -> Int

    /// The server revision of each cached book that has one (kRPC), by id:
    /// what the library digest hashes. A default reads ``books()``.
    func bookRevisions() throws -> [String: Int64]

    /// Applies one page (and deletions) together with the sync state that
    /// follows it, at once: a crash leaves either both or neither.
    /// - Returns: how many books it added, changed or deleted: a book stored
    ///   again as it was, or an id not in the cache (the server may name
    ///   books deleted long ago), is no change.
    @discardableResult
    func apply(_ books: [ServerBook], deleting deleted: [String], state: LibrarySyncState) throws -> Int

    /// Stores books that arrived outside a sync page (live events).
    func upsert(_ books: [ServerBook]) throws

    /// Removes books and their progress (live events).
    func delete(_ ids: [String]) throws

    /// Listening progress per book (0...1), as last reported.
    func progress() throws -> [String: BookProgress]

    /// Records (or, with `nil`, forgets) a book's progress.
    func setProgress(_ progress: BookProgress?, for bookID: String) throws

    /// Where the last sync stopped.
    func syncState() throws -> LibrarySyncState
}
