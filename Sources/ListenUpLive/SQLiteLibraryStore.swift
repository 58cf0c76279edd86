import Foundation
import GRDB
import ListenUpAPI
import ListenUpCore
import Logging

extension CachedBook: FetchableRecord, PersistableRecord {
    public static let databaseTableName = "book"

    /// Reads a row column by column, which is quicker than GRDB's Codable
    /// path (a cold start waits for the read of every book; see
    /// docs/performance.md). A value of the wrong type throws, as with
    /// Codable.
    public init(row: Row) throws {
        try self.init(id: row.decode(forColumn: "id"), title: row.decode(forColumn: "title"),
                      authors: row.decode(forColumn: "authors"), narrators: row.decode(forColumn: "narrators"),
                      series: row.decode(forColumn: "series"), duration: row.decode(forColumn: "duration"),
                      createdAt: row.decode(forColumn: "createdAt"), updatedAt: row.decode(forColumn: "updatedAt"),
                      hasCover: row.decode(forColumn: "hasCover"), storedSearchKey: row.decode(forColumn: "searchKey"),
                      storedDetails: row.decode(forColumn: "details"), revision: row["revision"])
    }

    /// A row of ``SQLiteLibraryStore/listedColumns``, read by position: at
    /// 50,000 books, looking each column up by name (GRDB lowercases the
    /// name and hashes it, for every column of every row) took a tenth of
    /// the cold start's read.
    init(listedRow row: Row) throws {
        try self.init(id: row.decode(atIndex: 0), title: row.decode(atIndex: 1), authors: row.decode(atIndex: 2),
                      narrators: row.decode(atIndex: 3), series: row.decode(atIndex: 4), duration: row.decode(atIndex: 5),
                      createdAt: row.decode(atIndex: 6), updatedAt: row.decode(atIndex: 7), hasCover: row.decode(atIndex: 8),
                      storedSearchKey: row.decode(atIndex: 9), storedDetails: Data())
    }
}

/// The app's ``LibraryStore``: SQLite (GRDB), one file per server and user under
/// `$XDG_CACHE_HOME/listenup/`. A file that is not ours or not a database
/// is moved aside (`.corrupt`) and rebuilt; the app never fails on it.
public final class SQLiteLibraryStore: LibraryStore {
    /// Marks our databases (`PRAGMA application_id`, "LUlb").
    static let applicationID: Int32 = 0x4C55_6C62
    private let database: DatabaseQueue

    private init(database: DatabaseQueue) {
        self.database = database
    }

    /// The cache file for `user` on `server` under `cacheDirectory`.
    public static func url(in cacheDirectory: URL, server: URL, userID: String) -> URL {
        let key = "\(server.absoluteString)|\(userID)".unicodeScalars.map { CharacterSet.alphanumerics.contains($0) ? String($0) : "_" }.joined()
        return cacheDirectory.appendingPathComponent("library-\(key).sqlite")
    }

    /// A store in memory (tests, or when no file can be made).
    public static func inMemory() -> SQLiteLibraryStore {
        // An in-memory queue only fails if SQLite itself is unusable.
        guard let queue = try? DatabaseQueue(), let store = try? prepare(queue) else {
            preconditionFailure("SQLite cannot open an in-memory database")
        }
        return store
    }

    /// Opens (or creates) the store at `url`. A damaged or foreign file is
    /// set aside and a fresh store made; if even that fails, the store lives
    /// in memory for this run.
    public static func open(at url: URL, logger: Logger) -> SQLiteLibraryStore {
        SQLiteFile.open(url, what: "Library cache", logger: logger, open: openFile, fallback: inMemory)
    }

    private static func openFile(_ url: URL) throws -> SQLiteLibraryStore {
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        let queue = try DatabaseQueue(path: url.path)
        let store = try prepare(queue)
        // A cache, written a page (and its sync state) per transaction: in
        // WAL mode with `synchronous=NORMAL` a commit does not wait for the
        // disk. In the default rollback journal each of a first sync's
        // hundred-odd pages waited on several fsyncs (20–60 ms a page on
        // this machine, more than decoding it). A power cut may lose the
        // last pages written, never their consistency with the sync state,
        // and the next sync fetches them again. Set once the file is known
        // to be ours (`prepare`): WAL stays with the file.
        try queue.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA journal_mode = WAL")
            try db.execute(sql: "PRAGMA synchronous = NORMAL")
        }
        return store
    }

    /// Checks the file is ours (or empty) and brings the schema up to date.
    private static func prepare(_ queue: DatabaseQueue) throws -> SQLiteLibraryStore {
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
        migrator.registerMigration("v3") { db in
            // Books cached before the player lack their audio files
            // (`BookDetails.audioFiles`): a delta would not bring them, so
            // the next sync is a full one. The books stay shown meanwhile.
            try db.execute(sql: "DELETE FROM syncState")
        }
        migrator.registerMigration("v4") { db in
            // Each book's server revision (kRPC), for the digest's hash. The
            // rows cached before lack it: the next sync is a full one, which
            // gives it to every book. The books stay shown meanwhile.
            try db.alter(table: "book") { table in table.add(column: "revision", .integer) }
            try db.execute(sql: "DELETE FROM syncState")
        }
        registerBrowseMigration(&migrator)
        registerFacetsMigration(&migrator)
        registerShelvesMigration(&migrator)
        registerSocialMigration(&migrator)
        registerFirstScreenMigration(&migrator)
        try migrator.migrate(queue)
        return SQLiteLibraryStore(database: queue)
    }

    /// Reads the database (the browse extension's way in).
    func read<T>(_ body: (Database) throws -> T) throws -> T {
        try database.read(body)
    }

    /// Writes the database in one transaction.
    func write<T>(_ body: (Database) throws -> T) throws -> T {
        try database.write(body)
    }

    /// Every cached book, in no particular order (``LibraryIndex`` sorts).
    public func books() throws -> [CachedBook] {
        try database.read { db in try CachedBook.fetchAll(db) }
    }

    /// Every cached book as the list needs it, in no particular order
    /// (``LibraryIndex`` sorts): ``CachedBook/details`` is left empty and
    /// ``CachedBook/revision`` nil. Only the details panel shows the details,
    /// one book at a time through ``book(id:)``; for a whole library they
    /// would be megabytes held for nothing (a description alone is often
    /// over a kilobyte). The revisions are read by ``bookRevisions()``.
    public func listedBooks() throws -> [CachedBook] {
        try database.read { db in try Self.listed(db, where: "") }
    }

    /// What the list reads of a book: the columns stored before `details`.
    /// A row's details (kilobytes: chapters, description) overflow its
    /// page, and SQLite reaches a column stored after them (`revision`,
    /// `links`, added by migrations) only by reading every overflow page of
    /// the row: at 50,000 books that was the whole 390 MB file, copied
    /// through `pread` at each cold start (docs/performance.md).
    static let listedColumns = "id, title, authors, narrators, series, duration, createdAt, updatedAt, hasCover, searchKey"

    static func listed(_ db: Database, where condition: String,
                               arguments: StatementArguments = StatementArguments()) throws -> [CachedBook] {
        var books: [CachedBook] = []
        let rows = try Row.fetchCursor(db, sql: "SELECT \(listedColumns) FROM book\(condition)", arguments: arguments)
        while let row = try rows.next() {
            books.append(try CachedBook(listedRow: row))
        }
        return books
    }

    /// The cached books among `ids` as the list needs them (no details),
    /// looked up by key: what a live change reads.
    public func listedBooks(ids: Set<String>) throws -> [CachedBook] {
        guard !ids.isEmpty else { return [] }
        return try database.read { db in
            var books: [CachedBook] = []
            // SQLite takes at most 32766 variables; a live change names a few ids.
            let ids = Array(ids)
            for start in stride(from: 0, to: ids.count, by: 500) {
                let chunk = Array(ids[start..<min(start + 500, ids.count)])
                let marks = Array(repeating: "?", count: chunk.count).joined(separator: ", ")
                books += try Self.listed(db, where: " WHERE id IN (\(marks))", arguments: StatementArguments(chunk))
            }
            return books
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

    /// The server revision of each cached book that has one, by id.
    public func bookRevisions() throws -> [String: Int64] {
        try database.read { db in
            var revisions: [String: Int64] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT id, revision FROM book WHERE revision IS NOT NULL") {
                revisions[row["id"]] = row["revision"]
            }
            return revisions
        }
    }

    /// Applies one page (and deletions) together with the sync state that
    /// follows it, in one transaction: a crash leaves either both or neither.
    /// - Returns: how many books it added, changed or deleted: a book stored
    ///   again as it was, or an id not in the cache (the server may name
    ///   books deleted long ago), is no change.
    @discardableResult
    public func apply(_ books: [ServerBook], deleting deleted: [String], state: LibrarySyncState) throws -> Int {
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
        "title", "authors", "narrators", "series", "duration", "createdAt", "updatedAt", "hasCover", "searchKey", "details", "revision",
        "links",
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

    /// Inserts or updates `books` through one prepared statement, each row
    /// encoded once (a sync stores thousands). A row that would be written
    /// as it is stays untouched; a row written gets its links written anew
    /// (the `links` column holds their ``BookLinks/key``, so a change to
    /// them alone, a genre, is a change of the row too).
    /// - Returns: how many rows were added or changed.
    @discardableResult
    private static func store(_ books: [ServerBook], in db: Database) throws -> Int {
        let statement = try db.cachedStatement(sql: upsert)
        var changed = 0
        var written: [(id: String, links: BookLinks)] = []
        written.reserveCapacity(books.count)
        for book in books {
            // Details as sorted-key JSON: the same details give the same
            // bytes, so an unchanged row compares equal.
            let row = CachedBook(sortingKeys: book)
            let links = BookLinks(book)
            try statement.execute(arguments: [
                row.id, row.title, row.authors, row.narrators, row.series, row.duration,
                row.createdAt, row.updatedAt, row.hasCover, row.searchKey, row.details, row.revision, links.key,
            ])
            guard db.changesCount > 0 else { continue }
            changed += 1
            written.append((book.id, links))
        }
        try storeLinks(written, in: db)
        return changed
    }

    /// Stores books that arrived outside a sync page (live events).
    public func upsert(_ books: [ServerBook]) throws {
        try database.write { db in _ = try Self.store(books, in: db) }
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
