import Foundation

// The facet domains' rows (contract v0.9 addendum §2.2), upstream
// `contract/src/commonMain/kotlin/com/calypsan/listenup/api/sync/`
// (ListenUpApp/ListenUp): `GenreSyncPayload.kt`, `Tag.kt`, `Mood.kt`,
// `BookTagSyncPayload.kt`, `BookMoodSyncPayload.kt`,
// `CollectionSyncPayload.kt`, `CollectionBookSyncPayload.kt`. Keys the
// Kotlin side defaults are omitted when equal to the default (K§1.4) and
// decode to it here; a required key missing fails the row.

/// A genre of the tree (`GenreSyncPayload`), domain `genres`.
public struct GenreSyncPayload: Codable, Sendable, Equatable {
    public var id: String
    public var name: String
    public var slug: String
    /// Slash-separated slug path from the root.
    public var path: String
    /// Default nil (a root).
    public var parentId: String?
    /// Default 0.
    public var depth: Int
    /// Default 0.
    public var sortOrder: Int
    /// Default nil.
    public var color: String?
    /// Default nil.
    public var description: String?
    /// Default 0.
    public var revision: Int64
    /// Epoch milliseconds, default 0.
    public var updatedAt: Int64
    /// Epoch milliseconds, default 0.
    public var createdAt: Int64
    /// Non-nil on a tombstone.
    public var deletedAt: Int64?

    /// Creates a genre; each parameter sets the property of the same name.
    public init(id: String, name: String, slug: String, path: String, parentId: String? = nil, depth: Int = 0, sortOrder: Int = 0,
                color: String? = nil, description: String? = nil, revision: Int64 = 0, updatedAt: Int64 = 0, createdAt: Int64 = 0,
                deletedAt: Int64? = nil) {
        self.id = id
        self.name = name
        self.slug = slug
        self.path = path
        self.parentId = parentId
        self.depth = depth
        self.sortOrder = sortOrder
        self.color = color
        self.description = description
        self.revision = revision
        self.updatedAt = updatedAt
        self.createdAt = createdAt
        self.deletedAt = deletedAt
    }

    private enum CodingKeys: String, CodingKey {
        case id, name, slug, path, parentId, depth, sortOrder, color, description, revision, updatedAt, createdAt, deletedAt
    }

    /// Decodes a genre, filling the Kotlin defaults.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        id = try c.decode(String.self, forKey: .id)
        name = try c.decode(String.self, forKey: .name)
        slug = try c.decode(String.self, forKey: .slug)
        path = try c.decode(String.self, forKey: .path)
        parentId = try c.decodeIfPresent(String.self, forKey: .parentId)
        depth = try c.decode(.depth, default: 0)
        sortOrder = try c.decode(.sortOrder, default: 0)
        color = try c.decodeIfPresent(String.self, forKey: .color)
        description = try c.decodeIfPresent(String.self, forKey: .description)
        revision = try c.decode(.revision, default: 0)
        updatedAt = try c.decode(.updatedAt, default: 0)
        createdAt = try c.decode(.createdAt, default: 0)
        deletedAt = try c.decodeIfPresent(Int64.self, forKey: .deletedAt)
    }

    /// A tombstone.
    public var isDeleted: Bool { deletedAt != nil }
}

/// A tag (`Tag`, domain `tags`) or a mood (`Mood`, domain `moods`): the
/// two payloads have the same keys. No `createdAt`.
public struct LabelSyncPayload: Codable, Sendable, Equatable {
    public var id: String
    public var name: String
    public var slug: String
    public var revision: Int64
    /// Epoch milliseconds.
    public var updatedAt: Int64
    /// Non-nil on a tombstone.
    public var deletedAt: Int64?

    /// Creates a tag or mood; each parameter sets the property of the same name.
    public init(id: String, name: String, slug: String, revision: Int64, updatedAt: Int64, deletedAt: Int64? = nil) {
        self.id = id
        self.name = name
        self.slug = slug
        self.revision = revision
        self.updatedAt = updatedAt
        self.deletedAt = deletedAt
    }

    /// A tombstone.
    public var isDeleted: Bool { deletedAt != nil }
}

/// A book in a tag, mood or collection: `BookTagSyncPayload` (`bookId`,
/// `tagId`), `BookMoodSyncPayload` (`bookId`, `moodId`) or
/// `CollectionBookSyncPayload` (`collectionId`, `bookId`), read into one
/// shape. A tombstone's ids are blanked to `""` (§2.1): the row is known by
/// its ``id`` alone.
public struct MembershipSyncPayload: Decodable, Sendable, Equatable {
    /// Which junction the row belongs to (the key of its group's id).
    public enum Group: String, Sendable {
        case tag = "tagId"
        case mood = "moodId"
        case collection = "collectionId"
    }

    public var id: String
    public var bookId: String
    /// The tag's, mood's or collection's id.
    public var groupId: String
    /// Epoch milliseconds.
    public var createdAt: Int64
    public var revision: Int64
    /// Non-nil on a tombstone.
    public var deletedAt: Int64?

    /// Creates a row; each parameter sets the property of the same name.
    public init(id: String, bookId: String, groupId: String, createdAt: Int64, revision: Int64, deletedAt: Int64? = nil) {
        self.id = id
        self.bookId = bookId
        self.groupId = groupId
        self.createdAt = createdAt
        self.revision = revision
        self.deletedAt = deletedAt
    }

    private struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    /// Decodes a row of any of the three junctions: the group's id is the
    /// one of `tagId`, `moodId`, `collectionId` present.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Key.self)
        id = try c.decode(String.self, forKey: Key(stringValue: "id"))
        bookId = try c.decode(String.self, forKey: Key(stringValue: "bookId"))
        guard let group = [Group.tag, .mood, .collection].first(where: { c.contains(Key(stringValue: $0.rawValue)) }) else {
            throw DecodingError.keyNotFound(Key(stringValue: "tagId"), .init(codingPath: c.codingPath,
                                                                             debugDescription: "no tagId, moodId or collectionId"))
        }
        groupId = try c.decode(String.self, forKey: Key(stringValue: group.rawValue))
        createdAt = try c.decode(Int64.self, forKey: Key(stringValue: "createdAt"))
        revision = try c.decode(Int64.self, forKey: Key(stringValue: "revision"))
        deletedAt = try c.decodeIfPresent(Int64.self, forKey: Key(stringValue: "deletedAt"))
    }

    /// A tombstone.
    public var isDeleted: Bool { deletedAt != nil }
}

/// A collection (`CollectionSyncPayload`), domain `collections`. A
/// tombstone's `libraryId`, `ownerId` and `name` are blanked.
public struct CollectionSyncPayload: Codable, Sendable, Equatable {
    public var id: String
    public var libraryId: String
    public var ownerId: String
    public var name: String
    /// Default false.
    public var isInbox: Bool
    /// Default false; the server's own `ALL_BOOKS`/`INBOX` rows (admins only).
    public var isSystem: Bool
    public var revision: Int64
    /// Epoch milliseconds.
    public var updatedAt: Int64
    /// Non-nil on a tombstone.
    public var deletedAt: Int64?

    /// Creates a collection; each parameter sets the property of the same name.
    public init(id: String, libraryId: String, ownerId: String, name: String, isInbox: Bool = false, isSystem: Bool = false,
                revision: Int64, updatedAt: Int64, deletedAt: Int64? = nil) {
        self.id = id
        self.libraryId = libraryId
        self.ownerId = ownerId
        self.name = name
        self.isInbox = isInbox
        self.isSystem = isSystem
        self.revision = revision
        self.updatedAt = updatedAt
        self.deletedAt = deletedAt
    }

    private enum CodingKeys: String, CodingKey {
        case id, libraryId, ownerId, name, isInbox, isSystem, revision, updatedAt, deletedAt
    }

    /// Decodes a collection, filling the Kotlin defaults.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        id = try c.decode(String.self, forKey: .id)
        libraryId = try c.decode(String.self, forKey: .libraryId)
        ownerId = try c.decode(String.self, forKey: .ownerId)
        name = try c.decode(String.self, forKey: .name)
        isInbox = try c.decode(.isInbox, default: false)
        isSystem = try c.decode(.isSystem, default: false)
        revision = try c.decode(Int64.self, forKey: .revision)
        updatedAt = try c.decode(Int64.self, forKey: .updatedAt)
        deletedAt = try c.decodeIfPresent(Int64.self, forKey: .deletedAt)
    }

    /// A tombstone.
    public var isDeleted: Bool { deletedAt != nil }
}

extension SyncDomain {
    /// `genres` (``GenreSyncPayload``).
    public static let genres = SyncDomain(rawValue: "genres")
    /// `tags` (``LabelSyncPayload``).
    public static let tags = SyncDomain(rawValue: "tags")
    /// `book_tags` (``MembershipSyncPayload``).
    public static let bookTags = SyncDomain(rawValue: "book_tags")
    /// `moods` (``LabelSyncPayload``).
    public static let moods = SyncDomain(rawValue: "moods")
    /// `book_moods` (``MembershipSyncPayload``).
    public static let bookMoods = SyncDomain(rawValue: "book_moods")
    /// `collections` (``CollectionSyncPayload``).
    public static let collections = SyncDomain(rawValue: "collections")
    /// `collection_books` (``MembershipSyncPayload``).
    public static let collectionBooks = SyncDomain(rawValue: "collection_books")
}
