import Foundation
import GRDB
import ListenUpCore

/// Shelves in the library cache: the user's shelves (`shelf`) and each
/// book on them as its own row (`shelfBook`), keyed by the row's opaque id
/// as kRPC's `shelf_books` domain keys it (a tombstone names the id only;
/// a book put back brings the same id back, contract addendum §2.1), and
/// others' shelves as last discovered (JSON beside the sync states). A
/// shelf's books are joined with the cached books when read, so a book the
/// cache does not have (yet) is not shown.
extension SQLiteLibraryStore {
    /// The shelf tables (migration `v7-shelves`).
    static func registerShelvesMigration(_ migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v7-shelves") { db in
            try db.create(table: "shelf") { table in
                table.primaryKey("id", .text)
                table.column("name", .text).notNull()
                table.column("description", .text).notNull()
                // NULL: the server has no private flag (REST v1).
                table.column("isPrivate", .boolean)
                table.column("updatedAt", .datetime).notNull()
            }
            try db.create(table: "shelfBook") { table in
                table.primaryKey("id", .text)
                table.column("shelfID", .text).notNull()
                table.column("bookID", .text).notNull()
                table.column("sortOrder", .integer).notNull()
                table.column("updatedAt", .datetime).notNull()
            }
            try db.create(index: "shelfBook_shelfID", on: "shelfBook", columns: ["shelfID"])
        }
    }

    /// Applies a page of `shelves` or `shelf_books`, or REST v1's whole list.
    static func applyShelves(_ rows: BrowseRows, in db: Database) throws -> Int {
        var changed = 0
        switch rows {
        case .shelves(let page):
            for shelf in page.entities { changed += try upsert(shelf, in: db) }
            for id in page.deletedIDs {
                try db.execute(sql: "DELETE FROM shelf WHERE id = ?", arguments: [id])
                changed += db.changesCount
                try db.execute(sql: "DELETE FROM shelfBook WHERE shelfID = ?", arguments: [id])
            }
        case .shelfBooks(let page):
            for row in page.entities { changed += try upsert(row, in: db) }
            for id in page.deletedIDs {
                try db.execute(sql: "DELETE FROM shelfBook WHERE id = ?", arguments: [id])
                changed += db.changesCount
            }
        case .allShelves(let all):
            let kept = Set(all.map(\.id))
            for id in try String.fetchAll(db, sql: "SELECT id FROM shelf") where !kept.contains(id) {
                try db.execute(sql: "DELETE FROM shelf WHERE id = ?", arguments: [id])
                changed += 1
            }
            try db.execute(sql: "DELETE FROM shelfBook WHERE shelfID NOT IN (SELECT id FROM shelf)")
            for shelf in all {
                var rowChanged = try upsert(shelf, in: db) > 0
                let books = try String.fetchAll(db, sql: "SELECT bookID FROM shelfBook WHERE shelfID = ? ORDER BY sortOrder, id",
                                                arguments: [shelf.id])
                if books != shelf.bookIDs {
                    rowChanged = true
                    try db.execute(sql: "DELETE FROM shelfBook WHERE shelfID = ?", arguments: [shelf.id])
                    for (order, book) in shelf.bookIDs.enumerated() {
                        _ = try upsert(ShelfBook(id: ShelfBook.snapshotID(shelfID: shelf.id, bookID: book), shelfID: shelf.id,
                                                 bookID: book, sortOrder: order, updatedAt: shelf.updatedAt), in: db)
                    }
                }
                if rowChanged { changed += 1 }
            }
        default:
            break
        }
        return changed
    }

    private static func upsert(_ shelf: Shelf, in db: Database) throws -> Int {
        try db.cachedStatement(sql: """
            INSERT INTO shelf (id, name, description, isPrivate, updatedAt) VALUES (?, ?, ?, ?, ?)
            ON CONFLICT(id) DO UPDATE SET name = excluded.name, description = excluded.description,
                isPrivate = excluded.isPrivate, updatedAt = excluded.updatedAt
            WHERE (name, description, isPrivate, updatedAt) IS NOT (excluded.name, excluded.description, excluded.isPrivate, excluded.updatedAt)
            """).execute(arguments: [shelf.id, shelf.name, shelf.description, shelf.isPrivate, shelf.updatedAt])
        return db.changesCount
    }

    private static func upsert(_ row: ShelfBook, in db: Database) throws -> Int {
        try db.cachedStatement(sql: """
            INSERT INTO shelfBook (id, shelfID, bookID, sortOrder, updatedAt) VALUES (?, ?, ?, ?, ?)
            ON CONFLICT(id) DO UPDATE SET shelfID = excluded.shelfID, bookID = excluded.bookID, sortOrder = excluded.sortOrder,
                updatedAt = excluded.updatedAt
            WHERE (shelfID, bookID, sortOrder, updatedAt) IS NOT (excluded.shelfID, excluded.bookID, excluded.sortOrder, excluded.updatedAt)
            """).execute(arguments: [row.id, row.shelfID, row.bookID, row.sortOrder, row.updatedAt])
        return db.changesCount
    }

    public func shelves() throws -> [Shelf] {
        try read { db in try Self.shelves(in: db) }
    }

    /// The user's shelves with their cached books in the shelf's order.
    private static func shelves(in db: Database) throws -> [Shelf] {
        var books: [String: [String]] = [:]
        for row in try Row.fetchAll(db, sql: """
            SELECT s.shelfID AS shelfID, s.bookID AS bookID FROM shelfBook s JOIN book b ON b.id = s.bookID
            ORDER BY s.shelfID, s.sortOrder, s.id
            """) {
            books[row["shelfID"], default: []].append(row["bookID"])
        }
        return try Row.fetchAll(db, sql: "SELECT id, name, description, isPrivate, updatedAt FROM shelf").map { row in
            Shelf(id: row["id"], name: row["name"], description: row["description"], isPrivate: row["isPrivate"],
                  bookIDs: books[row["id"]] ?? [], updatedAt: row["updatedAt"])
        }
    }

    public func discoveredShelves() throws -> [Shelf] {
        try read { db in try Self.discoveredShelves(in: db) }
    }

    /// Others' shelves as last discovered, with the books the cache has.
    private static func discoveredShelves(in db: Database) throws -> [Shelf] {
        guard let data = try Data.fetchOne(db, sql: "SELECT json FROM browseSyncState WHERE domain = 'discoveredShelves'"),
              let kept = try? JSONDecoder().decode([Shelf].self, from: data) else { return [] }
        let cached = Set(try String.fetchAll(db, sql: "SELECT id FROM book"))
        return kept.map { shelf in
            var shelf = shelf
            shelf.bookIDs = shelf.bookIDs.filter(cached.contains)
            return shelf
        }
    }

    public func saveDiscoveredShelves(_ shelves: [Shelf]) throws {
        let data = try JSONEncoder().encode(shelves)
        try write { db in
            try db.execute(sql: "INSERT OR REPLACE INTO browseSyncState (domain, json) VALUES ('discoveredShelves', ?)", arguments: [data])
        }
    }

    /// The user's shelves as a browse list (``BrowseKind/shelves``).
    static func shelfItems(in db: Database) throws -> [BrowseItem] {
        let added = try Row.fetchAll(db, sql: """
            SELECT s.shelfID AS id, MAX(b.createdAt) AS newest FROM shelfBook s JOIN book b ON b.id = s.bookID GROUP BY s.shelfID
            """).reduce(into: [String: Date]()) { result, row in
                let id: String = row["id"]
                result[id] = row["newest"] as Date?
            }
        return try shelves(in: db).map { shelf in
            BrowseItem(id: shelf.id, name: shelf.name, bookCount: shelf.bookIDs.count, newestBookAdded: added[shelf.id])
        }
    }

    /// A shelf's page (``BrowsePageKind/shelf``): one of the user's, else a discovered one.
    static func shelfPage(id: String, in db: Database) throws -> BrowsePageContents? {
        guard let shelf = try shelves(in: db).first(where: { $0.id == id }) ?? discoveredShelves(in: db).first(where: { $0.id == id })
        else { return nil }
        let marks = Array(repeating: "?", count: shelf.bookIDs.count).joined(separator: ", ")
        let titles = shelf.bookIDs.isEmpty ? [:] : try Row.fetchAll(db, sql: "SELECT id, title FROM book WHERE id IN (\(marks))",
                                                                     arguments: StatementArguments(shelf.bookIDs))
            .reduce(into: [String: String]()) { result, row in
                let id: String = row["id"]
                result[id] = row["title"] as String?
            }
        return BrowsePageContents(shelf: shelf, titles: titles)
    }
}
