import Foundation

/// A ``LibraryStore`` in memory: previews and tests. It keeps the same
/// promises as the app's SQLite store (a book stored again as it was is no
/// change; a page and its sync state land together), so code written
/// against one behaves the same on the other.
public final class InMemoryLibraryStore: LibraryStore {
    struct Contents {
        var books: [String: CachedBook] = [:]
        var progress: [String: BookProgress] = [:]
        var state = LibrarySyncState()
        var links: [String: BookLinks] = [:]
        var contributors: [String: Contributor] = [:]
        var series: [String: Series] = [:]
        var browseStates: [BrowseDomain: LibrarySyncState] = [:]
        var stats: ListeningStats?
        /// Genres, tags, moods, collections (InMemoryLibraryStore+Facets.swift).
        var facets = FacetContents()
    }

    let contents = LockedValue(Contents())
    /// The shelves (InMemoryLibraryStore+Shelves.swift).
    let shelfTables = LockedValue(ShelfTables())
    /// The profiles and the activity feed (InMemoryLibraryStore+Social.swift).
    let socialTables = LockedValue(SocialTables())

    public init() {}

    public func books() throws -> [CachedBook] {
        Array(contents.value.books.values)
    }

    public func listedBooks() throws -> [CachedBook] {
        contents.value.books.values.map { book in
            book.listed
        }
    }

    /// The first books as the index orders them (tests: the SQLite store
    /// orders them in SQL).
    public func firstListedBooks(_ count: Int, by sort: LibrarySort) throws -> [CachedBook]? {
        let index = LibraryIndex(try listedBooks())
        return index.order(by: sort).prefix(count).map { index.entries[$0].book }
    }

    public func listedBooks(ids: Set<String>) throws -> [CachedBook] {
        let books = contents.value.books
        return ids.compactMap { id in
            books[id].map { book in
                book.listed
            }
        }
    }

    public func book(id: String) throws -> CachedBook? {
        contents.value.books[id]
    }

    public func count() throws -> Int {
        contents.value.books.count
    }

    @discardableResult
    public func apply(_ books: [ServerBook], deleting deleted: [String], state: LibrarySyncState) throws -> Int {
        contents.withLock { contents in
            var changed = Self.store(books, in: &contents)
            for id in deleted where contents.books.removeValue(forKey: id) != nil {
                contents.links[id] = nil
                changed += 1
            }
            contents.state = state
            return changed
        }
    }

    public func upsert(_ books: [ServerBook]) throws {
        contents.withLock { _ = Self.store(books, in: &$0) }
    }

    public func delete(_ ids: [String]) throws {
        contents.withLock { contents in
            for id in ids {
                contents.books[id] = nil
                contents.links[id] = nil
                contents.progress[id] = nil
            }
        }
    }

    public func progress() throws -> [String: BookProgress] {
        contents.value.progress
    }

    public func setProgress(_ progress: BookProgress?, for bookID: String) throws {
        contents.withLock { $0.progress[bookID] = progress }
    }

    public func syncState() throws -> LibrarySyncState {
        contents.value.state
    }

    /// Stores `books`; returns how many were added or changed.
    private static func store(_ books: [ServerBook], in contents: inout Contents) -> Int {
        let encoder = JSONEncoder()
        // The same details give the same bytes, so an unchanged book compares equal.
        encoder.outputFormatting = .sortedKeys
        var changed = 0
        for book in books {
            let cached = CachedBook(book, encoder: encoder)
            let links = BookLinks(book)
            if contents.books[cached.id] != cached || contents.links[cached.id] != links {
                contents.books[cached.id] = cached
                contents.links[cached.id] = links
                changed += 1
            }
        }
        return changed
    }
}

extension InMemoryLibraryStore {
    public func browseItems(_ kind: BrowseKind) throws -> [BrowseItem] {
        switch kind {
        case .tags, .moods, .collections: return facetItems(kind)
        case .shelves: return try shelfItems()
        case .series, .authors, .narrators, .genres: break
        }
        let contents = contents.value
        var found: [String: (name: String, books: Set<String>, newest: Date?)] = [:]
        for (bookID, links) in contents.links {
            guard let book = contents.books[bookID] else { continue }
            let entries: [(id: String, name: String)] = switch kind {
            case .series: links.series.map { ($0.id, $0.name) }
            case .authors, .narrators: links.people.filter { $0.role == kind.role }.map { ($0.id, $0.name) }
            case .genres: links.genres.map { ($0.id, $0.name) }
            case .tags, .moods, .collections, .shelves: []
            }
            for entry in entries {
                var item = found[entry.id] ?? (entry.name, [], nil)
                item.books.insert(bookID)
                item.newest = max(item.newest ?? book.createdAt, book.createdAt)
                found[entry.id] = item
            }
        }
        let items = found.map { id, item in
            let (name, sortName): (String, String?) = switch kind {
            case .series: (contents.series[id]?.name ?? item.name, contents.series[id]?.sortName)
            case .authors, .narrators: (contents.contributors[id]?.name ?? item.name, contents.contributors[id]?.sortName)
            case .genres, .tags, .moods, .collections, .shelves: (item.name, nil)
            }
            return BrowseItem(id: id, name: name, sortName: sortName, bookCount: item.books.count, newestBookAdded: item.newest)
        }
        // The server's genre tree, when there is one, names and nests them.
        return kind == .genres && hasGenreTree ? genreTreeItems(linkItems: items) : items
    }

    public func browsePage(_ kind: BrowsePageKind, id: String) throws -> BrowsePageContents? {
        switch kind {
        case .tag, .mood, .collection: return facetPage(kind, id: id)
        case .shelf: return try shelfPage(id: id)
        case .genre: if let page = genreTreePage(id: id) { return page }
        case .series, .contributor: break
        }
        let contents = contents.value
        var entries: [BrowsePageEntry] = []
        var linkName: String?
        var genrePath: String?
        for (bookID, links) in contents.links {
            guard let book = contents.books[bookID] else { continue }
            switch kind {
            case .series:
                guard let place = links.series.first(where: { $0.id == id }) else { continue }
                linkName = place.name
                entries.append(BrowsePageEntry(bookID: bookID, title: book.title, sequence: place.sequence))
            case .contributor:
                let roles = links.people.filter { $0.id == id }
                guard let first = roles.first else { continue }
                linkName = first.name
                entries.append(BrowsePageEntry(bookID: bookID, title: book.title, roles: Set(roles.map(\.role)).sorted()))
            case .genre:
                if let genre = links.genres.first(where: { $0.id == id }) {
                    linkName = genre.name
                    genrePath = genre.path
                }
            case .tag, .mood, .collection, .shelf:
                break
            }
        }
        switch kind {
        case .series:
            let series = contents.series[id]
            guard let name = series?.name ?? linkName else { return nil }
            return BrowsePageContents(kind: kind, id: id, name: name, description: series?.description.map { PlainText.fromHTML($0) },
                                      imagePath: series?.coverPath, entries: entries)
        case .contributor:
            let person = contents.contributors[id]
            guard let name = person?.name ?? linkName else { return nil }
            return BrowsePageContents(kind: kind, id: id, name: name, description: person?.description.map { PlainText.fromHTML($0) },
                                      imagePath: person?.imagePath, entries: entries)
        case .genre:
            guard let name = linkName else { return nil }
            // Its books and those of the genres under it.
            for (bookID, links) in contents.links {
                guard let book = contents.books[bookID] else { continue }
                let inside = links.genres.contains { genre in
                    genre.id == id || (genrePath.map { path in genre.path?.hasPrefix(path + "/") == true } ?? false)
                }
                if inside { entries.append(BrowsePageEntry(bookID: bookID, title: book.title)) }
            }
            var parents: [BrowseItem] = []
            if let slugs = genrePath?.split(separator: "/") {
                let all = try browseItems(.genres)
                for depth in slugs.indices.dropLast() {
                    let prefix = slugs[...depth].joined(separator: "/")
                    let parentID = contents.links.values.lazy.flatMap(\.genres).first { $0.path == prefix }?.id
                    if let parent = all.first(where: { $0.id == parentID }) { parents.append(parent) }
                }
            }
            return BrowsePageContents(kind: kind, id: id, name: name, entries: entries, parents: parents)
        case .tag, .mood, .collection, .shelf:
            return nil
        }
    }

    @discardableResult
    public func apply(_ rows: BrowseRows, state: LibrarySyncState) throws -> Int {
        contents.withLock { contents in
            var changed = 0
            switch rows {
            case .contributors(let page):
                for entity in page.entities where contents.contributors[entity.id] != entity {
                    contents.contributors[entity.id] = entity
                    changed += 1
                }
                for id in page.deletedIDs where contents.contributors.removeValue(forKey: id) != nil { changed += 1 }
                contents.browseStates[.contributors] = state
            case .series(let page):
                for entity in page.entities where contents.series[entity.id] != entity {
                    contents.series[entity.id] = entity
                    changed += 1
                }
                for id in page.deletedIDs where contents.series.removeValue(forKey: id) != nil { changed += 1 }
                contents.browseStates[.series] = state
            case .shelves, .allShelves:
                changed = shelfTables.withLock { $0.apply(rows) }
                contents.browseStates[.shelves] = state
            case .shelfBooks:
                changed = shelfTables.withLock { $0.apply(rows) }
                contents.browseStates[.shelfBooks] = state
            case .publicProfiles, .activities:
                changed = socialTables.withLock { $0.apply(rows) }
                contents.browseStates[rows.domain] = state
            default:
                changed = contents.facets.apply(rows)
                contents.browseStates[rows.domain] = state
            }
            return changed
        }
    }

    public func listeningStats() throws -> ListeningStats? {
        contents.value.stats
    }

    public func saveListeningStats(_ stats: ListeningStats) throws {
        contents.withLock { $0.stats = stats }
    }

    public func links(ofBook id: String) throws -> BookLinks {
        var links = contents.value.links[id] ?? BookLinks()
        facetLinks(ofBook: id, into: &links)
        return links
    }

    public func syncState(of domain: BrowseDomain) throws -> LibrarySyncState {
        contents.value.browseStates[domain] ?? LibrarySyncState()
    }
}
