import Foundation
import GRDB
import ListenUpAPI
import Logging

/// One book as the library page needs it, kept in the local cache.
public struct CachedBook: Codable, Equatable, Sendable, FetchableRecord, PersistableRecord, Identifiable {
    public static let databaseTableName = "book"

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

    public init(id: String, title: String, authors: String, narrators: String, series: String, duration: Int64,
                createdAt: Date, updatedAt: Date, hasCover: Bool = false, details: BookDetails = BookDetails(),
                encoder: JSONEncoder = JSONEncoder()) {
        self.id = id
        self.title = title
        self.authors = authors
        self.narrators = narrators
        self.series = series
        self.duration = duration
        self.createdAt = createdAt
        self.updatedAt = updatedAt
        self.hasCover = hasCover
        searchKey = SearchKey.fold([title, authors, narrators, series].map { $0.replacingOccurrences(of: "\n", with: " ") }.joined(separator: "\n"))
        self.details = (try? encoder.encode(details)) ?? Data()
    }

    public init(_ book: SyncBook, encoder: JSONEncoder = JSONEncoder()) {
        func names(_ role: String) -> String { book.names(withRole: role).joined(separator: ", ") }
        let series = (book.seriesInfo ?? []).map { info in info.sequence.map { "\(info.name) #\($0)" } ?? info.name }
        self.init(id: book.id, title: book.title, authors: names("author").isEmpty ? (book.author ?? "") : names("author"),
                  narrators: names("narrator").isEmpty ? (book.narrator ?? "") : names("narrator"),
                  series: series.joined(separator: ", "), duration: book.totalDuration,
                  createdAt: book.createdAt, updatedAt: book.updatedAt, hasCover: book.coverImage != nil,
                  details: BookDetails(book), encoder: encoder)
    }

    /// The details, decoded (empty when unreadable).
    /// Reads a row column by column: a cold start waits for the read of
    /// every book, and GRDB's Codable path took 42–62 ms for 10,000 of them
    /// where this takes 37–48 ms. A value of the wrong type throws, as with
    /// Codable.
    public init(row: Row) throws {
        id = try row.decode(forColumn: "id")
        title = try row.decode(forColumn: "title")
        authors = try row.decode(forColumn: "authors")
        narrators = try row.decode(forColumn: "narrators")
        series = try row.decode(forColumn: "series")
        duration = try row.decode(forColumn: "duration")
        createdAt = try row.decode(forColumn: "createdAt")
        updatedAt = try row.decode(forColumn: "updatedAt")
        hasCover = try row.decode(forColumn: "hasCover")
        searchKey = try row.decode(forColumn: "searchKey")
        details = try row.decode(forColumn: "details")
    }

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
    }

    public var subtitle: String?
    /// The server's description, HTML included (strip it to show it).
    public var description: String?
    public var publisher: String?
    public var publishYear: String?
    public var contributors: [Person] = []
    public var chapters: [ChapterEntry] = []

    public init() {}

    public init(_ book: SyncBook) {
        subtitle = book.subtitle
        description = book.description
        publisher = book.publisher
        publishYear = book.publishYear
        contributors = book.contributors.map { Person(name: $0.creditedAs ?? $0.name, roles: $0.roles) }
        chapters = (book.chapters ?? []).sorted { $0.startTime < $1.startTime }.map {
            ChapterEntry(title: $0.title, start: $0.startTime, duration: max(0, $0.endTime - $0.startTime))
        }
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

    public init(fullSyncDone: Bool = false, resumeCursor: String? = nil, newestUpdate: Date? = nil) {
        self.fullSyncDone = fullSyncDone
        self.resumeCursor = resumeCursor
        self.newestUpdate = newestUpdate
    }
}

/// The library cache: SQLite (GRDB), one file per server and user under
/// `$XDG_CACHE_HOME/listenup/`. A file that is not ours or not a database
/// is moved aside (`.corrupt`) and rebuilt; the app never fails on it.
public final class LibraryStore: Sendable {
    /// Marks our databases (`PRAGMA application_id`, "LUlb").
    static let applicationID: Int32 = 0x4C55_6C62
    private let database: DatabaseQueue

    private init(database: DatabaseQueue) {
        self.database = database
    }

    /// A store in memory (previews, tests, or when no file can be made).
    public static func inMemory() -> LibraryStore {
        // An in-memory queue only fails if SQLite itself is unusable.
        guard let queue = try? DatabaseQueue(), let store = try? prepare(queue) else {
            preconditionFailure("SQLite cannot open an in-memory database")
        }
        return store
    }

    /// The cache file for `user` on `server`.
    public static func url(in cacheDirectory: URL, server: URL, userID: String) -> URL {
        let key = "\(server.absoluteString)|\(userID)".unicodeScalars.map { CharacterSet.alphanumerics.contains($0) ? String($0) : "_" }.joined()
        return cacheDirectory.appendingPathComponent("library-\(key).sqlite")
    }

    /// Opens (or creates) the store at `url`. A damaged or foreign file is
    /// set aside and a fresh store made; if even that fails, the store lives
    /// in memory for this run.
    public static func open(at url: URL, logger: Logger) -> LibraryStore {
        do {
            return try openFile(url)
        } catch {
            logger.warning("Library cache unreadable; setting it aside and starting afresh", metadata: ["path": "\(url.path)"])
            let aside = url.appendingPathExtension("corrupt")
            try? FileManager.default.removeItem(at: aside)
            try? FileManager.default.moveItem(at: url, to: aside)
            for suffix in ["-wal", "-shm"] { try? FileManager.default.removeItem(atPath: url.path + suffix) }
            do {
                return try openFile(url)
            } catch {
                logger.error("Cannot create the library cache; keeping it in memory", metadata: ["reason": "\(error)"])
                return inMemory()
            }
        }
    }

    private static func openFile(_ url: URL) throws -> LibraryStore {
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        return try prepare(try DatabaseQueue(path: url.path))
    }

    /// Checks the file is ours (or empty) and brings the schema up to date.
    private static func prepare(_ queue: DatabaseQueue) throws -> LibraryStore {
        try queue.write { db in
            let id = try Int32.fetchOne(db, sql: "PRAGMA application_id") ?? 0
            let tables = try Int.fetchOne(db, sql: "SELECT count(*) FROM sqlite_master") ?? 0
            if id != applicationID {
                guard tables == 0 else { throw DatabaseError(resultCode: .SQLITE_NOTADB, message: "not a ListenUp library cache") }
                try db.execute(sql: "PRAGMA application_id = \(applicationID)")
            }
        }
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.create(table: "book") { table in
                table.primaryKey("id", .text)
                table.column("title", .text).notNull()
                table.column("authors", .text).notNull()
                table.column("narrators", .text).notNull()
                table.column("series", .text).notNull()
                table.column("duration", .integer).notNull()
                table.column("createdAt", .datetime).notNull()
                table.column("updatedAt", .datetime).notNull()
            }
            try db.create(table: "syncState") { table in
                table.primaryKey("id", .integer)
                table.column("json", .blob).notNull()
            }
        }
        migrator.registerMigration("v2") { db in
            // The v1 rows lack the new columns; a delta cannot refill them,
            // so the cache starts over with a full sync.
            try db.execute(sql: "DELETE FROM book")
            try db.execute(sql: "DELETE FROM syncState")
            try db.alter(table: "book") { table in
                table.add(column: "hasCover", .boolean).notNull().defaults(to: false)
                table.add(column: "searchKey", .text).notNull().defaults(to: "")
                table.add(column: "details", .blob).notNull().defaults(to: Data())
            }
            try db.create(table: "progress") { table in
                table.primaryKey("bookID", .text)
                table.column("fraction", .double).notNull()
                table.column("finished", .boolean).notNull()
            }
        }
        try migrator.migrate(queue)
        return LibraryStore(database: queue)
    }

    /// Every cached book, in no particular order (``LibraryIndex`` sorts).
    public func books() throws -> [CachedBook] {
        try database.read { db in try CachedBook.fetchAll(db) }
    }

    /// Every cached book as the list needs it, in no particular order
    /// (``LibraryIndex`` sorts): ``CachedBook/details`` is left empty. Only
    /// the details panel shows those, one book at a time through
    /// ``book(id:)``; for a whole library they would be megabytes held for
    /// nothing (a description alone is often over a kilobyte).
    public func listedBooks() throws -> [CachedBook] {
        try database.read { db in
            let listed = Self.bookColumns.map { $0 == "details" ? "X'' AS details" : $0 }
            return try CachedBook.fetchAll(db, sql: "SELECT id, \(listed.joined(separator: ", ")) FROM book")
        }
    }

    /// One cached book.
    public func book(id: String) throws -> CachedBook? {
        try database.read { db in try CachedBook.fetchOne(db, key: id) }
    }

    /// How many books are cached.
    public func count() throws -> Int {
        try database.read { db in try CachedBook.fetchCount(db) }
    }

    /// Applies one page (and deletions) together with the sync state that
    /// follows it, in one transaction: a crash leaves either both or neither.
    /// - Returns: how many books it added, changed or deleted: a book stored
    ///   again as it was, or an id not in the cache (the server may name
    ///   books deleted long ago), is no change.
    @discardableResult
    public func apply(_ books: [SyncBook], deleting deleted: [String], state: LibrarySyncState) throws -> Int {
        try database.write { db in
            var changed = try Self.store(books, in: db)
            for id in deleted {
                if try CachedBook.deleteOne(db, key: id) { changed += 1 }
            }
            try saveState(state, in: db)
            return changed
        }
    }

    /// The book table's columns after `id`, in the order `store` binds them.
    private static let bookColumns = [
        "title", "authors", "narrators", "series", "duration", "createdAt", "updatedAt", "hasCover", "searchKey", "details",
    ]

    /// Inserts a book, or updates it only where a value differs.
    private static let upsert: String = {
        let excluded = bookColumns.map { "excluded.\($0)" }
        return """
            INSERT INTO book (id, \(bookColumns.joined(separator: ", ")))
            VALUES (?\(String(repeating: ", ?", count: bookColumns.count)))
            ON CONFLICT(id) DO UPDATE SET \(zip(bookColumns, excluded).map { "\($0) = \($1)" }.joined(separator: ", "))
            WHERE (\(bookColumns.joined(separator: ", "))) IS NOT (\(excluded.joined(separator: ", ")))
            """
    }()

    /// Inserts or updates `books` through one prepared statement and one
    /// JSON encoder (a record `save()` per book, an UPDATE then an INSERT
    /// with the row encoded twice, was most of a sync's time). A row that
    /// would be written as it is stays untouched.
    /// - Returns: how many rows were added or changed.
    @discardableResult
    private static func store(_ books: [SyncBook], in db: Database) throws -> Int {
        let statement = try db.cachedStatement(sql: upsert)
        let encoder = JSONEncoder()
        // The same details give the same bytes, so an unchanged row compares equal.
        encoder.outputFormatting = .sortedKeys
        var changed = 0
        for book in books {
            let row = CachedBook(book, encoder: encoder)
            try statement.execute(arguments: [
                row.id, row.title, row.authors, row.narrators, row.series, row.duration,
                row.createdAt, row.updatedAt, row.hasCover, row.searchKey, row.details,
            ])
            changed += db.changesCount
        }
        return changed
    }

    /// Stores books that arrived outside a sync page (live events).
    public func upsert(_ books: [SyncBook]) throws {
        try database.write { db in try Self.store(books, in: db) }
    }

    /// Removes books (live events).
    public func delete(_ ids: [String]) throws {
        try database.write { db in
            for id in ids {
                _ = try CachedBook.deleteOne(db, key: id)
                try db.execute(sql: "DELETE FROM progress WHERE bookID = ?", arguments: [id])
            }
        }
    }

    /// Listening progress per book (0...1), as last reported.
    public func progress() throws -> [String: BookProgress] {
        try database.read { db in
            var result: [String: BookProgress] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT bookID, fraction, finished FROM progress") {
                result[row["bookID"]] = BookProgress(fraction: row["fraction"], finished: row["finished"])
            }
            return result
        }
    }

    /// Records (or, with `nil`, forgets) a book's progress.
    public func setProgress(_ progress: BookProgress?, for bookID: String) throws {
        try database.write { db in
            if let progress {
                try db.execute(sql: "INSERT OR REPLACE INTO progress (bookID, fraction, finished) VALUES (?, ?, ?)",
                               arguments: [bookID, progress.fraction, progress.finished])
            } else {
                try db.execute(sql: "DELETE FROM progress WHERE bookID = ?", arguments: [bookID])
            }
        }
    }

    /// The sync state.
    public func syncState() throws -> LibrarySyncState {
        try database.read { db in
            guard let data = try Data.fetchOne(db, sql: "SELECT json FROM syncState WHERE id = 1") else { return LibrarySyncState() }
            return (try? JSONDecoder().decode(LibrarySyncState.self, from: data)) ?? LibrarySyncState()
        }
    }

    private func saveState(_ state: LibrarySyncState, in db: Database) throws {
        try db.execute(sql: "INSERT OR REPLACE INTO syncState (id, json) VALUES (1, ?)", arguments: [try JSONEncoder().encode(state)])
    }
}
