import Foundation
import ListenUpAPI

/// The facets over REST v1 (contract v0.9 addendum §7; ListenUpApp/server
/// `internal/api/genre_handlers.go`, `tag_handlers.go`,
/// `collection_handlers.go`): `GET /api/v1/genres`, `/tags`,
/// `/tags/{slug}/books`, `/libraries/{libraryId}/collections`,
/// `/collections/{id}/books`; and the changes the test controls make,
/// recorded in the sync ledger for kRPC (`genres`, `tags`, `book_tags`,
/// `moods`, `book_moods`, `collections`, `collection_books`).
extension DemoService {
    /// The one library's id (REST `library/status`, kRPC `libraryId`).
    var libraryID: String { instanceID }

    /// The facet routes, nil for any other request.
    func handleFacets(_ request: DemoRequest) -> DemoResponse? {
        guard request.method == "GET" else { return nil }
        let parts = request.path.split(separator: "/").map(String.init)
        guard parts.count >= 3, parts[0] == "api", parts[1] == "v1" else { return nil }
        switch Array(parts.dropFirst(2)) {
        case ["genres"]:
            return authorized(request) { _ in .envelope(["genres": self.state.withLock { $0.facets.genres.map(RESTGenreRow.init) }]) }
        case ["tags"]:
            return authorized(request) { _ in
                .envelope(["tags": self.state.withLock { state -> [RESTTagRow] in
                    let counts = state.facets.bookCounts(.tag)
                    return state.facets.tags.map { RESTTagRow(tag: $0, count: counts[$0.id] ?? 0) }
                }])
            }
        case let path where path.count == 3 && path[0] == "tags" && path[2] == "books":
            return authorized(request) { _ in self.tagBooks(slug: path[1]) }
        case let path where path.count == 3 && path[0] == "libraries" && path[2] == "collections":
            guard path[1] == libraryID else { return .failure(404, "library not found") }
            return authorized(request) { _ in
                .envelope(["collections": self.state.withLock { state -> [RESTCollectionRow] in
                    let counts = state.facets.bookCounts(.collection)
                    return state.facets.collections.map { RESTCollectionRow(collection: $0, libraryID: self.libraryID,
                                                                            count: counts[$0.id] ?? 0) }
                }])
            }
        case let path where path.count == 3 && path[0] == "collections" && path[2] == "books":
            return authorized(request) { _ in
                self.state.withLock { state -> DemoResponse in
                    guard state.facets.collections.contains(where: { $0.id == path[1] }) else { return .failure(404, "collection not found") }
                    let titles = Dictionary(state.books.map { ($0.id, $0.title) }, uniquingKeysWith: { a, _ in a })
                    return .envelope(["books": state.facets.books(.collection, in: path[1]).compactMap { row in
                        titles[row.bookID].map { ["id": row.bookID, "title": $0] }
                    }])
                }
            }
        default:
            return nil
        }
    }

    private func tagBooks(slug: String) -> DemoResponse {
        state.withLock { state in
            guard let tag = state.facets.tags.first(where: { $0.slug == slug }) else { return .failure(404, "tag not found") }
            let ids = Set(state.facets.books(.tag, in: tag.id).map(\.bookID))
            let books = state.books.filter { ids.contains($0.id) }
            return .envelope(TagBooksResponse(tag: RESTTagRow(tag: tag, count: books.count), books: books, total: books.count))
        }
    }

    // MARK: Changes

    /// Renames a tag (kRPC: the `tags` row; the slug stays, as upstream's
    /// `renameTag`). Returns false for an unknown id.
    func renameTag(id: String, to name: String) -> Bool {
        state.withLock { state in
            guard let index = state.facets.tags.firstIndex(where: { $0.id == id }) else { return false }
            let now = Date()
            state.facets.tags[index].name = name
            state.facets.tags[index].updatedAt = now
            state.ledger.record(.tags, id: id, row: .label(state.facets.tags[index]), at: now)
            return true
        }
    }

    /// Deletes a tag: its row and every book's link to it become
    /// tombstones (the links with blanked ids on kRPC), and its books lose
    /// it (REST: their `tags`). Returns false for an unknown id.
    func deleteTag(id: String) -> Bool {
        state.withLock { state in
            guard let index = state.facets.tags.firstIndex(where: { $0.id == id }) else { return false }
            let now = Date()
            let tag = state.facets.tags.remove(at: index)
            for row in state.facets.books(.tag, in: id) {
                _ = state.facets.remove(.tag, book: row.bookID, from: id)
                state.ledger.record(.bookTags, id: row.id, row: .membership(row, .tag), deleted: true, at: now)
            }
            state.ledger.record(.tags, id: id, row: .label(tag), deleted: true, at: now)
            state.refreshRESTTags(at: now)
            return true
        }
    }

    /// Puts a book in (or takes it out of) a tag, mood or collection. A
    /// book put back gets its old junction row (same id) back. Returns
    /// false when nothing changed (unknown ids, or already so).
    func setMembership(_ kind: DemoMembership.Kind, book: String, group: String, member: Bool) -> Bool {
        state.withLock { state in
            let known: Bool = switch kind {
            case .tag: state.facets.tags.contains { $0.id == group }
            case .mood: state.facets.moods.contains { $0.id == group }
            case .collection: state.facets.collections.contains { $0.id == group }
            }
            guard known, state.books.contains(where: { $0.id == book }) else { return false }
            let now = Date()
            if member {
                guard let row = state.facets.add(kind, book: book, to: group, at: now) else { return false }
                state.ledger.record(kind.domain, id: row.id, row: .membership(row, kind), at: now)
            } else {
                guard let row = state.facets.remove(kind, book: book, from: group) else { return false }
                state.ledger.record(kind.domain, id: row.id, row: .membership(row, kind), deleted: true, at: now)
            }
            if kind == .tag { state.refreshRESTTags(at: now) }
            return true
        }
    }
}

extension DemoService.State {
    /// Seeds the facets: their rows exist at start, with revisions.
    mutating func seedFacets(_ facets: DemoFacets, at date: Date) {
        self.facets = facets
        for genre in facets.genres { ledger.seed(.genres, id: genre.id, row: .genre(genre), at: date) }
        for tag in facets.tags { ledger.seed(.tags, id: tag.id, row: .label(tag), at: date) }
        for mood in facets.moods { ledger.seed(.moods, id: mood.id, row: .label(mood), at: date) }
        for collection in facets.collections { ledger.seed(.collections, id: collection.id, row: .collection(collection), at: date) }
        for kind in [DemoMembership.Kind.tag, .mood, .collection] {
            for row in (facets.members[kind] ?? [:]).values.sorted(by: { $0.id < $1.id }) {
                ledger.seed(kind.domain, id: row.id, row: .membership(row, kind), at: row.createdAt)
            }
        }
        let tags = facets.restTags()
        for index in books.indices { books[index].tags = tags[books[index].id] }
    }

    /// REST v1 books name their tags: a book whose tags changed moves to
    /// `date` (a delta brings it).
    mutating func refreshRESTTags(at date: Date) {
        let tags = facets.restTags()
        changeBooks(at: date) { book in
            let now = tags[book.id]
            guard now?.map(\.id) != book.tags?.map(\.id) else { return false }
            book.tags = now
            return true
        }
    }
}

/// A `/api/v1/genres` row (`dto.Genre`).
private struct RESTGenreRow: Encodable {
    var id, name, slug, path: String
    var parentID: String?
    var depth, sortOrder: Int
    var createdAt, updatedAt: Date

    init(_ genre: DemoGenre) {
        (id, name, slug, path, parentID) = (genre.id, genre.name, genre.slug, genre.path, genre.parentID)
        (depth, sortOrder, createdAt, updatedAt) = (genre.depth, genre.sortOrder, genre.createdAt, genre.updatedAt)
    }

    enum CodingKeys: String, CodingKey {
        case id, name, slug, path, depth
        case parentID = "parent_id"
        case sortOrder = "sort_order"
        case createdAt = "created_at"
        case updatedAt = "updated_at"
    }
}

/// A `/api/v1/tags` row: no name.
private struct RESTTagRow: Encodable {
    var id, slug: String
    var bookCount: Int
    var createdAt: Date

    init(tag: DemoLabel, count: Int) {
        (id, slug, bookCount, createdAt) = (tag.id, tag.slug, count, tag.createdAt)
    }

    enum CodingKeys: String, CodingKey {
        case id, slug
        case bookCount = "book_count"
        case createdAt = "created_at"
    }
}

private struct TagBooksResponse: Encodable {
    var tag: RESTTagRow
    var books: [SyncBook]
    var total: Int
}

/// A `/api/v1/libraries/{libraryId}/collections` row.
private struct RESTCollectionRow: Encodable {
    var id, libraryID, ownerID, name: String
    var bookCount: Int
    var isInbox = false
    var isGlobalAccess = false
    var createdAt, updatedAt: Date

    init(collection: DemoCollection, libraryID: String, count: Int) {
        (id, self.libraryID, ownerID, name) = (collection.id, libraryID, collection.ownerID, collection.name)
        (bookCount, createdAt, updatedAt) = (count, collection.createdAt, collection.updatedAt)
    }

    enum CodingKeys: String, CodingKey {
        case id, name
        case libraryID = "library_id"
        case ownerID = "owner_id"
        case bookCount = "book_count"
        case isInbox = "is_inbox"
        case isGlobalAccess = "is_global_access"
        case createdAt = "created_at"
        case updatedAt = "updated_at"
    }
}
