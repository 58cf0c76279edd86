import Foundation

/// The shelves an ``InMemoryLibraryStore`` keeps, as the SQLite store keeps
/// them (`SQLiteLibraryStore+Shelves.swift`): the user's shelves, each book
/// on them as its own row keyed by its id (a tombstone deletes the row by
/// id, whatever pair it named), and others' shelves as last discovered.
struct ShelfTables: Sendable {
    var shelves: [String: Shelf] = [:]
    var memberships: [String: ShelfBook] = [:]
    var discovered: [Shelf] = []

    /// Applies a page of `shelves` or `shelf_books`, or REST v1's whole list.
    /// - Returns: how many rows it added, changed or deleted.
    mutating func apply(_ rows: BrowseRows) -> Int {
        var changed = 0
        switch rows {
        case .shelves(let page):
            for shelf in page.entities {
                var row = shelf
                row.bookIDs = []
                if shelves[shelf.id] != row {
                    shelves[shelf.id] = row
                    changed += 1
                }
            }
            for id in page.deletedIDs where shelves.removeValue(forKey: id) != nil {
                changed += 1
                memberships = memberships.filter { $0.value.shelfID != id }
            }
        case .shelfBooks(let page):
            for row in page.entities where memberships[row.id] != row {
                memberships[row.id] = row
                changed += 1
            }
            for id in page.deletedIDs where memberships.removeValue(forKey: id) != nil { changed += 1 }
        case .allShelves(let all):
            let before = Dictionary(uniqueKeysWithValues: mine(cached: nil).map { ($0.id, $0) })
            shelves = [:]
            memberships = [:]
            for shelf in all {
                var row = shelf
                row.bookIDs = []
                shelves[shelf.id] = row
                for (order, book) in shelf.bookIDs.enumerated() {
                    let id = ShelfBook.snapshotID(shelfID: shelf.id, bookID: book)
                    memberships[id] = ShelfBook(id: id, shelfID: shelf.id, bookID: book, sortOrder: order, updatedAt: shelf.updatedAt)
                }
            }
            let after = Dictionary(uniqueKeysWithValues: mine(cached: nil).map { ($0.id, $0) })
            changed = Set(before.keys).union(after.keys).filter { before[$0] != after[$0] }.count
        default:
            break
        }
        return changed
    }

    /// The user's shelves with their books in order; with `cached`, only
    /// the books among it.
    func mine(cached: Set<String>?) -> [Shelf] {
        var books: [String: [ShelfBook]] = [:]
        for row in memberships.values where cached?.contains(row.bookID) ?? true { books[row.shelfID, default: []].append(row) }
        return shelves.values.map { shelf in
            var shelf = shelf
            shelf.bookIDs = (books[shelf.id] ?? []).sorted { ($0.sortOrder, $0.id) < ($1.sortOrder, $1.id) }.map(\.bookID)
            return shelf
        }
    }
}

extension ShelfBook {
    /// The id a shelf's book gets where the server gives none (REST v1
    /// lists a shelf's books, not rows).
    public static func snapshotID(shelfID: String, bookID: String) -> String { "\(shelfID):\(bookID)" }
}

extension InMemoryLibraryStore {
    public func shelves() throws -> [Shelf] {
        let cached = Set(try books().map(\.id))
        return shelfTables.value.mine(cached: cached)
    }

    public func discoveredShelves() throws -> [Shelf] {
        let cached = Set(try books().map(\.id))
        return shelfTables.value.discovered.map { shelf in
            var shelf = shelf
            shelf.bookIDs = shelf.bookIDs.filter(cached.contains)
            return shelf
        }
    }

    public func saveDiscoveredShelves(_ shelves: [Shelf]) throws {
        shelfTables.withLock { $0.discovered = shelves }
    }

    /// The user's shelves as a browse list.
    func shelfItems() throws -> [BrowseItem] {
        let books = try self.books()
        let added = Dictionary(uniqueKeysWithValues: books.map { ($0.id, $0.createdAt) })
        return try shelves().map { shelf in
            BrowseItem(id: shelf.id, name: shelf.name, bookCount: shelf.bookIDs.count,
                       newestBookAdded: shelf.bookIDs.compactMap { added[$0] }.max())
        }
    }

    /// A shelf's page: one of the user's, else a discovered one.
    func shelfPage(id: String) throws -> BrowsePageContents? {
        let titles = Dictionary(uniqueKeysWithValues: try books().map { ($0.id, $0.title) })
        guard let shelf = try shelves().first(where: { $0.id == id }) ?? discoveredShelves().first(where: { $0.id == id }) else {
            return nil
        }
        return BrowsePageContents(shelf: shelf, titles: titles)
    }
}

extension BrowsePageContents {
    /// A shelf's page: its books in the shelf's order (those with a title).
    public init(shelf: Shelf, titles: [String: String]) {
        self.init(kind: .shelf, id: shelf.id, name: shelf.name, description: shelf.description.isEmpty ? nil : shelf.description,
                  entries: shelf.bookIDs.compactMap { id in titles[id].map { BrowsePageEntry(bookID: id, title: $0) } },
                  owner: shelf.owner, isPrivate: shelf.isPrivate)
    }
}
