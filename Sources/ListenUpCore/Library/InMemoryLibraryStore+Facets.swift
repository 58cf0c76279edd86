import Foundation

/// The facets kept in memory (BrowseEntities+Facets.swift): the server's
/// genre tree, tags, moods and collections, and the junction rows by their
/// own id. Answers as `SQLiteLibraryStore+Facets.swift` does, held to the
/// same tests.
struct FacetContents: Sendable {
    var genres: [String: Genre] = [:]
    /// Tags and moods, by domain (`.tags`, `.moods`) and id.
    var labels: [BrowseDomain: [String: Tag]] = [:]
    var collections: [String: LibraryCollection] = [:]
    /// Junction rows, by domain (`.bookTags`, `.bookMoods`, `.collectionBooks`) and their own id.
    var memberships: [BrowseDomain: [String: BookMembership]] = [:]

    /// Applies a page of a facet domain; how many rows it changed.
    mutating func apply(_ rows: BrowseRows) -> Int {
        switch rows {
        case .contributors, .series, .shelves, .shelfBooks, .allShelves, .publicProfiles, .activities: 0
        case .genres(let page): Self.apply(page, to: &genres)
        case .tags(let page): Self.apply(page, to: &labels[.tags, default: [:]])
        case .moods(let page): Self.apply(page, to: &labels[.moods, default: [:]])
        case .collections(let page): Self.apply(page, to: &collections)
        case .bookTags(let page): Self.apply(page, to: &memberships[.bookTags, default: [:]])
        case .bookMoods(let page): Self.apply(page, to: &memberships[.bookMoods, default: [:]])
        case .collectionBooks(let page): Self.apply(page, to: &memberships[.collectionBooks, default: [:]])
        }
    }

    private static func apply<Entity: Identifiable & Equatable>(_ page: EntityPage<Entity>, to table: inout [String: Entity]) -> Int
    where Entity.ID == String {
        var changed = 0
        if page.replacesAll {
            let kept = Set(page.entities.map(\.id))
            for id in table.keys where !kept.contains(id) {
                table[id] = nil
                changed += 1
            }
        }
        for entity in page.entities where table[entity.id] != entity {
            table[entity.id] = entity
            changed += 1
        }
        for id in page.deletedIDs where table.removeValue(forKey: id) != nil { changed += 1 }
        return changed
    }
}

extension InMemoryLibraryStore {
    /// The junction domain and the label table of a facet list.
    private static func sources(_ kind: BrowseKind) -> (junction: BrowseDomain, labels: BrowseDomain?)? {
        switch kind {
        case .tags: (.bookTags, .tags)
        case .moods: (.bookMoods, .moods)
        case .collections: (.collectionBooks, nil)
        case .series, .authors, .narrators, .genres, .shelves: nil
        }
    }

    /// The cached books of each tag, mood or collection of `kind`, and the
    /// name of each (the server's row, else, for a tag REST v1 names on a
    /// book, its slug made readable).
    private func groups(_ kind: BrowseKind) -> [String: (name: String, books: Set<String>)] {
        guard let sources = Self.sources(kind) else { return [:] }
        let (junction, labelDomain) = sources
        let contents = contents.value
        var books: [String: Set<String>] = [:]
        var linkNames: [String: String] = [:]
        for row in (contents.facets.memberships[junction] ?? [:]).values where contents.books[row.bookID] != nil {
            books[row.groupID, default: []].insert(row.bookID)
        }
        if kind == .tags {
            for (bookID, links) in contents.links where contents.books[bookID] != nil {
                for tag in links.tags {
                    books[tag.id, default: []].insert(bookID)
                    linkNames[tag.id] = linkNames[tag.id] ?? tag.name
                }
            }
        }
        var result: [String: (name: String, books: Set<String>)] = [:]
        for (id, members) in books {
            let name: String?
            if let labelDomain {
                name = contents.facets.labels[labelDomain]?[id]?.name ?? linkNames[id]
            } else if let collection = contents.facets.collections[id], !collection.isSystem {
                name = collection.name
            } else {
                name = nil
            }
            if let name { result[id] = (name, members) }
        }
        return result
    }

    func facetItems(_ kind: BrowseKind) -> [BrowseItem] {
        let books = contents.value.books
        return groups(kind).map { id, group in
            BrowseItem(id: id, name: group.name, bookCount: group.books.count,
                       newestBookAdded: group.books.compactMap { books[$0]?.createdAt }.max())
        }
    }

    func facetPage(_ kind: BrowsePageKind, id: String) -> BrowsePageContents? {
        let list: BrowseKind = switch kind {
        case .tag: .tags
        case .mood: .moods
        default: .collections
        }
        guard let group = groups(list)[id] else { return nil }
        let books = contents.value.books
        return BrowsePageContents(kind: kind, id: id, name: group.name,
                                  entries: group.books.compactMap { bookID in
                                      books[bookID].map { BrowsePageEntry(bookID: bookID, title: $0.title) }
                                  })
    }

    /// The tags, moods and collections of one book, in name order.
    func facetLinks(ofBook id: String, into links: inout BookLinks) {
        func named(_ kind: BrowseKind) -> [BookLinks.Facet] {
            groups(kind).filter { $0.value.books.contains(id) }.map { BookLinks.Facet(id: $0.key, name: $0.value.name) }
                .sorted { ($0.name.lowercased(), $0.id) < ($1.name.lowercased(), $1.id) }
        }
        links.tags = named(.tags)
        links.moods = named(.moods)
        links.collections = named(.collections)
    }

    // MARK: The genre tree

    /// Whether the server described a genre tree.
    var hasGenreTree: Bool { !contents.value.facets.genres.isEmpty }

    /// The cached books of each genre of the tree: its own and those of the
    /// genres under it.
    private func genreBooks() -> [String: Set<String>] {
        let contents = contents.value
        let genres = contents.facets.genres
        var direct: [String: Set<String>] = [:]
        for (bookID, links) in contents.links where contents.books[bookID] != nil {
            for genre in links.genres { direct[genre.id, default: []].insert(bookID) }
        }
        var result: [String: Set<String>] = [:]
        for genre in genres.values {
            var books = direct[genre.id] ?? []
            if !genre.path.isEmpty {
                for other in genres.values where other.path.hasPrefix(genre.path + "/") { books.formUnion(direct[other.id] ?? []) }
            }
            if !books.isEmpty { result[genre.id] = books }
        }
        return result
    }

    private func genreItem(_ genre: Genre, books: Set<String>) -> BrowseItem {
        let all = contents.value.books
        return BrowseItem(id: genre.id, name: genre.name, sortName: genre.path.isEmpty ? nil : genre.path, bookCount: books.count,
                          newestBookAdded: books.compactMap { all[$0]?.createdAt }.max(), depth: genre.depth)
    }

    /// The genres of the tree with books, and the genres books name that
    /// the tree does not have (as before there was a tree).
    func genreTreeItems(linkItems: [BrowseItem]) -> [BrowseItem] {
        let genres = contents.value.facets.genres
        let books = genreBooks()
        return books.compactMap { id, books in genres[id].map { genreItem($0, books: books) } }
            + linkItems.filter { genres[$0.id] == nil }
    }

    /// A genre of the tree: its books and those under it, its parents (the
    /// root first) and the genres right under it that have books.
    func genreTreePage(id: String) -> BrowsePageContents? {
        let genres = contents.value.facets.genres
        guard let genre = genres[id] else { return nil }
        let books = genreBooks()
        let all = contents.value.books
        var parents: [BrowseItem] = []
        var next = genre.parentID
        while let parentID = next, let parent = genres[parentID], !parents.contains(where: { $0.id == parentID }) {
            parents.insert(genreItem(parent, books: books[parentID] ?? []), at: 0)
            next = parent.parentID
        }
        let children = genres.values.filter { $0.parentID == id && books[$0.id] != nil }
            .sorted { ($0.sortOrder, SearchKey.fold($0.name), $0.id) < ($1.sortOrder, SearchKey.fold($1.name), $1.id) }
            .map { genreItem($0, books: books[$0.id] ?? []) }
        let entries = (books[id] ?? []).compactMap { bookID in all[bookID].map { BrowsePageEntry(bookID: bookID, title: $0.title) } }
        return BrowsePageContents(kind: .genre, id: id, name: genre.name, entries: entries, parents: parents, children: children)
    }
}
