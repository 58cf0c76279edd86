import Foundation

// Shelves on REST v1 (contract addendum §7; the Go server's
// `internal/api/shelf_handlers.go` @ 121397e). No sync feed: the list is
// read whole; no private flag, no reorder. The server broadcasts
// `shelf.created`, `shelf.updated`, `shelf.deleted`, `shelf.book_added`
// and `shelf.book_removed` on `/api/v1/sync/events` (`internal/sse/events.go`).

/// A shelf's owner (`ShelfOwnerResponse`).
public struct ShelfOwnerResponse: Codable, Equatable, Sendable {
    public var id: String
    public var displayName: String
    public var avatarColor: String

    enum CodingKeys: String, CodingKey {
        case id
        case displayName = "display_name"
        case avatarColor = "avatar_color"
    }

    public init(id: String, displayName: String, avatarColor: String) {
        self.id = id
        self.displayName = displayName
        self.avatarColor = avatarColor
    }
}

/// A shelf in a list (`ShelfResponse`): counts, no books.
public struct ShelfResponse: Codable, Equatable, Sendable, Identifiable {
    public var id: String
    public var name: String
    public var description: String
    public var owner: ShelfOwnerResponse
    public var bookCount: Int
    /// Seconds.
    public var totalDuration: Int64
    public var createdAt: Date
    public var updatedAt: Date

    enum CodingKeys: String, CodingKey {
        case id, name, description, owner
        case bookCount = "book_count"
        case totalDuration = "total_duration"
        case createdAt = "created_at"
        case updatedAt = "updated_at"
    }

    public init(id: String, name: String, description: String, owner: ShelfOwnerResponse, bookCount: Int, totalDuration: Int64,
                createdAt: Date, updatedAt: Date) {
        self.id = id
        self.name = name
        self.description = description
        self.owner = owner
        self.bookCount = bookCount
        self.totalDuration = totalDuration
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }
}

/// `GET /api/v1/shelves` `data`: the caller's shelves.
public struct ListShelvesResponse: Codable, Equatable, Sendable {
    public var shelves: [ShelfResponse]

    public init(shelves: [ShelfResponse]) {
        self.shelves = shelves
    }
}

/// A book of a shelf's detail (`ShelfBookResponse`).
public struct ShelfBookResponse: Codable, Equatable, Sendable {
    public var id: String
    public var title: String
    public var authorNames: [String]
    public var coverPath: String?
    public var durationSeconds: Int64

    enum CodingKeys: String, CodingKey {
        case id, title
        case authorNames = "author_names"
        case coverPath = "cover_path"
        case durationSeconds = "duration_seconds"
    }

    public init(id: String, title: String, authorNames: [String], coverPath: String? = nil, durationSeconds: Int64) {
        self.id = id
        self.title = title
        self.authorNames = authorNames
        self.coverPath = coverPath
        self.durationSeconds = durationSeconds
    }
}

/// `GET /api/v1/shelves/{id}` `data`: the shelf with the books the caller
/// can see, in the shelf's order.
public struct ShelfDetailResponse: Codable, Equatable, Sendable {
    public var id: String
    public var name: String
    public var description: String
    public var owner: ShelfOwnerResponse
    public var bookCount: Int
    public var totalDuration: Int64
    public var books: [ShelfBookResponse]
    public var createdAt: Date
    public var updatedAt: Date

    enum CodingKeys: String, CodingKey {
        case id, name, description, owner
        case bookCount = "book_count"
        case totalDuration = "total_duration"
        case books
        case createdAt = "created_at"
        case updatedAt = "updated_at"
    }

    public init(id: String, name: String, description: String, owner: ShelfOwnerResponse, bookCount: Int, totalDuration: Int64,
                books: [ShelfBookResponse], createdAt: Date, updatedAt: Date) {
        self.id = id
        self.name = name
        self.description = description
        self.owner = owner
        self.bookCount = bookCount
        self.totalDuration = totalDuration
        self.books = books
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }
}

/// `GET /api/v1/shelves/discover` `data`: others' shelves, by owner.
public struct DiscoverShelvesResponse: Codable, Equatable, Sendable {
    public struct UserShelves: Codable, Equatable, Sendable {
        public var user: ShelfOwnerResponse
        public var shelves: [ShelfResponse]

        public init(user: ShelfOwnerResponse, shelves: [ShelfResponse]) {
            self.user = user
            self.shelves = shelves
        }
    }

    public var users: [UserShelves]

    public init(users: [UserShelves]) {
        self.users = users
    }
}

/// `POST /api/v1/shelves` and `PATCH /api/v1/shelves/{id}` body: both keys required.
public struct ShelfRequest: Codable, Equatable, Sendable {
    public var name: String
    public var description: String

    public init(name: String, description: String) {
        self.name = name
        self.description = description
    }
}

/// `POST /api/v1/shelves/{id}/books` body.
public struct AddBooksToShelfRequest: Codable, Equatable, Sendable {
    public var bookIDs: [String]

    enum CodingKeys: String, CodingKey { case bookIDs = "book_ids" }

    public init(bookIDs: [String]) {
        self.bookIDs = bookIDs
    }
}

extension Endpoint where Response == ListShelvesResponse {
    /// `GET /api/v1/shelves`.
    public static var shelves: Endpoint { Endpoint(method: .get, path: "/api/v1/shelves", requiresAuth: true) }
}

extension Endpoint where Response == DiscoverShelvesResponse {
    /// `GET /api/v1/shelves/discover`.
    public static var discoverShelves: Endpoint { Endpoint(method: .get, path: "/api/v1/shelves/discover", requiresAuth: true) }
}

extension Endpoint where Response == ShelfDetailResponse {
    /// `GET /api/v1/shelves/{id}`.
    public static func shelf(id: String) -> Endpoint {
        Endpoint(method: .get, path: "/api/v1/shelves/\(segment(id))", requiresAuth: true)
    }
}

extension Endpoint where Response == ShelfResponse {
    /// `POST /api/v1/shelves`.
    public static func createShelf(_ request: ShelfRequest) -> Endpoint {
        Endpoint(method: .post, path: "/api/v1/shelves", body: json(request), requiresAuth: true)
    }

    /// `PATCH /api/v1/shelves/{id}`.
    public static func updateShelf(id: String, _ request: ShelfRequest) -> Endpoint {
        Endpoint(method: .patch, path: "/api/v1/shelves/\(segment(id))", body: json(request), requiresAuth: true)
    }
}

extension Endpoint where Response == MessageResponse {
    /// `DELETE /api/v1/shelves/{id}`.
    public static func deleteShelf(id: String) -> Endpoint {
        Endpoint(method: .delete, path: "/api/v1/shelves/\(segment(id))", requiresAuth: true)
    }

    /// `POST /api/v1/shelves/{id}/books`.
    public static func addBooks(_ bookIDs: [String], toShelf id: String) -> Endpoint {
        Endpoint(method: .post, path: "/api/v1/shelves/\(segment(id))/books", body: json(AddBooksToShelfRequest(bookIDs: bookIDs)),
                 requiresAuth: true)
    }

    /// `DELETE /api/v1/shelves/{id}/books/{bookId}`.
    public static func removeBook(_ bookID: String, fromShelf id: String) -> Endpoint {
        Endpoint(method: .delete, path: "/api/v1/shelves/\(segment(id))/books/\(segment(bookID))", requiresAuth: true)
    }
}
