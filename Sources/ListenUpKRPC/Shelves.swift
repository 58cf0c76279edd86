// Shelves on the wire (addendum §2.1, §2.2, §3.6): the `shelves` and
// `shelf_books` sync domains (user-scoped: the caller's own rows only) and
// `ShelfService`'s DTOs. Upstream (ListenUpApp/ListenUp @ 58e0084):
// `contract/src/commonMain/kotlin/com/calypsan/listenup/api/sync/ShelfSyncPayload.kt`
// (both payloads), `.../api/dto/shelf/ShelfDtos.kt`, `.../api/ShelfService.kt`.
// Kotlin omits a defaulted field at its default (`encodeDefaults = false`,
// §1.4): these types decode it so and encode the same way (the demo server).

/// One of the caller's shelves (`ShelfSyncPayload`), domain `shelves`.
/// No owner on the wire: the domain holds the caller's own shelves.
public struct ShelfSyncPayload: Codable, Sendable, Equatable {
    public var id: String
    public var name: String
    /// Default `""`.
    public var description: String
    /// Default false.
    public var isPrivate: Bool
    public var revision: Int64
    /// Epoch milliseconds.
    public var updatedAt: Int64
    /// Epoch milliseconds.
    public var createdAt: Int64
    /// Non-nil on a tombstone (default null).
    public var deletedAt: Int64?

    /// Creates a row; each parameter sets the property of the same name.
    public init(id: String, name: String, description: String = "", isPrivate: Bool = false, revision: Int64, updatedAt: Int64,
                createdAt: Int64, deletedAt: Int64? = nil) {
        self.id = id
        self.name = name
        self.description = description
        self.isPrivate = isPrivate
        self.revision = revision
        self.updatedAt = updatedAt
        self.createdAt = createdAt
        self.deletedAt = deletedAt
    }

    private enum CodingKeys: String, CodingKey { case id, name, description, isPrivate, revision, updatedAt, createdAt, deletedAt }

    /// Decodes a row; omitted defaults take their Kotlin values.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(id: try c.decode(String.self, forKey: .id), name: try c.decode(String.self, forKey: .name),
                  description: try c.decode(.description, default: ""), isPrivate: try c.decode(.isPrivate, default: false),
                  revision: try c.decode(Int64.self, forKey: .revision), updatedAt: try c.decode(Int64.self, forKey: .updatedAt),
                  createdAt: try c.decode(Int64.self, forKey: .createdAt), deletedAt: try c.decodeIfPresent(Int64.self, forKey: .deletedAt))
    }

    /// Encodes as Kotlin does: defaults omitted.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(id, forKey: .id)
        try c.encode(name, forKey: .name)
        if !description.isEmpty { try c.encode(description, forKey: .description) }
        if isPrivate { try c.encode(isPrivate, forKey: .isPrivate) }
        try c.encode(revision, forKey: .revision)
        try c.encode(updatedAt, forKey: .updatedAt)
        try c.encode(createdAt, forKey: .createdAt)
        try c.encodeIfPresent(deletedAt, forKey: .deletedAt)
    }

    /// A tombstone.
    public var isDeleted: Bool { deletedAt != nil }
}

/// One book on one of the caller's shelves (`ShelfBookSyncPayload`),
/// domain `shelf_books`. A tombstone has `shelfId` and `bookId` blanked to
/// `""`: key the row by `id`, never by the pair; re-adding the book reuses
/// the id (addendum §2.1, §8 item 5).
public struct ShelfBookSyncPayload: Codable, Sendable, Equatable {
    public var id: String
    public var shelfId: String
    public var bookId: String
    /// Ascending = the shelf's order.
    public var sortOrder: Int
    public var revision: Int64
    /// Epoch milliseconds.
    public var updatedAt: Int64
    /// Epoch milliseconds.
    public var createdAt: Int64
    /// Non-nil on a tombstone (default null).
    public var deletedAt: Int64?

    /// Creates a row; each parameter sets the property of the same name.
    public init(id: String, shelfId: String, bookId: String, sortOrder: Int, revision: Int64, updatedAt: Int64, createdAt: Int64,
                deletedAt: Int64? = nil) {
        self.id = id
        self.shelfId = shelfId
        self.bookId = bookId
        self.sortOrder = sortOrder
        self.revision = revision
        self.updatedAt = updatedAt
        self.createdAt = createdAt
        self.deletedAt = deletedAt
    }

    /// A tombstone.
    public var isDeleted: Bool { deletedAt != nil }
}

/// `ShelfService`'s `Shelf` DTO (`@SerialName("Shelf")`): every field required.
public struct ShelfDTO: Codable, Sendable, Equatable {
    public var id: String
    public var name: String
    public var description: String
    public var isPrivate: Bool
    public var bookCount: Int
    /// Epoch milliseconds.
    public var updatedAt: Int64

    /// Creates a shelf; each parameter sets the property of the same name.
    public init(id: String, name: String, description: String, isPrivate: Bool, bookCount: Int, updatedAt: Int64) {
        self.id = id
        self.name = name
        self.description = description
        self.isPrivate = isPrivate
        self.bookCount = bookCount
        self.updatedAt = updatedAt
    }
}

/// `ShelfBookView`: a book of a `ShelfDetail`.
public struct ShelfBookView: Codable, Sendable, Equatable {
    public var bookId: String
    public var title: String
    public var authors: [String]

    /// Creates a view; each parameter sets the property of the same name.
    public init(bookId: String, title: String, authors: [String]) {
        self.bookId = bookId
        self.title = title
        self.authors = authors
    }
}

/// `ShelfDetail` (`getShelf`): books in `sort_order`, visible ones only for another user.
public struct ShelfDetailDTO: Codable, Sendable, Equatable {
    public var id: String
    public var name: String
    public var description: String
    public var isPrivate: Bool
    public var isOwner: Bool
    public var books: [ShelfBookView]
    public var bookCount: Int
    public var totalDurationMs: Int64

    /// Creates a detail; each parameter sets the property of the same name.
    public init(id: String, name: String, description: String, isPrivate: Bool, isOwner: Bool, books: [ShelfBookView], bookCount: Int,
                totalDurationMs: Int64) {
        self.id = id
        self.name = name
        self.description = description
        self.isPrivate = isPrivate
        self.isOwner = isOwner
        self.books = books
        self.bookCount = bookCount
        self.totalDurationMs = totalDurationMs
    }
}

/// `DiscoveredShelf` (`discoverShelves`): another user's public shelf.
public struct DiscoveredShelfDTO: Codable, Sendable, Equatable {
    public var shelf: ShelfDTO
    public var ownerId: String
    public var ownerDisplayName: String

    /// Creates an entry; each parameter sets the property of the same name.
    public init(shelf: ShelfDTO, ownerId: String, ownerDisplayName: String) {
        self.shelf = shelf
        self.ownerId = ownerId
        self.ownerDisplayName = ownerDisplayName
    }
}

/// `createShelf(name, description, isPrivate)`: every parameter sent (§0).
public struct CreateShelfArguments: Codable, Sendable, Equatable {
    public var name: String
    public var description: String
    public var isPrivate: Bool

    /// Creates the arguments; each parameter sets the property of the same name.
    public init(name: String, description: String, isPrivate: Bool) {
        self.name = name
        self.description = description
        self.isPrivate = isPrivate
    }
}

/// `updateShelf(shelfId, name, description, isPrivate)`.
public struct UpdateShelfArguments: Codable, Sendable, Equatable {
    public var shelfId: String
    public var name: String
    public var description: String
    public var isPrivate: Bool

    /// Creates the arguments; each parameter sets the property of the same name.
    public init(shelfId: String, name: String, description: String, isPrivate: Bool) {
        self.shelfId = shelfId
        self.name = name
        self.description = description
        self.isPrivate = isPrivate
    }
}

/// `deleteShelf(shelfId)`, `getShelf(shelfId)`.
public struct ShelfIDArguments: Codable, Sendable, Equatable {
    public var shelfId: String

    /// Creates the arguments.
    public init(shelfId: String) {
        self.shelfId = shelfId
    }
}

/// `addBookToShelf(shelfId, bookId)`, `removeBookFromShelf(shelfId, bookId)`.
public struct ShelfBookArguments: Codable, Sendable, Equatable {
    public var shelfId: String
    public var bookId: String

    /// Creates the arguments; each parameter sets the property of the same name.
    public init(shelfId: String, bookId: String) {
        self.shelfId = shelfId
        self.bookId = bookId
    }
}

/// `discoverShelves(limit)`: the limit is always sent (§0); the server clamps it to 1…200.
public struct DiscoverShelvesArguments: Codable, Sendable, Equatable {
    public var limit: Int

    /// Creates the arguments.
    public init(limit: Int = 50) {
        self.limit = limit
    }
}

extension KRPCServiceType {
    /// `ShelfService` (authed): the caller's shelves and others' public ones.
    public static let shelfService = KRPCServiceType(listenUp: "ShelfService")
}

extension KRPCMethod {
    /// `createShelf(name, description, isPrivate)` → `AppResult<Shelf>`; at most once (a second send makes a second shelf).
    public static let createShelf = KRPCMethod(service: .shelfService, name: "createShelf")
    /// `updateShelf(shelfId, name, description, isPrivate)` → `AppResult<Shelf>`; the same values twice change nothing.
    public static let updateShelf = KRPCMethod(service: .shelfService, name: "updateShelf", delivery: .retryOnce)
    /// `deleteShelf(shelfId)` → `AppResult<Unit>`; at most once (a second send answers `NotFound`).
    public static let deleteShelf = KRPCMethod(service: .shelfService, name: "deleteShelf")
    /// `addBookToShelf(shelfId, bookId)` → `AppResult<Unit>`; idempotent on the server.
    public static let addBookToShelf = KRPCMethod(service: .shelfService, name: "addBookToShelf", delivery: .retryOnce)
    /// `removeBookFromShelf(shelfId, bookId)` → `AppResult<Unit>`; idempotent on the server.
    public static let removeBookFromShelf = KRPCMethod(service: .shelfService, name: "removeBookFromShelf", delivery: .retryOnce)
    /// `getShelf(shelfId)` → `AppResult<ShelfDetail>` (a read).
    public static let getShelf = KRPCMethod(service: .shelfService, name: "getShelf", delivery: .retryOnce)
    /// `discoverShelves(limit)` → `AppResult<List<DiscoveredShelf>>` (a read).
    public static let discoverShelves = KRPCMethod(service: .shelfService, name: "discoverShelves", delivery: .retryOnce)
}

extension SyncDomain {
    /// `shelves` (``ShelfSyncPayload``), user-scoped.
    public static let shelves = SyncDomain(rawValue: "shelves")
    /// `shelf_books` (``ShelfBookSyncPayload``), user-scoped.
    public static let shelfBooks = SyncDomain(rawValue: "shelf_books")
}
