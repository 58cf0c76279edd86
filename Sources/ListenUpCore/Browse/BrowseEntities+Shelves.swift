import Foundation

/// Who made a shelf the user did not make (a discovered shelf).
public struct ShelfOwner: Codable, Equatable, Sendable {
    public var id: String
    /// The name the server shows for them.
    public var name: String

    public init(id: String, name: String) {
        self.id = id
        self.name = name
    }
}

/// A shelf: a named, ordered list of books a user keeps (the seam's own
/// type). Mine come from kRPC's `shelves` domain (`ShelfSyncPayload`, its
/// books from `shelf_books`) or REST v1's `GET /api/v1/shelves` with
/// `GET /api/v1/shelves/{id}`; someone else's from `discoverShelves`
/// (kRPC) or `GET /api/v1/shelves/discover` (REST v1).
public struct Shelf: Codable, Equatable, Sendable, Identifiable {
    public var id: String
    public var name: String
    /// Plain text; empty when there is none.
    public var description: String
    /// Only its owner sees it; nil where the server has no such flag (REST v1).
    public var isPrivate: Bool?
    /// Its books in the shelf's order (a kRPC shelf row alone has none: its
    /// books come as ``ShelfBook`` rows).
    public var bookIDs: [String]
    public var updatedAt: Date
    /// Who made it; nil for the user's own shelves.
    public var owner: ShelfOwner?

    public init(id: String, name: String, description: String = "", isPrivate: Bool? = nil, bookIDs: [String] = [],
                updatedAt: Date, owner: ShelfOwner? = nil) {
        self.id = id
        self.name = name
        self.description = description
        self.isPrivate = isPrivate
        self.bookIDs = bookIDs
        self.updatedAt = updatedAt
        self.owner = owner
    }
}

/// One book on one of the user's shelves, as kRPC's `shelf_books` domain
/// gives it (`ShelfBookSyncPayload`): keyed by its own opaque id, never by
/// the pair (a tombstone blanks `shelfId` and `bookId`; re-adding the book
/// brings the same id back to life, contract addendum §2.1).
public struct ShelfBook: Codable, Equatable, Sendable, Identifiable {
    public var id: String
    public var shelfID: String
    public var bookID: String
    /// Ascending is the shelf's order.
    public var sortOrder: Int
    public var updatedAt: Date

    public init(id: String, shelfID: String, bookID: String, sortOrder: Int, updatedAt: Date) {
        self.id = id
        self.shelfID = shelfID
        self.bookID = bookID
        self.sortOrder = sortOrder
        self.updatedAt = updatedAt
    }
}

/// The rules a shelf's name follows before it is sent (the servers refuse
/// the rest: kRPC's `ShelfError.InvalidName`, trimmed 1…200; the Go server
/// documents 1…100 but does not check it, contract addendum §7).
public enum ShelfName {
    /// The name as it is sent: trimmed.
    public static func cleaned(_ name: String) -> String {
        name.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Why `name` cannot be sent (a ``ShelfProblem``), nil when it can.
    public static func problem(_ name: String, limit: Int) -> ShelfProblem? {
        let cleaned = cleaned(name)
        if cleaned.isEmpty { return ShelfProblem(code: "invalidName", message: tr("Give the shelf a name.")) }
        if cleaned.count > limit {
            // TRANSLATORS: %@ is a number of characters, such as 100.
            return ShelfProblem(code: "invalidName", message: tr("A shelf's name can have at most %@ characters.", String(limit)))
        }
        return nil
    }
}

/// Why a change to a shelf was not made, in words for the user.
public struct ShelfProblem: Error, Equatable, Sendable {
    /// Machine-readable (headless `code`): `invalidName`, `notFound`,
    /// `forbidden`, or a ``ServerError/code``.
    public var code: String
    public var message: String

    public init(code: String, message: String) {
        self.code = code
        self.message = message
    }

    /// A server's refusal of a shelf change: a missing shelf or book and a
    /// refusal to a non-owner said plainly, the rest as any server error.
    public init(_ error: ServerError) {
        switch error {
        case .server(404, _):
            self.init(code: "notFound", message: tr("That shelf or book is no longer on the server."))
        case .server(403, _):
            self.init(code: "forbidden", message: tr("Only the shelf's owner can change it."))
        case .server(400, let message) where !message.isEmpty:
            self.init(code: "invalidName", message: error.userMessage)
        default:
            self.init(code: error.code, message: error.userMessage)
        }
    }
}
