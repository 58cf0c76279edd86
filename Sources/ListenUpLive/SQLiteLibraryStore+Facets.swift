import Foundation
import GRDB
import ListenUpCore

/// The facets in the library cache (BrowseEntities+Facets.swift): the
/// server's genre tree, tags, moods and collections (`genre`, `facet`),
/// their junction rows by their own opaque id (`membership`: a tombstone
/// deletes by id, a resurrection writes the same id again), and the tags
/// REST v1 books name themselves (`bookTag`, written with the book like
/// the other links). Lists and pages are SQL over them, as the other
/// browse lists are.
extension SQLiteLibraryStore {
    /// The facet tables (migration `v6-facets`). The books cached before
    /// it have no `bookTag` rows: the sync state is reset, so the next
    /// sync is a full one and writes them.
    static func registerFacetsMigration(_ migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v6-facets") { db in
            try db.create(table: "genre") { table in
                table.primaryKey("id", .text)
                table.column("name", .text).notNull()
                table.column("slug", .text).notNull()
                table.column("path", .text).notNull()
                table.column("parentID", .text)
                table.column("depth", .integer).notNull()
                table.column("sortOrder", .integer).notNull()
                table.column("updatedAt", .datetime).notNull()
            }
            // Tags, moods and collections: `domain` is `tags`, `moods` or `collections`.
            try db.create(table: "facet") { table in
                table.column("domain", .text).notNull()
                table.column("id", .text).notNull()
                table.column("name", .text).notNull()
                table.column("slug", .text)
                table.column("isSystem", .boolean).notNull().defaults(to: false)
                table.column("updatedAt", .datetime).notNull()
                table.primaryKey(["domain", "id"])
            }
            try db.create(table: "membership") { table in
                table.column("domain", .text).notNull()
                table.column("id", .text).notNull()
                table.column("bookID", .text).notNull()
                table.column("groupID", .text).notNull()
                table.column("updatedAt", .datetime).notNull()
                table.primaryKey(["domain", "id"])
            }
            try db.create(index: "membership_group", on: "membership", columns: ["domain", "groupID"])
            try db.create(index: "membership_bookID", on: "membership", columns: ["bookID"])
            try db.create(table: "bookTag") { table in
                table.column("bookID", .text).notNull().references("book", onDelete: .cascade)
                table.column("tagID", .text).notNull()
                table.column("name", .text).notNull()
                table.column("position", .integer).notNull()
            }
            try db.create(index: "bookTag_tagID", on: "bookTag", columns: ["tagID"])
            try db.create(index: "bookTag_bookID", on: "bookTag", columns: ["bookID"])
            try db.execute(sql: "DELETE FROM syncState")
        }
    }

    /// The table a facet domain's rows go to, and the `domain` they are kept under.
    private static func table(of domain: BrowseDomain) -> (table: String, key: String)? {
        switch domain {
        case .tags: ("facet", "tags")
        case .moods: ("facet", "moods")
        case .collections: ("facet", "collections")
        case .bookTags: ("membership", "tags")
        case .bookMoods: ("membership", "moods")
        case .collectionBooks: ("membership", "collections")
        case .genres: ("genre", "")
        case .contributors, .series, .shelves, .shelfBooks, .publicProfiles, .activities: nil
        }
    }

    /// Applies a page of a facet domain (in the caller's transaction).
    static func applyFacets(_ rows: BrowseRows, in db: Database) throws -> Int {
        guard let target = table(of: rows.domain) else { return 0 }
        let (table, key) = target
        let scope = table == "genre" ? "" : " AND domain = '\(key)'"
        var changed = 0
        func delete(_ id: String) throws -> Int {
            try db.cachedStatement(sql: "DELETE FROM \(table) WHERE id = ?\(scope)").execute(arguments: [id])
            return db.changesCount
        }
        func replace(keeping ids: [String]) throws {
            let kept = Set(ids)
            let all = try String.fetchAll(db, sql: "SELECT id FROM \(table) WHERE 1\(scope)")
            for id in all where !kept.contains(id) { changed += try delete(id) }
        }
        func write(_ sql: String, _ arguments: StatementArguments) throws {
            try db.cachedStatement(sql: sql).execute(arguments: arguments)
            changed += db.changesCount
        }
        let facet = """
            INSERT INTO facet (domain, id, name, slug, isSystem, updatedAt) VALUES (?, ?, ?, ?, ?, ?)
            ON CONFLICT(domain, id) DO UPDATE SET name = excluded.name, slug = excluded.slug, isSystem = excluded.isSystem,
                updatedAt = excluded.updatedAt
            WHERE (name, slug, isSystem, updatedAt) IS NOT (excluded.name, excluded.slug, excluded.isSystem, excluded.updatedAt)
            """
        let membership = """
            INSERT INTO membership (domain, id, bookID, groupID, updatedAt) VALUES (?, ?, ?, ?, ?)
            ON CONFLICT(domain, id) DO UPDATE SET bookID = excluded.bookID, groupID = excluded.groupID, updatedAt = excluded.updatedAt
            WHERE (bookID, groupID, updatedAt) IS NOT (excluded.bookID, excluded.groupID, excluded.updatedAt)
            """
        let deleted: [String]
        switch rows {
        case .contributors, .series, .shelves, .shelfBooks, .allShelves, .publicProfiles, .activities:
            return 0
        case .genres(let page):
            if page.replacesAll { try replace(keeping: page.entities.map(\.id)) }
            for genre in page.entities {
                try write("""
                    INSERT INTO genre (id, name, slug, path, parentID, depth, sortOrder, updatedAt) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                    ON CONFLICT(id) DO UPDATE SET name = excluded.name, slug = excluded.slug, path = excluded.path,
                        parentID = excluded.parentID, depth = excluded.depth, sortOrder = excluded.sortOrder, updatedAt = excluded.updatedAt
                    WHERE (name, slug, path, parentID, depth, sortOrder, updatedAt) IS NOT (excluded.name, excluded.slug, excluded.path,
                        excluded.parentID, excluded.depth, excluded.sortOrder, excluded.updatedAt)
                    """, [genre.id, genre.name, genre.slug, genre.path, genre.parentID, genre.depth, genre.sortOrder, genre.updatedAt])
            }
            deleted = page.deletedIDs
        case .tags(let page), .moods(let page):
            if page.replacesAll { try replace(keeping: page.entities.map(\.id)) }
            for label in page.entities { try write(facet, [key, label.id, label.name, label.slug, false, label.updatedAt]) }
            deleted = page.deletedIDs
        case .collections(let page):
            if page.replacesAll { try replace(keeping: page.entities.map(\.id)) }
            for collection in page.entities {
                try write(facet, [key, collection.id, collection.name, nil, collection.isSystem, collection.updatedAt])
            }
            deleted = page.deletedIDs
        case .bookTags(let page), .bookMoods(let page), .collectionBooks(let page):
            if page.replacesAll { try replace(keeping: page.entities.map(\.id)) }
            for row in page.entities { try write(membership, [key, row.id, row.bookID, row.groupID, row.updatedAt]) }
            deleted = page.deletedIDs
        }
        for id in deleted { changed += try delete(id) }
        return changed
    }

    /// Every book of each tag, mood or collection: `groupID`, `bookID` and
    /// the name a book gives it (REST v1 tags), as SQL.
    private static func members(of kind: BrowseKind) -> (sql: String, domain: String)? {
        switch kind {
        case .tags:
            ("""
             SELECT groupID, bookID, NULL AS linkName FROM membership WHERE domain = 'tags'
             UNION ALL SELECT tagID, bookID, name FROM bookTag
             """, "tags")
        case .moods: ("SELECT groupID, bookID, NULL AS linkName FROM membership WHERE domain = 'moods'", "moods")
        case .collections: ("SELECT groupID, bookID, NULL AS linkName FROM membership WHERE domain = 'collections'", "collections")
        case .series, .authors, .narrators, .genres, .shelves: nil
        }
    }

    /// The tags, moods or collections with cached books (`only`: one of them).
    static func facetItems(_ kind: BrowseKind, only id: String? = nil, in db: Database) throws -> [BrowseItem] {
        guard let source = members(of: kind) else { return [] }
        let (members, domain) = source
        return try Row.fetchAll(db, sql: """
            SELECT m.groupID AS id, COALESCE(f.name, MAX(m.linkName)) AS label, COUNT(DISTINCT m.bookID) AS count,
                   MAX(b.createdAt) AS newest
            FROM (\(members)) m JOIN book b ON b.id = m.bookID LEFT JOIN facet f ON f.domain = ? AND f.id = m.groupID
            WHERE (? IS NULL OR m.groupID = ?) AND COALESCE(f.isSystem, 0) = 0
            GROUP BY m.groupID HAVING label IS NOT NULL
            """, arguments: [domain, id, id]).map { row in
            BrowseItem(id: row["id"], name: row["label"], bookCount: row["count"], newestBookAdded: row["newest"])
        }
    }

    static func facetPage(_ kind: BrowsePageKind, id: String, in db: Database) throws -> BrowsePageContents? {
        let list: BrowseKind = switch kind {
        case .tag: .tags
        case .mood: .moods
        default: .collections
        }
        guard let members = members(of: list)?.sql, let item = try facetItems(list, only: id, in: db).first else { return nil }
        let entries = try Row.fetchAll(db, sql: """
            SELECT DISTINCT b.id AS id, b.title AS title FROM (\(members)) m JOIN book b ON b.id = m.bookID WHERE m.groupID = ?
            """, arguments: [id])
        return BrowsePageContents(kind: kind, id: id, name: item.name,
                                  entries: entries.map { BrowsePageEntry(bookID: $0["id"], title: $0["title"]) })
    }

    /// The tags, moods and collections of one book, in name order.
    static func facetLinks(ofBook id: String, into links: inout BookLinks, in db: Database) throws {
        func named(_ kind: BrowseKind) throws -> [BookLinks.Facet] {
            guard let members = members(of: kind)?.sql else { return [] }
            // Each of the book's few, not the whole list (a details panel opens often).
            let ids = Set(try String.fetchAll(db, sql: "SELECT groupID FROM (\(members)) WHERE bookID = ?", arguments: [id]))
            return try ids.flatMap { try facetItems(kind, only: $0, in: db) }.map { BookLinks.Facet(id: $0.id, name: $0.name) }
                .sorted { ($0.name.lowercased(), $0.id) < ($1.name.lowercased(), $1.id) }
        }
        links.tags = try named(.tags)
        links.moods = try named(.moods)
        links.collections = try named(.collections)
    }

    // MARK: The genre tree

    static func hasGenreTree(_ db: Database) throws -> Bool {
        try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM genre)") ?? false
    }

    /// The genres of the tree with cached books, each counting its own
    /// books and those of the genres under it.
    static func genreTreeItems(in db: Database) throws -> [BrowseItem] {
        try Row.fetchAll(db, sql: """
            SELECT g.id AS id, g.name AS name, g.path AS path, g.depth AS depth, COUNT(DISTINCT l.bookID) AS count,
                   MAX(b.createdAt) AS newest
            FROM genre g JOIN genre h ON h.id = g.id OR (g.path != '' AND substr(h.path, 1, length(g.path) + 1) = g.path || '/')
            JOIN bookGenre l ON l.genreID = h.id JOIN book b ON b.id = l.bookID
            GROUP BY g.id
            """).map { row in
            let path: String = row["path"]
            return BrowseItem(id: row["id"], name: row["name"], sortName: path.isEmpty ? nil : path, bookCount: row["count"],
                              newestBookAdded: row["newest"], depth: row["depth"])
        }
    }

    /// A genre of the tree (nil when the tree has no such genre): its books
    /// and those under it, its parents (the root first) and the genres
    /// right under it that have books.
    static func genreTreePage(id: String, in db: Database) throws -> BrowsePageContents? {
        guard let genre = try Row.fetchOne(db, sql: "SELECT name, path, parentID FROM genre WHERE id = ?", arguments: [id]) else {
            return nil
        }
        let path: String = genre["path"]
        let items = Dictionary(try genreTreeItems(in: db).map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        let entries = try Row.fetchAll(db, sql: """
            SELECT DISTINCT b.id AS id, b.title AS title FROM genre h JOIN bookGenre l ON l.genreID = h.id JOIN book b ON b.id = l.bookID
            WHERE h.id = ? OR (? != '' AND substr(h.path, 1, length(?) + 1) = ? || '/')
            """, arguments: [id, path, path, path])
        var parents: [BrowseItem] = []
        var next: String? = genre["parentID"]
        while let parentID = next, !parents.contains(where: { $0.id == parentID }),
              let parent = try Row.fetchOne(db, sql: "SELECT name, parentID FROM genre WHERE id = ?", arguments: [parentID]) {
            parents.insert(items[parentID] ?? BrowseItem(id: parentID, name: parent["name"], bookCount: 0), at: 0)
            next = parent["parentID"]
        }
        let children = try Row.fetchAll(db, sql: "SELECT id, name, sortOrder FROM genre WHERE parentID = ?", arguments: [id])
            .map { (id: $0["id"] as String, name: SearchKey.fold($0["name"] as String), order: $0["sortOrder"] as Int) }
            .sorted { ($0.order, $0.name, $0.id) < ($1.order, $1.name, $1.id) }
            .compactMap { items[$0.id] }
        return BrowsePageContents(kind: .genre, id: id, name: genre["name"],
                                  entries: entries.map { BrowsePageEntry(bookID: $0["id"], title: $0["title"]) },
                                  parents: parents, children: children)
    }
}
