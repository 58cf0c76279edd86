import Foundation

/// `GET /api/v1/sync/books` `data` (contract §8.4).
public struct SyncBooksResponse: Codable, Equatable, Sendable {
    /// Absent on the last page.
    public var nextCursor: String?
    public var books: [SyncBook]
    /// On the first page of a delta sync only.
    public var deletedBookIDs: [String]?
    public var hasMore: Bool

    enum CodingKeys: String, CodingKey {
        case nextCursor = "next_cursor"
        case books
        case deletedBookIDs = "deleted_book_ids"
        case hasMore = "has_more"
    }

    public init(nextCursor: String?, books: [SyncBook], deletedBookIDs: [String]? = nil, hasMore: Bool) {
        self.nextCursor = nextCursor
        self.books = books
        self.deletedBookIDs = deletedBookIDs
        self.hasMore = hasMore
    }
}

/// The complete book model (`dto.Book`), as `/sync/books` sends it.
/// Optional properties are the contract's omitempty fields.
public struct SyncBook: Codable, Equatable, Sendable, Identifiable {
    public var createdAt: Date
    public var updatedAt: Date
    public var deletedAt: Date?
    public var id: String
    public var scannedAt: Date?
    public var coverImage: CoverImage?
    public var isbn: String?
    public var title: String
    public var subtitle: String?
    public var path: String
    public var description: String?
    public var publisher: String?
    public var publishYear: String?
    public var language: String?
    public var asin: String?
    public var audibleRegion: String?
    public var genreIDs: [String]?
    public var series: [SeriesLink]?
    public var audioFiles: [AudioFile]
    public var chapters: [Chapter]?
    /// Milliseconds.
    public var totalDuration: Int64
    /// Bytes.
    public var totalSize: Int64
    public var abridged: Bool?
    public var contributors: [BookContributor]
    public var author: String?
    public var narrator: String?
    public var seriesInfo: [SeriesInfo]?
    public var seriesName: String?
    public var genres: [String]?
    public var tags: [Tag]?

    enum CodingKeys: String, CodingKey {
        case createdAt = "created_at"
        case updatedAt = "updated_at"
        case deletedAt = "deleted_at"
        case id
        case scannedAt = "scanned_at"
        case coverImage = "cover_image"
        case isbn, title, subtitle, path, description, publisher
        case publishYear = "publish_year"
        case language, asin
        case audibleRegion = "audible_region"
        case genreIDs = "genre_ids"
        case series
        case audioFiles = "audio_files"
        case chapters
        case totalDuration = "total_duration"
        case totalSize = "total_size"
        case abridged, contributors, author, narrator
        case seriesInfo = "series_info"
        case seriesName = "series_name"
        case genres, tags
    }

    public init(createdAt: Date, updatedAt: Date, id: String, title: String, path: String, audioFiles: [AudioFile],
                totalDuration: Int64, totalSize: Int64, contributors: [BookContributor]) {
        self.createdAt = createdAt
        self.updatedAt = updatedAt
        self.id = id
        self.title = title
        self.path = path
        self.audioFiles = audioFiles
        self.totalDuration = totalDuration
        self.totalSize = totalSize
        self.contributors = contributors
    }

    /// Names of contributors with `role`, in order.
    public func names(withRole role: String) -> [String] {
        contributors.filter { $0.roles.contains(role) }.map(\.name)
    }
}

/// `cover_image`: only a hint that a cover exists (scanned books have an empty path).
public struct CoverImage: Codable, Equatable, Sendable {
    public var path: String
    public var filename: String
    /// A MIME type for scanned books.
    public var format: String
    public var size: Int64
    public var inode: Int64
    public var modTime: Int64
    public var blurHash: String?

    enum CodingKeys: String, CodingKey {
        case path, filename, format, size, inode
        case modTime = "mod_time"
        case blurHash = "blur_hash"
    }

    public init(path: String, filename: String, format: String, size: Int64, inode: Int64 = 0, modTime: Int64 = 0, blurHash: String? = nil) {
        self.path = path
        self.filename = filename
        self.format = format
        self.size = size
        self.inode = inode
        self.modTime = modTime
        self.blurHash = blurHash
    }
}

/// One audio file of a book.
public struct AudioFile: Codable, Equatable, Sendable {
    /// `af-<hex inode>`
    public var id: String
    public var path: String
    public var filename: String
    public var format: String
    public var codec: String?
    public var size: Int64
    /// Milliseconds.
    public var duration: Int64
    public var bitrate: Int?
    public var inode: Int64
    /// Unix milliseconds.
    public var modTime: Int64

    enum CodingKeys: String, CodingKey {
        case id, path, filename, format, codec, size, duration, bitrate, inode
        case modTime = "mod_time"
    }

    public init(id: String, path: String, filename: String, format: String, codec: String?, size: Int64, duration: Int64,
                bitrate: Int?, inode: Int64, modTime: Int64) {
        self.id = id
        self.path = path
        self.filename = filename
        self.format = format
        self.codec = codec
        self.size = size
        self.duration = duration
        self.bitrate = bitrate
        self.inode = inode
        self.modTime = modTime
    }
}

/// A chapter on the book's timeline (milliseconds).
public struct Chapter: Codable, Equatable, Sendable {
    public var title: String
    public var audioFileID: String
    public var index: Int
    public var startTime: Int64
    public var endTime: Int64
    /// The chapter's own id, where the server has one (today's server's
    /// `BookChapterPayload.id`, sent back as a position's
    /// `currentChapterId`); the Go server's chapters have none.
    public var id: String?

    enum CodingKeys: String, CodingKey {
        case title
        case audioFileID = "audio_file_id"
        case index
        case startTime = "start_time"
        case endTime = "end_time"
        case id
    }

    public init(title: String, audioFileID: String, index: Int, startTime: Int64, endTime: Int64, id: String? = nil) {
        self.title = title
        self.audioFileID = audioFileID
        self.index = index
        self.startTime = startTime
        self.endTime = endTime
        self.id = id
    }
}

/// A contributor and their roles (author, narrator, translator, …).
public struct BookContributor: Codable, Equatable, Sendable {
    public var contributorID: String
    public var name: String
    public var roles: [String]
    public var creditedAs: String?

    enum CodingKeys: String, CodingKey {
        case contributorID = "contributor_id"
        case name, roles
        case creditedAs = "credited_as"
    }

    public init(contributorID: String, name: String, roles: [String], creditedAs: String? = nil) {
        self.contributorID = contributorID
        self.name = name
        self.roles = roles
        self.creditedAs = creditedAs
    }
}

/// `series`: a link to a series with the book's place in it.
public struct SeriesLink: Codable, Equatable, Sendable {
    public var seriesID: String
    public var sequence: String?

    enum CodingKeys: String, CodingKey {
        case seriesID = "series_id"
        case sequence
    }

    public init(seriesID: String, sequence: String? = nil) {
        self.seriesID = seriesID
        self.sequence = sequence
    }
}

/// `series_info`: a series with its name.
public struct SeriesInfo: Codable, Equatable, Sendable {
    public var seriesID: String
    public var name: String
    public var sequence: String?

    enum CodingKeys: String, CodingKey {
        case seriesID = "series_id"
        case name, sequence
    }

    public init(seriesID: String, name: String, sequence: String? = nil) {
        self.seriesID = seriesID
        self.name = name
        self.sequence = sequence
    }
}

/// A tag on a book.
public struct Tag: Codable, Equatable, Sendable {
    public var id: String
    public var slug: String
    public var bookCount: Int

    enum CodingKeys: String, CodingKey {
        case id, slug
        case bookCount = "book_count"
    }

    public init(id: String, slug: String, bookCount: Int) {
        self.id = id
        self.slug = slug
        self.bookCount = bookCount
    }
}
