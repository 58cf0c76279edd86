import Foundation

/// `GET /api/v1/sync/contributors` `data` (contract §8.4; the Go server's
/// `SyncContributorsResponse`, `internal/api/sync_handlers.go`). The paging
/// rules are `/sync/books`'s: the index cursor, `updated_after` for a delta.
public struct SyncContributorsResponse: Codable, Equatable, Sendable {
    /// Absent on the last page.
    public var nextCursor: String?
    public var contributors: [SyncContributor]
    /// On the first page of a delta sync only.
    public var deletedContributorIDs: [String]?
    public var hasMore: Bool

    enum CodingKeys: String, CodingKey {
        case nextCursor = "next_cursor"
        case contributors
        case deletedContributorIDs = "deleted_contributor_ids"
        case hasMore = "has_more"
    }

    public init(nextCursor: String?, contributors: [SyncContributor], deletedContributorIDs: [String]? = nil, hasMore: Bool) {
        self.nextCursor = nextCursor
        self.contributors = contributors
        self.deletedContributorIDs = deletedContributorIDs
        self.hasMore = hasMore
    }
}

/// One contributor as `/sync/contributors` sends it (the Go server's
/// `SyncContributorResponse`). Optional properties are its omitempty fields.
public struct SyncContributor: Codable, Equatable, Sendable, Identifiable {
    public var id: String
    public var name: String
    /// "Sanderson, Brandon".
    public var sortName: String?
    /// The biography (REST's name for kRPC's `description`), possibly HTML.
    public var biography: String?
    /// Where the photo is (`/api/v1/contributors/{id}/image`).
    public var imageURL: String?
    public var imageBlurHash: String?
    public var website: String?
    /// ISO 8601 dates (`1947-09-21`).
    public var birthDate: String?
    public var deathDate: String?
    /// Pen names.
    public var aliases: [String]?
    /// Audible's author id.
    public var asin: String?
    public var createdAt: Date
    public var updatedAt: Date

    enum CodingKeys: String, CodingKey {
        case id, name
        case sortName = "sort_name"
        case biography
        case imageURL = "image_url"
        case imageBlurHash = "image_blur_hash"
        case website
        case birthDate = "birth_date"
        case deathDate = "death_date"
        case aliases, asin
        case createdAt = "created_at"
        case updatedAt = "updated_at"
    }

    public init(id: String, name: String, sortName: String? = nil, biography: String? = nil, imageURL: String? = nil,
                createdAt: Date, updatedAt: Date) {
        self.id = id
        self.name = name
        self.sortName = sortName
        self.biography = biography
        self.imageURL = imageURL
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }
}

/// `GET /api/v1/sync/series` `data` (the Go server's `SyncSeriesResponse`,
/// `internal/api/sync_handlers.go`); paged like `/sync/books`.
public struct SyncSeriesResponse: Codable, Equatable, Sendable {
    /// Absent on the last page.
    public var nextCursor: String?
    public var series: [SyncSeriesItem]
    /// On the first page of a delta sync only.
    public var deletedSeriesIDs: [String]?
    public var hasMore: Bool

    enum CodingKeys: String, CodingKey {
        case nextCursor = "next_cursor"
        case series
        case deletedSeriesIDs = "deleted_series_ids"
        case hasMore = "has_more"
    }

    public init(nextCursor: String?, series: [SyncSeriesItem], deletedSeriesIDs: [String]? = nil, hasMore: Bool) {
        self.nextCursor = nextCursor
        self.series = series
        self.deletedSeriesIDs = deletedSeriesIDs
        self.hasMore = hasMore
    }
}

/// One series as `/sync/series` sends it (the Go server's
/// `SyncSeriesItemResponse`). REST v1 has no sort name for a series.
public struct SyncSeriesItem: Codable, Equatable, Sendable, Identifiable {
    public var id: String
    public var name: String
    public var description: String?
    /// The stored cover's file facts; the Go server serves no series cover
    /// (contract v0.9 §7), so this is only a hint that one exists.
    public var coverImage: CoverImage?
    /// Audible's series id.
    public var asin: String?
    public var createdAt: Date
    public var updatedAt: Date

    enum CodingKeys: String, CodingKey {
        case id, name, description
        case coverImage = "cover_image"
        case asin
        case createdAt = "created_at"
        case updatedAt = "updated_at"
    }

    public init(id: String, name: String, description: String? = nil, coverImage: CoverImage? = nil, asin: String? = nil,
                createdAt: Date, updatedAt: Date) {
        self.id = id
        self.name = name
        self.description = description
        self.coverImage = coverImage
        self.asin = asin
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }
}
