import Foundation

// The Go server's facet lists (contract v0.9 addendum §7; ListenUpApp/server
// `internal/api/genre_handlers.go`, `tag_handlers.go`,
// `collection_handlers.go`). REST v1 has no sync feed for them: a client
// reads the whole list again. Keys the contract marks omitempty are optional.

/// `GET /api/v1/genres` `data`.
public struct GenresResponse: Codable, Equatable, Sendable {
    public var genres: [RESTGenre]

    public init(genres: [RESTGenre]) {
        self.genres = genres
    }
}

/// One genre of `/api/v1/genres`.
public struct RESTGenre: Codable, Equatable, Sendable {
    public var id: String
    public var name: String
    public var slug: String
    public var parentID: String?
    /// The slug path from the root.
    public var path: String
    public var depth: Int
    public var sortOrder: Int
    public var updatedAt: Date?

    enum CodingKeys: String, CodingKey {
        case id, name, slug, path, depth
        case parentID = "parent_id"
        case sortOrder = "sort_order"
        case updatedAt = "updated_at"
    }

    public init(id: String, name: String, slug: String, parentID: String? = nil, path: String, depth: Int = 0, sortOrder: Int = 0,
                updatedAt: Date? = nil) {
        self.id = id
        self.name = name
        self.slug = slug
        self.parentID = parentID
        self.path = path
        self.depth = depth
        self.sortOrder = sortOrder
        self.updatedAt = updatedAt
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        id = try c.decode(String.self, forKey: .id)
        name = try c.decode(String.self, forKey: .name)
        slug = try c.decodeIfPresent(String.self, forKey: .slug) ?? ""
        parentID = try c.decodeIfPresent(String.self, forKey: .parentID).flatMap { $0.isEmpty ? nil : $0 }
        path = try c.decodeIfPresent(String.self, forKey: .path) ?? ""
        depth = try c.decodeIfPresent(Int.self, forKey: .depth) ?? 0
        sortOrder = try c.decodeIfPresent(Int.self, forKey: .sortOrder) ?? 0
        updatedAt = try c.decodeIfPresent(Date.self, forKey: .updatedAt)
    }
}

/// `GET /api/v1/tags` `data`: `{tags:[{id,slug,book_count,created_at}]}`
/// (no name: the slug is all there is).
public struct TagsResponse: Codable, Equatable, Sendable {
    public var tags: [Tag]

    public init(tags: [Tag]) {
        self.tags = tags
    }
}

/// `GET /api/v1/libraries/{libraryId}/collections` `data`.
public struct CollectionsResponse: Codable, Equatable, Sendable {
    public var collections: [RESTCollection]

    public init(collections: [RESTCollection]) {
        self.collections = collections
    }
}

/// One collection of a library.
public struct RESTCollection: Codable, Equatable, Sendable {
    public var id: String
    public var name: String
    public var bookCount: Int
    /// The library's inbox (books not yet sorted).
    public var isInbox: Bool
    public var updatedAt: Date?

    enum CodingKeys: String, CodingKey {
        case id, name
        case bookCount = "book_count"
        case isInbox = "is_inbox"
        case updatedAt = "updated_at"
    }

    public init(id: String, name: String, bookCount: Int = 0, isInbox: Bool = false, updatedAt: Date? = nil) {
        self.id = id
        self.name = name
        self.bookCount = bookCount
        self.isInbox = isInbox
        self.updatedAt = updatedAt
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        id = try c.decode(String.self, forKey: .id)
        name = try c.decode(String.self, forKey: .name)
        bookCount = try c.decodeIfPresent(Int.self, forKey: .bookCount) ?? 0
        isInbox = try c.decodeIfPresent(Bool.self, forKey: .isInbox) ?? false
        updatedAt = try c.decodeIfPresent(Date.self, forKey: .updatedAt)
    }
}

/// `GET /api/v1/collections/{id}/books` `data`: `{books:[{id,title,cover_path*}]}`.
public struct CollectionBooksResponse: Codable, Equatable, Sendable {
    public struct Book: Codable, Equatable, Sendable {
        public var id: String
        public var title: String?

        public init(id: String, title: String? = nil) {
            self.id = id
            self.title = title
        }
    }

    public var books: [Book]

    public init(books: [Book]) {
        self.books = books
    }
}

extension Endpoint where Response == GenresResponse {
    /// `GET /api/v1/genres`: the whole tree.
    public static var genres: Endpoint { Endpoint(method: .get, path: "/api/v1/genres", requiresAuth: true) }
}

extension Endpoint where Response == TagsResponse {
    /// `GET /api/v1/tags`: every tag.
    public static var tags: Endpoint { Endpoint(method: .get, path: "/api/v1/tags", requiresAuth: true) }
}

extension Endpoint where Response == CollectionsResponse {
    /// `GET /api/v1/libraries/{libraryId}/collections`.
    public static func collections(libraryID: String) -> Endpoint {
        Endpoint(method: .get, path: "/api/v1/libraries/\(segment(libraryID))/collections", requiresAuth: true)
    }
}

extension Endpoint where Response == CollectionBooksResponse {
    /// `GET /api/v1/collections/{id}/books`.
    public static func collectionBooks(collectionID: String) -> Endpoint {
        Endpoint(method: .get, path: "/api/v1/collections/\(segment(collectionID))/books", requiresAuth: true)
    }
}
