/// One book with all its child rows (`BookSyncPayload`, §3.5): an item of
/// the `books` domain and the value of `BookService.getBook`.
///
/// Fields with Kotlin defaults are omitted by the server when they hold the
/// default, and decode to it here: `hasScanWarning` false, `cover` nil,
/// `genres` and `documents` empty, `chapterSource` EMBEDDED,
/// `fieldProvenance` empty, `normalizationGainDb` nil. A non-nil
/// ``deletedAt`` marks a tombstone.
public struct BookSyncPayload: Codable, Sendable, Equatable {
    /// The book's id.
    public var id: String
    /// Its library.
    public var libraryId: String
    /// The library folder its files were found in.
    public var folderId: String
    /// The title.
    public var title: String
    /// The title to sort by, when it differs.
    public var sortTitle: String?
    /// The subtitle.
    public var subtitle: String?
    /// The description (may hold HTML from providers).
    public var description: String?
    /// The year of publication.
    public var publishYear: Int?
    /// The publisher.
    public var publisher: String?
    /// The language code, e.g. `en`.
    public var language: String?
    /// ISBN.
    public var isbn: String?
    /// Audible ASIN.
    public var asin: String?
    /// Abridged edition.
    public var abridged: Bool
    /// Explicit content.
    public var explicit: Bool
    /// The scanner left a warning (default false).
    public var hasScanWarning: Bool
    /// Milliseconds.
    public var totalDuration: Int64
    /// The cover, nil when the book has none.
    public var cover: CoverPayload?
    /// The book folder, relative to its library folder.
    public var rootRelPath: String
    /// The folder's inode, when known.
    public var inode: Int64?
    /// Epoch milliseconds.
    public var scannedAt: Int64
    /// Authors, narrators and other credits.
    public var contributors: [BookContributorPayload]
    /// Series memberships.
    public var series: [BookSeriesPayload]
    /// Genres (default empty).
    public var genres: [BookGenrePayload]
    /// Audio files in play order (by `index`).
    public var audioFiles: [BookAudioFilePayload]
    /// Supplementary documents (default empty).
    public var documents: [BookDocumentPayload]
    /// Chapters; `startTime` counts from the start of the book.
    public var chapters: [BookChapterPayload]
    /// Where the chapters came from (default EMBEDDED).
    public var chapterSource: ChapterSource
    /// Per-field provenance keyed by `BookField` name, e.g. `"TITLE"` (default empty).
    public var fieldProvenance: [String: FieldProvenancePayload]
    /// Loudness gain in dB from the file's tags (default nil).
    public var normalizationGainDb: Double?
    /// The row's global revision.
    public var revision: Int64
    /// Epoch milliseconds.
    public var updatedAt: Int64
    /// Epoch milliseconds.
    public var createdAt: Int64
    /// Epoch milliseconds; non-nil means the book was deleted.
    public var deletedAt: Int64?

    enum CodingKeys: String, CodingKey {
        case id, libraryId, folderId, title, sortTitle, subtitle, description, publishYear, publisher, language, isbn, asin
        case abridged, explicit, hasScanWarning, totalDuration, cover, rootRelPath, inode, scannedAt, contributors, series
        case genres, audioFiles, documents, chapters, chapterSource, fieldProvenance, normalizationGainDb, revision
        case updatedAt, createdAt, deletedAt
    }

    /// Creates a book with its required fields; the defaulted ones take their
    /// Kotlin defaults and can be set afterwards.
    public init(id: String, libraryId: String, folderId: String, title: String, totalDuration: Int64,
                rootRelPath: String, scannedAt: Int64, revision: Int64, updatedAt: Int64, createdAt: Int64) {
        self.id = id
        self.libraryId = libraryId
        self.folderId = folderId
        self.title = title
        self.abridged = false
        self.explicit = false
        self.hasScanWarning = false
        self.totalDuration = totalDuration
        self.rootRelPath = rootRelPath
        self.scannedAt = scannedAt
        self.contributors = []
        self.series = []
        self.genres = []
        self.audioFiles = []
        self.documents = []
        self.chapters = []
        self.chapterSource = .embedded
        self.fieldProvenance = [:]
        self.revision = revision
        self.updatedAt = updatedAt
        self.createdAt = createdAt
    }

    /// Decodes a book, filling the Kotlin defaults of omitted fields.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        id = try c.decode(String.self, forKey: .id)
        libraryId = try c.decode(String.self, forKey: .libraryId)
        folderId = try c.decode(String.self, forKey: .folderId)
        title = try c.decode(String.self, forKey: .title)
        sortTitle = try c.decodeIfPresent(String.self, forKey: .sortTitle)
        subtitle = try c.decodeIfPresent(String.self, forKey: .subtitle)
        description = try c.decodeIfPresent(String.self, forKey: .description)
        publishYear = try c.decodeIfPresent(Int.self, forKey: .publishYear)
        publisher = try c.decodeIfPresent(String.self, forKey: .publisher)
        language = try c.decodeIfPresent(String.self, forKey: .language)
        isbn = try c.decodeIfPresent(String.self, forKey: .isbn)
        asin = try c.decodeIfPresent(String.self, forKey: .asin)
        abridged = try c.decode(Bool.self, forKey: .abridged)
        explicit = try c.decode(Bool.self, forKey: .explicit)
        hasScanWarning = try c.decode(.hasScanWarning, default: false)
        totalDuration = try c.decode(Int64.self, forKey: .totalDuration)
        cover = try c.decodeIfPresent(CoverPayload.self, forKey: .cover)
        rootRelPath = try c.decode(String.self, forKey: .rootRelPath)
        inode = try c.decodeIfPresent(Int64.self, forKey: .inode)
        scannedAt = try c.decode(Int64.self, forKey: .scannedAt)
        contributors = try c.decode([BookContributorPayload].self, forKey: .contributors)
        series = try c.decode([BookSeriesPayload].self, forKey: .series)
        genres = try c.decode(.genres, default: [])
        audioFiles = try c.decode([BookAudioFilePayload].self, forKey: .audioFiles)
        documents = try c.decode(.documents, default: [])
        chapters = try c.decode([BookChapterPayload].self, forKey: .chapters)
        chapterSource = try c.decode(.chapterSource, default: .embedded)
        fieldProvenance = try c.decode(.fieldProvenance, default: [:])
        normalizationGainDb = try c.decodeIfPresent(Double.self, forKey: .normalizationGainDb)
        revision = try c.decode(Int64.self, forKey: .revision)
        updatedAt = try c.decode(Int64.self, forKey: .updatedAt)
        createdAt = try c.decode(Int64.self, forKey: .createdAt)
        deletedAt = try c.decodeIfPresent(Int64.self, forKey: .deletedAt)
    }

    /// Whether this row is a tombstone.
    public var isDeleted: Bool { deletedAt != nil }
}
