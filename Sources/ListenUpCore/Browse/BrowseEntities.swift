import Foundation

/// A person credited on books (author, narrator, translator, …) as the
/// server describes them: the seam's own type, which both protocols map
/// into (REST v1 `/api/v1/sync/contributors`, kRPC's `contributors` domain,
/// `ContributorSyncPayload`).
public struct Contributor: Codable, Equatable, Sendable, Identifiable {
    public var id: String
    public var name: String
    /// The name as it sorts ("Tolkien, J. R. R."); nil: sort by ``name``.
    public var sortName: String?
    /// A biography, possibly HTML.
    public var description: String?
    /// What names the photo's version: kRPC's content-addressed path (a
    /// new path is a new photo), REST v1's image URL with the row's update
    /// time; nil when there is none.
    public var imagePath: String?
    /// When the server last changed the row.
    public var updatedAt: Date

    public init(id: String, name: String, sortName: String? = nil, description: String? = nil, imagePath: String? = nil,
                updatedAt: Date) {
        self.id = id
        self.name = name
        self.sortName = sortName
        self.description = description
        self.imagePath = imagePath
        self.updatedAt = updatedAt
    }
}

/// A series as the server describes it (REST v1 `/api/v1/sync/series`,
/// kRPC's `series` domain, `SeriesSyncPayload`). Which books are in it, and
/// at what place, comes with each book.
public struct Series: Codable, Equatable, Sendable, Identifiable {
    public var id: String
    public var name: String
    public var sortName: String?
    public var description: String?
    /// The server's path of the series cover; nil when there is none.
    public var coverPath: String?
    public var updatedAt: Date

    public init(id: String, name: String, sortName: String? = nil, description: String? = nil, coverPath: String? = nil,
                updatedAt: Date) {
        self.id = id
        self.name = name
        self.sortName = sortName
        self.description = description
        self.coverPath = coverPath
        self.updatedAt = updatedAt
    }
}

/// One page of a browse domain's rows (contributors or series), as
/// ``ServerConnection/syncContributors(limit:cursor:updatedAfter:)`` gives it:
/// the rows changed, the ids deleted, and where the next page starts. The
/// cursor rules are the books' (``SyncBooksResponse``): a cursor on the
/// last page (kRPC) is where the next delta starts.
public struct EntityPage<Entity: Sendable & Equatable>: Sendable, Equatable {
    public var entities: [Entity]
    public var deletedIDs: [String]
    public var nextCursor: String?
    public var hasMore: Bool
    /// The rows are every row there is: those kept that are not among them
    /// are gone (REST v1's facet lists, which have no sync feed).
    public var replacesAll: Bool

    public init(entities: [Entity], deletedIDs: [String] = [], nextCursor: String? = nil, hasMore: Bool = false,
                replacesAll: Bool = false) {
        self.entities = entities
        self.deletedIDs = deletedIDs
        self.nextCursor = nextCursor
        self.hasMore = hasMore
        self.replacesAll = replacesAll
    }
}

/// The browse domains the library keeps beside its books.
public enum BrowseDomain: String, CaseIterable, Sendable, Codable {
    case contributors
    case series
    // The facets (BrowseEntities+Facets.swift); the junctions after what they join.
    case genres
    case tags
    case bookTags = "book_tags"
    case moods
    case bookMoods = "book_moods"
    case collections
    case collectionBooks = "collection_books"
    /// The user's shelves (BrowseEntities+Shelves.swift).
    case shelves
    /// The books on them, one row each (kRPC; REST v1 lists them with the shelves).
    case shelfBooks = "shelf_books"
    /// Every user's public profile (BrowseEntities+Social.swift; kRPC only).
    case publicProfiles = "public_profiles"
    /// The activity feed, append-only (kRPC only).
    case activities
}

/// A page of one browse domain's rows.
public enum BrowseRows: Sendable, Equatable {
    case contributors(EntityPage<Contributor>)
    case series(EntityPage<Series>)
    case genres(EntityPage<Genre>)
    case tags(EntityPage<Tag>)
    case bookTags(EntityPage<BookMembership>)
    case moods(EntityPage<Mood>)
    case bookMoods(EntityPage<BookMembership>)
    case collections(EntityPage<LibraryCollection>)
    case collectionBooks(EntityPage<BookMembership>)
    /// The user's shelves (kRPC's `shelves` rows: their books come as ``shelfBooks(_:)``).
    case shelves(EntityPage<Shelf>)
    /// The books on the user's shelves (kRPC's `shelf_books` rows).
    case shelfBooks(EntityPage<ShelfBook>)
    /// Every shelf of the user with its books (REST v1, which has no sync
    /// feed): what the cache keeps is replaced by it.
    case allShelves([Shelf])
    /// Every user's public profile (kRPC's `public_profiles` rows).
    case publicProfiles(EntityPage<PublicProfile>)
    /// The activity feed's rows (kRPC's `activities`): kept once, never rewritten.
    case activities(EntityPage<Activity>)

    /// How many rows it changes or deletes.
    public var count: Int {
        switch self {
        case .contributors(let page): page.entities.count + page.deletedIDs.count
        case .series(let page): page.entities.count + page.deletedIDs.count
        case .shelves(let page): page.entities.count + page.deletedIDs.count
        case .shelfBooks(let page): page.entities.count + page.deletedIDs.count
        case .allShelves(let shelves): shelves.count
        case .publicProfiles(let page): page.entities.count + page.deletedIDs.count
        case .activities(let page): page.entities.count + page.deletedIDs.count
        default: facetSummary?.count ?? 0
        }
    }

    public var nextCursor: String? {
        switch self {
        case .contributors(let page): page.nextCursor
        case .series(let page): page.nextCursor
        case .shelves(let page): page.nextCursor
        case .shelfBooks(let page): page.nextCursor
        case .allShelves: nil
        case .publicProfiles(let page): page.nextCursor
        case .activities(let page): page.nextCursor
        default: facetSummary?.nextCursor
        }
    }

    public var hasMore: Bool {
        switch self {
        case .contributors(let page): page.hasMore
        case .series(let page): page.hasMore
        case .shelves(let page): page.hasMore
        case .shelfBooks(let page): page.hasMore
        case .allShelves: false
        case .publicProfiles(let page): page.hasMore
        case .activities(let page): page.hasMore
        default: facetSummary?.hasMore ?? false
        }
    }

    /// The newest change among the rows.
    public var newestUpdate: Date? {
        switch self {
        case .contributors(let page): page.entities.map(\.updatedAt).max()
        case .series(let page): page.entities.map(\.updatedAt).max()
        case .shelves(let page): page.entities.map(\.updatedAt).max()
        case .shelfBooks(let page): page.entities.map(\.updatedAt).max()
        case .allShelves(let shelves): shelves.map(\.updatedAt).max()
        case .publicProfiles(let page): page.entities.map(\.updatedAt).max()
        case .activities(let page): page.entities.map(\.updatedAt).max()
        default: facetSummary?.newest
        }
    }
}
