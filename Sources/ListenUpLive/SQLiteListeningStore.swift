import Foundation
import GRDB
import ListenUpCore
import Logging

/// The app's ``ListeningStore``: SQLite (GRDB), one file per server and user
/// under `$XDG_STATE_HOME/listenup/` (state, not cache: queued listening
/// must outlive a cleared cache).
///
/// A span is committed before ``enqueue(_:)`` returns, in WAL mode with
/// `synchronous=FULL`: a process killed right after (`kill -9`) finds it on
/// the next start. (`NORMAL` would survive a killed process too, since the
/// WAL is written before the commit returns, but not a power cut; spans are
/// small and written once a minute, so the fsync costs nothing noticeable.)
public final class SQLiteListeningStore: ListeningStore {
    /// Marks our databases (`PRAGMA application_id`, "LUls").
    static let applicationID: Int32 = 0x4C55_6C73
    private let database: DatabaseQueue

    private init(database: DatabaseQueue) {
        self.database = database
    }

    /// The file for `user` on `server` under `stateDirectory`.
    public static func url(in stateDirectory: URL, server: URL, userID: String) -> URL {
        let library = SQLiteLibraryStore.url(in: stateDirectory, server: server, userID: userID)
        return stateDirectory.appendingPathComponent(library.lastPathComponent.replacingOccurrences(of: "library-", with: "listening-"))
    }

    /// Opens (or creates) the store at `url`. A damaged or foreign file is
    /// set aside (`.corrupt`, kept: it may hold listening not yet sent) and
    /// a fresh one made; if even that fails, the store lives in memory for
    /// this run, with a warning.
    public static func open(at url: URL, logger: Logger) -> any ListeningStore {
        SQLiteFile.open(url, what: "Listening store", logger: logger, open: { try openFile($0) as any ListeningStore },
                        fallback: { InMemoryListeningStore() })
    }

    private static func openFile(_ url: URL) throws -> SQLiteListeningStore {
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        var configuration = Configuration()
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA journal_mode = WAL")
            try db.execute(sql: "PRAGMA synchronous = FULL")
        }
        configuration.busyMode = .timeout(5)
        let queue = try DatabaseQueue(path: url.path, configuration: configuration)
        try queue.write { db in
            let id = try Int32.fetchOne(db, sql: "PRAGMA application_id") ?? 0
            let tables = try Int.fetchOne(db, sql: "SELECT count(*) FROM sqlite_master") ?? 0
            if id != applicationID {
                guard tables == 0 else { throw DatabaseError(resultCode: .SQLITE_NOTADB, message: "not a ListenUp listening store") }
                try db.execute(sql: "PRAGMA application_id = \(applicationID)")
            }
        }
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.create(table: "span") { table in
                table.autoIncrementedPrimaryKey("sequence")
                table.column("id", .text).notNull().unique()
                table.column("json", .blob).notNull()
            }
            try db.create(table: "position") { table in
                table.primaryKey("bookID", .text)
                table.column("json", .blob).notNull()
            }
            try db.create(table: "continueListening") { table in
                table.primaryKey("id", .integer)
                table.column("json", .blob).notNull()
            }
        }
        try migrator.migrate(queue)
        return SQLiteListeningStore(database: queue)
    }

    private static let encoder = JSONEncoder()
    private static let decoder = JSONDecoder()

    public func enqueue(_ span: ListeningSpan) throws {
        let json = try Self.encoder.encode(span)
        try database.write { db in
            try db.execute(sql: "INSERT OR IGNORE INTO span (id, json) VALUES (?, ?)", arguments: [span.id, json])
        }
    }

    public func pendingSpans(limit: Int) throws -> [ListeningSpan] {
        try database.read { db in
            try Data.fetchAll(db, sql: "SELECT json FROM span ORDER BY sequence LIMIT ?", arguments: [limit])
        }.compactMap { try? Self.decoder.decode(ListeningSpan.self, from: $0) }
    }

    public func removeSpans(_ ids: [String]) throws {
        guard !ids.isEmpty else { return }
        try database.write { db in
            for id in ids { try db.execute(sql: "DELETE FROM span WHERE id = ?", arguments: [id]) }
        }
    }

    public func savePosition(_ position: ListeningPosition) throws {
        let json = try Self.encoder.encode(position)
        try database.write { db in
            try db.execute(sql: "INSERT OR REPLACE INTO position (bookID, json) VALUES (?, ?)", arguments: [position.bookID, json])
        }
    }

    public func position(bookID: String) throws -> ListeningPosition? {
        try database.read { db in
            try Data.fetchOne(db, sql: "SELECT json FROM position WHERE bookID = ?", arguments: [bookID])
        }.flatMap { try? Self.decoder.decode(ListeningPosition.self, from: $0) }
    }

    public func continueListening() throws -> [ContinueListeningItem] {
        try database.read { db in
            try Data.fetchOne(db, sql: "SELECT json FROM continueListening WHERE id = 1")
        }.flatMap { try? Self.decoder.decode([ContinueListeningItem].self, from: $0) } ?? []
    }

    public func saveContinueListening(_ items: [ContinueListeningItem]) throws {
        let json = try Self.encoder.encode(items)
        try database.write { db in
            try db.execute(sql: "INSERT OR REPLACE INTO continueListening (id, json) VALUES (1, ?)", arguments: [json])
        }
    }
}

extension Dependencies {
    /// This installation's id: a UUID made once and kept in `file`
    /// (`$XDG_DATA_HOME/listenup/device-id`); made again only when the file
    /// is missing or unreadable.
    static func installationID(in file: URL, logger: Logger) -> String {
        if let text = try? String(contentsOf: file, encoding: .utf8) {
            let id = text.trimmingCharacters(in: .whitespacesAndNewlines)
            if UUID(uuidString: id) != nil { return id }
        }
        let id = UUID().uuidString.lowercased()
        do {
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data((id + "\n").utf8).write(to: file, options: .atomic)
        } catch {
            logger.warning("Cannot keep this installation's id; listening is reported under a new one each run",
                           metadata: ["reason": "\(error)"])
        }
        return id
    }
}
