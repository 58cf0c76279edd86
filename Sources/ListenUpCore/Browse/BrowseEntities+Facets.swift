import Foundation

// The facets beside the series and people (issue 26): the server's genre
// tree, tags, moods and collections, and which books each holds. kRPC
// syncs each as a domain of its own (`genres`, `tags`, `book_tags`,
// `moods`, `book_moods`, `collections`, `collection_books`, contract v0.9
// addendum §2); REST v1 has lists only (§7), which its connection serves as
// pages that replace what was kept (``EntityPage/replacesAll``).

/// A genre of the server's tree (kRPC `GenreSyncPayload`,
/// `contract/src/commonMain/kotlin/com/calypsan/listenup/api/sync/GenreSyncPayload.kt`;
/// REST v1 `GET /api/v1/genres`). Its name and place in the tree win over
/// the copies the books carry.
public struct Genre: Codable, Equatable, Sendable, Identifiable {
    public var id: String
    public var name: String
    public var slug: String
    /// The slash-separated slug path from the root (`fiction/fantasy`, or
    /// `/fiction/fantasy`): the genres under it have paths that start with it.
    public var path: String
    /// The genre it is under; nil at the root.
    public var parentID: String?
    /// 0 at the root.
    public var depth: Int
    /// The curator's order among its siblings.
    public var sortOrder: Int
    public var updatedAt: Date

    public init(id: String, name: String, slug: String, path: String, parentID: String? = nil, depth: Int = 0, sortOrder: Int = 0,
                updatedAt: Date) {
        self.id = id
        self.name = name
        self.slug = slug
        self.path = path
        self.parentID = parentID
        self.depth = depth
        self.sortOrder = sortOrder
        self.updatedAt = updatedAt
    }
}

/// A tag (kRPC `Tag`, `api/sync/Tag.kt`; REST v1 `GET /api/v1/tags`, which
/// has no name: the slug made readable stands for it, ``readableName(slug:)``).
public struct Tag: Codable, Equatable, Sendable, Identifiable {
    public var id: String
    public var name: String
    public var slug: String
    public var updatedAt: Date

    public init(id: String, name: String, slug: String, updatedAt: Date) {
        self.id = id
        self.name = name
        self.slug = slug
        self.updatedAt = updatedAt
    }

    /// A slug as a name: `slow-burn` → "Slow burn".
    public static func readableName(slug: String) -> String {
        let words = slug.split(whereSeparator: { $0 == "-" || $0 == "_" }).joined(separator: " ")
        guard let first = words.first else { return slug }
        return first.uppercased() + words.dropFirst()
    }
}

/// A mood (kRPC `Mood`, `api/sync/Mood.kt`): the same shape as a tag. REST
/// v1 has no moods.
public typealias Mood = Tag

/// A collection of books (kRPC `CollectionSyncPayload`; REST v1
/// `GET /api/v1/libraries/{libraryId}/collections`). Not called
/// `Collection`, which would hide Swift's protocol of that name.
public struct LibraryCollection: Codable, Equatable, Sendable, Identifiable {
    public var id: String
    public var name: String
    /// The server's own `ALL_BOOKS`/inbox collections (admins see them).
    public var isSystem: Bool
    public var updatedAt: Date

    public init(id: String, name: String, isSystem: Bool = false, updatedAt: Date) {
        self.id = id
        self.name = name
        self.isSystem = isSystem
        self.updatedAt = updatedAt
    }
}

/// One book in a tag, mood or collection: a junction row (`book_tags`,
/// `book_moods`, `collection_books`), kept by its own opaque ``id``, never
/// by the pair: a tombstone arrives with both ids blanked, and the same
/// id comes back when the book is added again (addendum §2.1, §8.5).
public struct BookMembership: Codable, Equatable, Sendable, Identifiable {
    public var id: String
    public var bookID: String
    /// The tag, mood or collection.
    public var groupID: String
    public var updatedAt: Date

    public init(id: String, bookID: String, groupID: String, updatedAt: Date) {
        self.id = id
        self.bookID = bookID
        self.groupID = groupID
        self.updatedAt = updatedAt
    }
}

extension BrowseDomain {
    /// The junction domains (their rows are ``BookMembership``s).
    public var isMembership: Bool {
        switch self {
        case .bookTags, .bookMoods, .collectionBooks: true
        default: false
        }
    }
}

extension BrowseRows {
    /// The domain the rows belong to.
    public var domain: BrowseDomain {
        switch self {
        case .contributors: .contributors
        case .series: .series
        case .genres: .genres
        case .tags: .tags
        case .bookTags: .bookTags
        case .moods: .moods
        case .bookMoods: .bookMoods
        case .collections: .collections
        case .collectionBooks: .collectionBooks
        case .shelves, .allShelves: .shelves
        case .shelfBooks: .shelfBooks
        case .publicProfiles: .publicProfiles
        case .activities: .activities
        }
    }

    /// A page of `domain` with no rows (a server that has none of them).
    public static func empty(_ domain: BrowseDomain) -> BrowseRows {
        switch domain {
        case .contributors: .contributors(EntityPage(entities: []))
        case .series: .series(EntityPage(entities: []))
        case .genres: .genres(EntityPage(entities: []))
        case .tags: .tags(EntityPage(entities: []))
        case .bookTags: .bookTags(EntityPage(entities: []))
        case .moods: .moods(EntityPage(entities: []))
        case .bookMoods: .bookMoods(EntityPage(entities: []))
        case .collections: .collections(EntityPage(entities: []))
        case .collectionBooks: .collectionBooks(EntityPage(entities: []))
        case .shelves: .shelves(EntityPage(entities: []))
        case .shelfBooks: .shelfBooks(EntityPage(entities: []))
        case .publicProfiles: .publicProfiles(EntityPage(entities: []))
        case .activities: .activities(EntityPage(entities: []))
        }
    }

    /// The facets of the page: how many rows, where it ends, the newest row.
    var facetSummary: (count: Int, nextCursor: String?, hasMore: Bool, newest: Date?)? {
        func summary<Entity>(_ page: EntityPage<Entity>, _ dates: [Date]) -> (count: Int, nextCursor: String?, hasMore: Bool, newest: Date?) {
            (page.entities.count + page.deletedIDs.count, page.nextCursor, page.hasMore, dates.max())
        }
        switch self {
        case .contributors, .series, .shelves, .shelfBooks, .allShelves, .publicProfiles, .activities: return nil
        case .genres(let page): return summary(page, page.entities.map(\.updatedAt))
        case .tags(let page), .moods(let page): return summary(page, page.entities.map(\.updatedAt))
        case .collections(let page): return summary(page, page.entities.map(\.updatedAt))
        case .bookTags(let page), .bookMoods(let page), .collectionBooks(let page): return summary(page, page.entities.map(\.updatedAt))
        }
    }
}
