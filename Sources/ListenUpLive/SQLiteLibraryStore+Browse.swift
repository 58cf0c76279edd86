import Foundation
import GRDB
import ListenUpAPI
import ListenUpCore

/// Browsing in the library cache: each book's links (people and their
/// roles, series and places, genres) in tables of their own, written with
/// the book and deleted with it (`ON DELETE CASCADE`), and the contributors
/// and series the server describes. Lists and pages are SQL over them, so
/// reading one costs nothing until it is shown.
extension SQLiteLibraryStore {
    /// The browse tables (migration `v5`). The books cached before them
    /// have no links: their `links` key is empty, so the full sync after
    /// the upgrade finds each such row changed and writes its links.
    static func registerBrowseMigration(_ migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v5") { db in
            try db.alter(table: "book") { table in table.add(column: "links", .text).notNull().defaults(to: "") }
            for (name, idColumn, extra) in [("bookPerson", "personID", ["role"]), ("bookSeries", "seriesID", ["sequence"]),
                                            ("bookGenre", "genreID", ["path"])] {
                try db.create(table: name) { table in
                    table.column("bookID", .text).notNull().references("book", onDelete: .cascade)
                    table.column(idColumn, .text).notNull()
                    table.column("name", .text).notNull()
                    for column in extra { table.column(column, .text) }
                    table.column("position", .integer).notNull()
                }
                try db.create(index: "\(name)_\(idColumn)", on: name, columns: [idColumn])
                try db.create(index: "\(name)_bookID", on: name, columns: ["bookID"])
            }
            for name in ["contributor", "series"] {
                try db.create(table: name) { table in
                    table.primaryKey("id", .text)
                    table.column("name", .text).notNull()
                    table.column("sortName", .text)
                    table.column("description", .text)
                    table.column("imagePath", .text)
                    table.column("updatedAt", .datetime).notNull()
                }
            }
            try db.create(table: "browseSyncState") { table in
                table.primaryKey("domain", .text)
                table.column("json", .blob).notNull()
            }
            try db.execute(sql: "DELETE FROM syncState")
        }
    }

    /// Replaces the links of the books just written: their old links
    /// deleted a few hundred books at a time, then the new ones inserted
    /// through prepared statements (a sync writes thousands).
    static func storeLinks(_ books: [(id: String, links: BookLinks)], in db: Database) throws {
        for start in stride(from: 0, to: books.count, by: 500) {
            let ids = books[start..<min(start + 500, books.count)].map(\.id)
            let marks = Array(repeating: "?", count: ids.count).joined(separator: ", ")
            for table in ["bookPerson", "bookSeries", "bookGenre", "bookTag"] {
                try db.execute(sql: "DELETE FROM \(table) WHERE bookID IN (\(marks))", arguments: StatementArguments(ids))
            }
        }
        let person = try db.cachedStatement(sql: "INSERT INTO bookPerson (bookID, personID, name, role, position) VALUES (?, ?, ?, ?, ?)")
        let series = try db.cachedStatement(sql: "INSERT INTO bookSeries (bookID, seriesID, name, sequence, position) VALUES (?, ?, ?, ?, ?)")
        let genre = try db.cachedStatement(sql: "INSERT INTO bookGenre (bookID, genreID, name, path, position) VALUES (?, ?, ?, ?, ?)")
        let tag = try db.cachedStatement(sql: "INSERT INTO bookTag (bookID, tagID, name, position) VALUES (?, ?, ?, ?)")
        for (bookID, links) in books {
            for (position, link) in links.people.enumerated() {
                try person.execute(arguments: [bookID, link.id, link.name, link.role, position])
            }
            for (position, link) in links.series.enumerated() {
                try series.execute(arguments: [bookID, link.id, link.name, link.sequence, position])
            }
            for (position, link) in links.genres.enumerated() {
                try genre.execute(arguments: [bookID, link.id, link.name, link.path, position])
            }
            for (position, link) in links.tags.enumerated() {
                try tag.execute(arguments: [bookID, link.id, link.name, position])
            }
        }
    }
}

extension SQLiteLibraryStore {
    public func browseItems(_ kind: BrowseKind) throws -> [BrowseItem] {
        try read { db in
            if kind == .shelves { return try Self.shelfItems(in: db) }
            let tree = kind == .genres ? try Self.hasGenreTree(db) : false
            let sql: String
            var arguments = StatementArguments()
            switch kind {
            case .series:
                sql = """
                    SELECT l.seriesID AS id, COALESCE(e.name, MAX(l.name)) AS name, e.sortName AS sortName,
                           COUNT(DISTINCT l.bookID) AS count, MAX(b.createdAt) AS newest
                    FROM bookSeries l JOIN book b ON b.id = l.bookID LEFT JOIN series e ON e.id = l.seriesID
                    GROUP BY l.seriesID
                    """
            case .authors, .narrators:
                sql = """
                    SELECT l.personID AS id, COALESCE(e.name, MAX(l.name)) AS name, e.sortName AS sortName,
                           COUNT(DISTINCT l.bookID) AS count, MAX(b.createdAt) AS newest
                    FROM bookPerson l JOIN book b ON b.id = l.bookID LEFT JOIN contributor e ON e.id = l.personID
                    WHERE l.role = ? GROUP BY l.personID
                    """
                arguments = [kind.role]
            case .genres:
                // With the server's tree, the genres books name that it does not have.
                sql = """
                    SELECT l.genreID AS id, MAX(l.name) AS name, MAX(l.path) AS sortName,
                           COUNT(DISTINCT l.bookID) AS count, MAX(b.createdAt) AS newest
                    FROM bookGenre l JOIN book b ON b.id = l.bookID
                    \(tree ? "WHERE l.genreID NOT IN (SELECT id FROM genre)" : "") GROUP BY l.genreID
                    """
            case .tags, .moods, .collections:
                return try Self.facetItems(kind, in: db)
            case .shelves:
                return []
            }
            let items = try Row.fetchAll(db, sql: sql, arguments: arguments).map { row in
                BrowseItem(id: row["id"], name: row["name"], sortName: kind == .genres ? nil : row["sortName"],
                           bookCount: row["count"], newestBookAdded: row["newest"])
            }
            return tree ? try Self.genreTreeItems(in: db) + items : items
        }
    }

    public func browsePage(_ kind: BrowsePageKind, id: String) throws -> BrowsePageContents? {
        try read { db in
            switch kind {
            case .series:
                let entries = try Row.fetchAll(db, sql: """
                    SELECT b.id AS id, b.title AS title, MIN(l.sequence) AS sequence, MAX(l.name) AS name
                    FROM bookSeries l JOIN book b ON b.id = l.bookID WHERE l.seriesID = ? GROUP BY b.id
                    """, arguments: [id])
                let entity = try Row.fetchOne(db, sql: "SELECT name, description, imagePath FROM series WHERE id = ?", arguments: [id])
                guard let name: String = entity?["name"] ?? entries.first?["name"] else { return nil }
                return BrowsePageContents(
                    kind: .series, id: id, name: name, description: (entity?["description"] as String?).map { PlainText.fromHTML($0) },
                    imagePath: entity?["imagePath"],
                    entries: entries.map { BrowsePageEntry(bookID: $0["id"], title: $0["title"], sequence: $0["sequence"]) })
            case .contributor:
                let entries = try Row.fetchAll(db, sql: """
                    SELECT b.id AS id, b.title AS title, group_concat(l.role, char(10)) AS roles, MAX(l.name) AS name
                    FROM bookPerson l JOIN book b ON b.id = l.bookID WHERE l.personID = ? GROUP BY b.id
                    """, arguments: [id])
                let entity = try Row.fetchOne(db, sql: "SELECT name, description, imagePath FROM contributor WHERE id = ?", arguments: [id])
                guard let name: String = entity?["name"] ?? entries.first?["name"] else { return nil }
                return BrowsePageContents(
                    kind: .contributor, id: id, name: name,
                    description: (entity?["description"] as String?).map { PlainText.fromHTML($0) }, imagePath: entity?["imagePath"],
                    entries: entries.map { row in
                        let roles = (row["roles"] as String? ?? "").split(separator: "\n").map(String.init)
                        return BrowsePageEntry(bookID: row["id"], title: row["title"], roles: Array(Set(roles)).sorted())
                    })
            case .tag, .mood, .collection:
                return try Self.facetPage(kind, id: id, in: db)
            case .genre:
                if let page = try Self.genreTreePage(id: id, in: db) { return page }
                guard let genre = try Row.fetchOne(db, sql: "SELECT name, path FROM bookGenre WHERE genreID = ? LIMIT 1", arguments: [id])
                else { return nil }
                let path: String? = genre["path"]
                // A genre's page holds its books and those of the genres under it.
                let entries = try Row.fetchAll(db, sql: """
                    SELECT DISTINCT b.id AS id, b.title AS title FROM bookGenre l JOIN book b ON b.id = l.bookID
                    WHERE l.genreID = ? OR (? IS NOT NULL AND substr(l.path, 1, length(?) + 1) = ? || '/')
                    """, arguments: [id, path, path, path])
                var parents: [BrowseItem] = []
                if let path {
                    let slugs = path.split(separator: "/")
                    for depth in slugs.indices.dropLast() {
                        let prefix = slugs[...depth].joined(separator: "/")
                        if let parent = try Row.fetchOne(db, sql: """
                            SELECT genreID AS id, name, COUNT(DISTINCT bookID) AS count FROM bookGenre WHERE path = ? GROUP BY genreID
                            """, arguments: [prefix]) {
                            parents.append(BrowseItem(id: parent["id"], name: parent["name"], bookCount: parent["count"]))
                        }
                    }
                }
                return BrowsePageContents(kind: .genre, id: id, name: genre["name"],
                                          entries: entries.map { BrowsePageEntry(bookID: $0["id"], title: $0["title"]) },
                                          parents: parents)
            case .shelf:
                return try Self.shelfPage(id: id, in: db)
            }
        }
    }

    @discardableResult
    public func apply(_ rows: BrowseRows, state: LibrarySyncState) throws -> Int {
        try write { db in
            var changed = 0
            let domain: BrowseDomain
            switch rows {
            case .contributors(let page):
                domain = .contributors
                for entity in page.entities {
                    changed += try Self.upsertEntity("contributor", id: entity.id, name: entity.name, sortName: entity.sortName,
                                                     description: entity.description, imagePath: entity.imagePath,
                                                     updatedAt: entity.updatedAt, in: db)
                }
                changed += try Self.deleteEntities("contributor", page.deletedIDs, in: db)
            case .series(let page):
                domain = .series
                for entity in page.entities {
                    changed += try Self.upsertEntity("series", id: entity.id, name: entity.name, sortName: entity.sortName,
                                                     description: entity.description, imagePath: entity.coverPath,
                                                     updatedAt: entity.updatedAt, in: db)
                }
                changed += try Self.deleteEntities("series", page.deletedIDs, in: db)
            case .shelves, .allShelves:
                domain = .shelves
                changed += try Self.applyShelves(rows, in: db)
            case .shelfBooks:
                domain = .shelfBooks
                changed += try Self.applyShelves(rows, in: db)
            case .publicProfiles, .activities:
                domain = rows.domain
                changed += try Self.applySocial(rows, in: db)
            default:
                domain = rows.domain
                changed += try Self.applyFacets(rows, in: db)
            }
            try db.execute(sql: "INSERT OR REPLACE INTO browseSyncState (domain, json) VALUES (?, ?)",
                           arguments: [domain.rawValue, try JSONEncoder().encode(state)])
            return changed
        }
    }

    /// The stats are kept as JSON beside the browse domains' sync states.
    public func listeningStats() throws -> ListeningStats? {
        try read { db in
            guard let data = try Data.fetchOne(db, sql: "SELECT json FROM browseSyncState WHERE domain = 'listeningStats'") else { return nil }
            return try? JSONDecoder().decode(ListeningStats.self, from: data)
        }
    }

    public func saveListeningStats(_ stats: ListeningStats) throws {
        let data = try JSONEncoder().encode(stats)
        try write { db in
            try db.execute(sql: "INSERT OR REPLACE INTO browseSyncState (domain, json) VALUES ('listeningStats', ?)", arguments: [data])
        }
    }

    public func links(ofBook id: String) throws -> BookLinks {
        try read { db in
            var links = BookLinks(
                people: try Row.fetchAll(db, sql: "SELECT personID, name, role FROM bookPerson WHERE bookID = ? ORDER BY position",
                                         arguments: [id]).map { BookLinks.Person(id: $0["personID"], name: $0["name"], role: $0["role"]) },
                series: try Row.fetchAll(db, sql: "SELECT seriesID, name, sequence FROM bookSeries WHERE bookID = ? ORDER BY position",
                                         arguments: [id]).map { BookLinks.SeriesPlace(id: $0["seriesID"], name: $0["name"], sequence: $0["sequence"]) },
                genres: try Row.fetchAll(db, sql: "SELECT genreID, name, path FROM bookGenre WHERE bookID = ? ORDER BY position",
                                         arguments: [id]).map { BookLinks.Genre(id: $0["genreID"], name: $0["name"], path: $0["path"]) })
            try Self.facetLinks(ofBook: id, into: &links, in: db)
            return links
        }
    }

    public func syncState(of domain: BrowseDomain) throws -> LibrarySyncState {
        try read { db in
            guard let data = try Data.fetchOne(db, sql: "SELECT json FROM browseSyncState WHERE domain = ?", arguments: [domain.rawValue])
            else { return LibrarySyncState() }
            return (try? JSONDecoder().decode(LibrarySyncState.self, from: data)) ?? LibrarySyncState()
        }
    }

    private static func upsertEntity(_ table: String, id: String, name: String, sortName: String?, description: String?,
                                     imagePath: String?, updatedAt: Date, in db: Database) throws -> Int {
        try db.cachedStatement(sql: """
            INSERT INTO \(table) (id, name, sortName, description, imagePath, updatedAt) VALUES (?, ?, ?, ?, ?, ?)
            ON CONFLICT(id) DO UPDATE SET name = excluded.name, sortName = excluded.sortName, description = excluded.description,
                imagePath = excluded.imagePath, updatedAt = excluded.updatedAt
            WHERE (name, sortName, description, imagePath, updatedAt)
                IS NOT (excluded.name, excluded.sortName, excluded.description, excluded.imagePath, excluded.updatedAt)
            """).execute(arguments: [id, name, sortName, description, imagePath, updatedAt])
        return db.changesCount
    }

    private static func deleteEntities(_ table: String, _ ids: [String], in db: Database) throws -> Int {
        var deleted = 0
        for id in ids {
            try db.cachedStatement(sql: "DELETE FROM \(table) WHERE id = ?").execute(arguments: [id])
            deleted += db.changesCount
        }
        return deleted
    }
}
