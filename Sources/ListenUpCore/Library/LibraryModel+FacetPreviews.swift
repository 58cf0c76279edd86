import Foundation

extension LibraryModel {
    /// Browsing previews of the facets: the Genres tab (the server's tree,
    /// then its tags, moods and collections), a tag's, a mood's and a
    /// collection's page, and a genre's page with the genres under it.
    nonisolated static let facetPreviews: [PreviewState<LibraryModel>] = [
        .init("genres") { $0.browseForPreview([.show(.genres)]) },
        .init("tags") { $0.browseForPreview([.show(.tags)]) },
        .init("collections") { $0.browseForPreview([.show(.collections)]) },
        .init("tag-page", player: "idle") { $0.browseForPreview([.open(.tag, id: "tag-unreliable-narrator")]) },
        .init("mood-page", player: "idle") { $0.browseForPreview([.open(.mood, id: "mood-reflective")]) },
        .init("collection-page", player: "idle") { $0.browseForPreview([.open(.collection, id: "collection-book-club")]) },
        .init("genre-tree-page", player: "idle") { $0.browseForPreview([.open(.genre, id: "genre-fiction")]) },
    ]

    /// Adds to `store` what the server says of the preview books' facets:
    /// a genre tree over the books' genres (their ids), tags, moods and
    /// collections, with the books in each.
    nonisolated static func addPreviewFacets(to store: InMemoryLibraryStore, at updated: Date) throws {
        let genres: [(id: String, name: String, parent: String?, order: Int)] = [
            ("genre-fiction", "Fiction", nil, 0), ("genre-classics", "Classics", "genre-fiction", 1),
            ("genre-science-fiction", "Science Fiction", "genre-fiction", 2), ("genre-fantasy", "Fantasy", "genre-fiction", 3),
            ("genre-historical", "Historical Fiction", "genre-fiction", 4), ("genre-poetry", "Poetry", "genre-fiction", 5),
        ]
        try store.apply(.genres(EntityPage(entities: genres.map { genre in
            let slug = String(genre.id.dropFirst("genre-".count))
            return Genre(id: genre.id, name: genre.name, slug: slug, path: genre.parent == nil ? slug : "fiction/\(slug)",
                         parentID: genre.parent, depth: genre.parent == nil ? 0 : 1, sortOrder: genre.order, updatedAt: updated)
        })), state: LibrarySyncState())
        func labels(_ prefix: String, _ names: [String]) -> [Tag] {
            names.map { name in
                let slug = name.lowercased().replacingOccurrences(of: " ", with: "-")
                return Tag(id: "\(prefix)-\(slug)", name: name, slug: slug, updatedAt: updated)
            }
        }
        func members(_ prefix: String, _ books: [String: [String]]) -> [BookMembership] {
            books.flatMap { group, ids in
                ids.map { BookMembership(id: "\(prefix):\(group):\($0)", bookID: $0, groupID: group, updatedAt: updated) }
            }
        }
        try store.apply(.tags(EntityPage(entities: labels("tag", ["Unreliable Narrator", "Found Family", "Award Winner", "Slow Burn"]))),
                        state: LibrarySyncState())
        try store.apply(.bookTags(EntityPage(entities: members("bt", [
            "tag-unreliable-narrator": ["book-1", "book-3", "book-6"], "tag-found-family": ["book-2", "book-9"],
            "tag-award-winner": ["book-0", "book-4", "book-5", "book-6"], "tag-slow-burn": ["book-7"],
        ]))), state: LibrarySyncState())
        try store.apply(.moods(EntityPage(entities: labels("mood", ["Reflective", "Tense", "Hopeful"]))), state: LibrarySyncState())
        try store.apply(.bookMoods(EntityPage(entities: members("bm", [
            "mood-reflective": ["book-0", "book-1", "book-3", "book-7"], "mood-tense": ["book-4", "book-9"], "mood-hopeful": ["book-2"],
        ]))), state: LibrarySyncState())
        try store.apply(.collections(EntityPage(entities: [
            LibraryCollection(id: "collection-book-club", name: "Book Club", updatedAt: updated),
            LibraryCollection(id: "collection-road-trip", name: "Road Trip", updatedAt: updated),
        ])), state: LibrarySyncState())
        try store.apply(.collectionBooks(EntityPage(entities: members("cb", [
            "collection-book-club": ["book-0", "book-3", "book-5"], "collection-road-trip": ["book-2", "book-4", "book-9"],
        ]))), state: LibrarySyncState())
    }
}
