import Foundation

/// `GET /api/v1/library/status` `data` (contract §8.1).
public struct LibraryStatus: Codable, Equatable, Sendable {
    public var exists: Bool
    public var library: Library?
    public var needsSetup: Bool
    public var bookCount: Int
    public var isScanning: Bool

    enum CodingKeys: String, CodingKey {
        case exists, library
        case needsSetup = "needs_setup"
        case bookCount = "book_count"
        case isScanning = "is_scanning"
    }

    public init(exists: Bool, library: Library?, needsSetup: Bool, bookCount: Int, isScanning: Bool) {
        self.exists = exists
        self.library = library
        self.needsSetup = needsSetup
        self.bookCount = bookCount
        self.isScanning = isScanning
    }

    /// A library.
    public struct Library: Codable, Equatable, Sendable {
        public var id: String
        public var name: String
        public var ownerID: String
        public var scanPaths: [String]
        public var skipInbox: Bool
        /// `open` | `restricted`
        public var accessMode: String
        public var createdAt: Date
        public var updatedAt: Date

        enum CodingKeys: String, CodingKey {
            case id, name
            case ownerID = "owner_id"
            case scanPaths = "scan_paths"
            case skipInbox = "skip_inbox"
            case accessMode = "access_mode"
            case createdAt = "created_at"
            case updatedAt = "updated_at"
        }

        public init(id: String, name: String, ownerID: String, scanPaths: [String], skipInbox: Bool, accessMode: String,
                    createdAt: Date, updatedAt: Date) {
            self.id = id
            self.name = name
            self.ownerID = ownerID
            self.scanPaths = scanPaths
            self.skipInbox = skipInbox
            self.accessMode = accessMode
            self.createdAt = createdAt
            self.updatedAt = updatedAt
        }
    }
}

/// `GET /api/v1/books/{id}/progress` `data` (contract §10.2).
public struct ProgressResponse: Codable, Equatable, Sendable {
    public var userID: String
    public var bookID: String
    public var currentPositionMs: Int64
    public var totalDurationMs: Int64
    public var progress: Double
    public var totalListenTimeMs: Int64
    public var startedAt: Date
    public var lastPlayedAt: Date
    public var updatedAt: Date
    public var isFinished: Bool

    enum CodingKeys: String, CodingKey {
        case userID = "user_id"
        case bookID = "book_id"
        case currentPositionMs = "current_position_ms"
        case totalDurationMs = "total_duration_ms"
        case progress
        case totalListenTimeMs = "total_listen_time_ms"
        case startedAt = "started_at"
        case lastPlayedAt = "last_played_at"
        case updatedAt = "updated_at"
        case isFinished = "is_finished"
    }
}

/// `GET /api/v1/books` `data` (contract §8.2). The server never fills
/// `contributors` here and sends no covers or chapters: use `/sync/books`.
public struct ListBooksResponse: Codable, Equatable, Sendable {
    public var items: [BookResponse]
    public var total: Int
    /// Absent on the last page.
    public var nextCursor: String?

    enum CodingKeys: String, CodingKey {
        case items, total
        case nextCursor = "next_cursor"
    }

    public init(items: [BookResponse], total: Int, nextCursor: String?) {
        self.items = items
        self.total = total
        self.nextCursor = nextCursor
    }
}

/// One book of `/api/v1/books` (contract §8.2).
public struct BookResponse: Codable, Equatable, Sendable, Identifiable {
    public var id: String
    public var title: String
    public var subtitle: String?
    public var description: String?
    public var publisher: String?
    public var publishYear: String?
    public var language: String?
    /// Milliseconds.
    public var duration: Int64
    /// Bytes.
    public var size: Int64
    public var asin: String?
    public var isbn: String?
    public var contributors: [BookContributor]
    public var series: [SeriesInfo]?
    public var genreIDs: [String]?
    public var audioFiles: [File]
    public var createdAt: Date
    public var updatedAt: Date

    /// An audio file as `/books` lists it (fewer fields than `/sync/books`).
    public struct File: Codable, Equatable, Sendable {
        /// `af-<hex inode>`
        public var id: String
        public var path: String
        /// Milliseconds.
        public var duration: Int64
        public var size: Int64
        /// The file extension.
        public var format: String
        public var codec: String
        public var bitrate: Int

        public init(id: String, path: String, duration: Int64, size: Int64, format: String, codec: String, bitrate: Int) {
            self.id = id
            self.path = path
            self.duration = duration
            self.size = size
            self.format = format
            self.codec = codec
            self.bitrate = bitrate
        }
    }

    enum CodingKeys: String, CodingKey {
        case id, title, subtitle, description, publisher
        case publishYear = "publish_year"
        case language, duration, size, asin, isbn, contributors, series
        case genreIDs = "genre_ids"
        case audioFiles = "audio_files"
        case createdAt = "created_at"
        case updatedAt = "updated_at"
    }

    public init(id: String, title: String, duration: Int64, size: Int64, contributors: [BookContributor] = [],
                audioFiles: [File], createdAt: Date, updatedAt: Date) {
        self.id = id
        self.title = title
        self.duration = duration
        self.size = size
        self.contributors = contributors
        self.audioFiles = audioFiles
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }
}

extension Endpoint where Response == ListBooksResponse {
    /// `GET /api/v1/books` (limit 1–100).
    public static func books(limit: Int = 50, cursor: String? = nil) -> Endpoint {
        var query: [(name: String, value: String)] = [("limit", String(limit))]
        if let cursor { query.append(("cursor", cursor)) }
        return Endpoint(method: .get, path: "/api/v1/books", query: query, requiresAuth: true)
    }
}
