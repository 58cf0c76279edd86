import Foundation

/// One book as a server describes it, in the app's own terms: what a sync
/// page (``ServerBooksPage``) brings across the seam (``ServerConnection``),
/// whichever protocol carried it. REST v1 maps its `SyncBook` into it and
/// kRPC its `BookSyncPayload`, both at their edge in `ListenUpLive`; the
/// cache keeps what it needs of it (``CachedBook``, ``BookDetails``,
/// ``BookLinks``). Never stored as it is, so it has no coding keys.
public struct ServerBook: Equatable, Sendable, Identifiable {
    /// A person credited on the book, with every role they have on it.
    public struct Contributor: Equatable, Sendable {
        /// The person's id (the browse domain's ``ListenUpCore/Contributor``).
        public var id: String
        public var name: String
        /// `author`, `narrator`, `translator`, …, in the server's order.
        public var roles: [String]
        /// The name as this book credits the person, when it differs.
        public var creditedAs: String?

        public init(id: String, name: String, roles: [String], creditedAs: String? = nil) {
            self.id = id
            self.name = name
            self.roles = roles
            self.creditedAs = creditedAs
        }
    }

    /// One audio file of the book.
    public struct AudioFile: Equatable, Sendable {
        public var id: String
        public var format: String
        public var codec: String?
        /// Bytes, as the server reported.
        public var size: Int64
        /// Milliseconds.
        public var duration: Int64
        public var bitrate: Int?

        public init(id: String, format: String, codec: String? = nil, size: Int64, duration: Int64, bitrate: Int? = nil) {
            self.id = id
            self.format = format
            self.codec = codec
            self.size = size
            self.duration = duration
            self.bitrate = bitrate
        }
    }

    /// A chapter on the book's timeline (milliseconds from its start).
    public struct Chapter: Equatable, Sendable {
        /// The server's id of the chapter, where it has one (kRPC; REST
        /// v1's chapters have none).
        public var id: String?
        public var title: String
        /// The audio file the chapter starts in.
        public var audioFileID: String
        public var startTime: Int64
        public var endTime: Int64

        public init(id: String? = nil, title: String, audioFileID: String, startTime: Int64, endTime: Int64) {
            self.id = id
            self.title = title
            self.audioFileID = audioFileID
            self.startTime = startTime
            self.endTime = endTime
        }
    }

    /// A tag on the book, by its slug (`slow-burn`).
    public struct Tag: Equatable, Sendable {
        public var id: String
        public var slug: String

        public init(id: String, slug: String) {
            self.id = id
            self.slug = slug
        }
    }

    /// A series the book is in, with its place (`sequence`: "1", "2.5").
    public typealias SeriesPlace = BookLinks.SeriesPlace
    /// A genre of the book, with its slug path when the server gives one.
    public typealias Genre = BookLinks.Genre

    public var id: String
    public var title: String
    public var subtitle: String?
    /// The server's description, HTML included.
    public var description: String?
    public var publisher: String?
    public var publishYear: String?
    public var language: String?
    public var isbn: String?
    public var asin: String?
    public var abridged: Bool?
    public var createdAt: Date
    public var updatedAt: Date
    /// The server has a cover for the book.
    public var hasCover: Bool
    /// Everyone credited, one entry per person with all their roles, in order.
    public var contributors: [Contributor]
    /// The server's own line of authors, for a book with no contributor
    /// in that role (REST v1's `author`).
    public var author: String?
    /// The same for narrators.
    public var narrator: String?
    public var series: [SeriesPlace]
    public var genres: [Genre]
    public var tags: [Tag]
    /// The audio files in play order.
    public var audioFiles: [AudioFile]
    public var chapters: [Chapter]
    /// Milliseconds.
    public var totalDuration: Int64
    /// Bytes.
    public var totalSize: Int64
    /// The server's revision of the book (kRPC, what its library digest
    /// hashes); nil on REST v1, which has none.
    public var revision: Int64?

    public init(id: String, title: String, createdAt: Date, updatedAt: Date, subtitle: String? = nil, description: String? = nil,
                publisher: String? = nil, publishYear: String? = nil, language: String? = nil, isbn: String? = nil, asin: String? = nil,
                abridged: Bool? = nil, hasCover: Bool = false, contributors: [Contributor] = [], author: String? = nil,
                narrator: String? = nil, series: [SeriesPlace] = [], genres: [Genre] = [], tags: [Tag] = [],
                audioFiles: [AudioFile] = [], chapters: [Chapter] = [], totalDuration: Int64 = 0, totalSize: Int64 = 0,
                revision: Int64? = nil) {
        self.id = id
        self.title = title
        self.createdAt = createdAt
        self.updatedAt = updatedAt
        self.subtitle = subtitle
        self.description = description
        self.publisher = publisher
        self.publishYear = publishYear
        self.language = language
        self.isbn = isbn
        self.asin = asin
        self.abridged = abridged
        self.hasCover = hasCover
        self.contributors = contributors
        self.author = author
        self.narrator = narrator
        self.series = series
        self.genres = genres
        self.tags = tags
        self.audioFiles = audioFiles
        self.chapters = chapters
        self.totalDuration = totalDuration
        self.totalSize = totalSize
        self.revision = revision
    }

    /// Names of contributors with `role`, in order.
    public func names(withRole role: String) -> [String] {
        contributors.filter { $0.roles.contains(role) }.map(\.name)
    }
}

/// One page of a books sync, as any server's connection gives it: the
/// books added or changed, the ids of those deleted, and where the next
/// page starts.
public struct ServerBooksPage: Equatable, Sendable {
    public var books: [ServerBook]
    /// Books gone since the delta's start (on the first page of a delta
    /// sync, or on any page of a kRPC sync).
    public var deletedBookIDs: [String]
    /// Where the next page starts; on the last page, a server that names
    /// one says where the next delta starts (kRPC), REST v1 names none.
    public var nextCursor: String?
    public var hasMore: Bool

    public init(books: [ServerBook], deletedBookIDs: [String] = [], nextCursor: String? = nil, hasMore: Bool = false) {
        self.books = books
        self.deletedBookIDs = deletedBookIDs
        self.nextCursor = nextCursor
        self.hasMore = hasMore
    }
}
