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

    public init(id: String, title: String, authors: String, narrators: String, series: String, duration: Int64,
                createdAt: Date, updatedAt: Date) {
        self.id = id
        self.title = title
        self.authors = authors
        self.narrators = narrators
        self.series = series
        self.duration = duration
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }

    public init(_ book: SyncBook) {
        func names(_ role: String) -> String { book.names(withRole: role).joined(separator: ", ") }
        let series = (book.seriesInfo ?? []).map { info in info.sequence.map { "\(info.name) #\($0)" } ?? info.name }
        self.init(id: book.id, title: book.title, authors: names("author").isEmpty ? (book.author ?? "") : names("author"),
                  narrators: names("narrator").isEmpty ? (book.narrator ?? "") : names("narrator"),
                  series: series.joined(separator: ", "), duration: book.totalDuration,
                  createdAt: book.createdAt, updatedAt: book.updatedAt)
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
        try migrator.migrate(queue)
        return LibraryStore(database: queue)
    }

    /// Every cached book, by title.
    public func books() throws -> [CachedBook] {
        try database.read { db in try CachedBook.order(Column("title").collating(.localizedCaseInsensitiveCompare)).fetchAll(db) }
    }

    /// How many books are cached.
    public func count() throws -> Int {
        try database.read { db in try CachedBook.fetchCount(db) }
    }

    /// Applies one page (and deletions) together with the sync state that
    /// follows it, in one transaction: a crash leaves either both or neither.
    public func apply(_ books: [SyncBook], deleting deleted: [String], state: LibrarySyncState) throws {
        try database.write { db in
            for book in books { try CachedBook(book).save(db) }
            for id in deleted { _ = try CachedBook.deleteOne(db, key: id) }
            try saveState(state, in: db)
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
