/// The caller's position in one book (`PlaybackPositionSyncPayload`, §3.5):
/// an item of `playback_positions` and what the playback methods return.
public struct PlaybackPositionSyncPayload: Codable, Sendable, Equatable {
    /// The position row's id.
    public var id: String
    /// The book.
    public var bookId: String
    /// Milliseconds from the start of the book.
    public var positionMs: Int64
    /// Epoch milliseconds; the latest wins.
    public var lastPlayedAt: Int64
    /// Whether the book was finished.
    public var finished: Bool
    /// e.g. 1.25.
    public var playbackSpeed: Double
    /// The chapter at the position.
    public var currentChapterId: String?
    /// Volume boost in dB (default 0).
    public var volumeBoostDb: Double
    /// Measured loudness gain in dB (default nil).
    public var measuredGainDb: Double?
    /// The row's global revision.
    public var revision: Int64
    /// Epoch milliseconds.
    public var updatedAt: Int64
    /// Epoch milliseconds.
    public var createdAt: Int64
    /// Non-nil on a tombstone.
    public var deletedAt: Int64?

    /// Creates a position; each parameter sets the property of the same name.
    public init(id: String, bookId: String, positionMs: Int64, lastPlayedAt: Int64, finished: Bool, playbackSpeed: Double,
                currentChapterId: String?, volumeBoostDb: Double = 0, measuredGainDb: Double? = nil, revision: Int64,
                updatedAt: Int64, createdAt: Int64, deletedAt: Int64? = nil) {
        self.id = id
        self.bookId = bookId
        self.positionMs = positionMs
        self.lastPlayedAt = lastPlayedAt
        self.finished = finished
        self.playbackSpeed = playbackSpeed
        self.currentChapterId = currentChapterId
        self.volumeBoostDb = volumeBoostDb
        self.measuredGainDb = measuredGainDb
        self.revision = revision
        self.updatedAt = updatedAt
        self.createdAt = createdAt
        self.deletedAt = deletedAt
    }

    private enum CodingKeys: String, CodingKey {
        case id, bookId, positionMs, lastPlayedAt, finished, playbackSpeed, currentChapterId, volumeBoostDb
        case measuredGainDb, revision, updatedAt, createdAt, deletedAt
    }

    /// Decodes a position; omitted `volumeBoostDb` is 0.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(id: try c.decode(String.self, forKey: .id), bookId: try c.decode(String.self, forKey: .bookId),
                  positionMs: try c.decode(Int64.self, forKey: .positionMs),
                  lastPlayedAt: try c.decode(Int64.self, forKey: .lastPlayedAt),
                  finished: try c.decode(Bool.self, forKey: .finished),
                  playbackSpeed: try c.decode(Double.self, forKey: .playbackSpeed),
                  currentChapterId: try c.decodeIfPresent(String.self, forKey: .currentChapterId),
                  volumeBoostDb: try c.decode(.volumeBoostDb, default: 0),
                  measuredGainDb: try c.decodeIfPresent(Double.self, forKey: .measuredGainDb),
                  revision: try c.decode(Int64.self, forKey: .revision),
                  updatedAt: try c.decode(Int64.self, forKey: .updatedAt),
                  createdAt: try c.decode(Int64.self, forKey: .createdAt),
                  deletedAt: try c.decodeIfPresent(Int64.self, forKey: .deletedAt))
    }
}

/// One stretch of listening (`ListeningEventSyncPayload`, §3.5).
public struct ListeningEventSyncPayload: Codable, Sendable, Equatable {
    /// The client-generated UUID.
    public var id: String
    /// The book.
    public var bookId: String
    /// Milliseconds from the start of the book.
    public var startPositionMs: Int64
    /// Milliseconds from the start of the book.
    public var endPositionMs: Int64
    /// Epoch milliseconds.
    public var startedAt: Int64
    /// Epoch milliseconds.
    public var endedAt: Int64
    /// e.g. 1.25.
    public var playbackSpeed: Double
    /// IANA time zone.
    public var tz: String
    /// The device's label.
    public var deviceLabel: String?
    /// The row's global revision.
    public var revision: Int64
    /// Epoch milliseconds.
    public var updatedAt: Int64
    /// Epoch milliseconds.
    public var createdAt: Int64
    /// Non-nil on a tombstone.
    public var deletedAt: Int64?

    /// Creates an event; each parameter sets the property of the same name.
    public init(id: String, bookId: String, startPositionMs: Int64, endPositionMs: Int64, startedAt: Int64,
                endedAt: Int64, playbackSpeed: Double, tz: String, deviceLabel: String?, revision: Int64,
                updatedAt: Int64, createdAt: Int64, deletedAt: Int64? = nil) {
        self.id = id
        self.bookId = bookId
        self.startPositionMs = startPositionMs
        self.endPositionMs = endPositionMs
        self.startedAt = startedAt
        self.endedAt = endedAt
        self.playbackSpeed = playbackSpeed
        self.tz = tz
        self.deviceLabel = deviceLabel
        self.revision = revision
        self.updatedAt = updatedAt
        self.createdAt = createdAt
        self.deletedAt = deletedAt
    }
}

/// A contributor (`ContributorSyncPayload`, §3.5), domain `contributors`:
/// upstream `contract/src/commonMain/kotlin/com/calypsan/listenup/api/sync/ContributorSyncPayload.kt`
/// (ListenUpApp/ListenUp). Omitted defaults decode to nil (`asin`,
/// `description`, `imagePath`, `birthDate`, `deathDate`, `website`) and
/// empty (`aliases`); `sortName` and `deletedAt` have no default (always
/// written, maybe `null`), read leniently as ``BookSyncPayload``'s are.
public struct ContributorSyncPayload: Codable, Sendable, Equatable {
    /// The id.
    public var id: String
    /// The name.
    public var name: String
    /// The name to sort by.
    public var sortName: String?
    /// The row's global revision.
    public var revision: Int64
    /// Epoch milliseconds.
    public var updatedAt: Int64
    /// Epoch milliseconds.
    public var createdAt: Int64
    /// Non-nil on a tombstone.
    public var deletedAt: Int64?
    /// Audible ASIN (default nil).
    public var asin: String?
    /// Biography (default nil).
    public var description: String?
    /// Server path of the portrait (default nil).
    public var imagePath: String?
    /// Free-form date (default nil).
    public var birthDate: String?
    /// Free-form date (default nil).
    public var deathDate: String?
    /// Home page (default nil).
    public var website: String?
    /// Other names (default empty).
    public var aliases: [String]

    /// Creates a contributor; each parameter sets the property of the same name.
    public init(id: String, name: String, sortName: String? = nil, revision: Int64, updatedAt: Int64, createdAt: Int64,
                deletedAt: Int64? = nil, asin: String? = nil, description: String? = nil, imagePath: String? = nil,
                birthDate: String? = nil, deathDate: String? = nil, website: String? = nil, aliases: [String] = []) {
        self.id = id
        self.name = name
        self.sortName = sortName
        self.revision = revision
        self.updatedAt = updatedAt
        self.createdAt = createdAt
        self.deletedAt = deletedAt
        self.asin = asin
        self.description = description
        self.imagePath = imagePath
        self.birthDate = birthDate
        self.deathDate = deathDate
        self.website = website
        self.aliases = aliases
    }

    private enum CodingKeys: String, CodingKey {
        case id, name, sortName, revision, updatedAt, createdAt, deletedAt, asin, description, imagePath, birthDate
        case deathDate, website, aliases
    }

    /// Decodes a contributor, filling the Kotlin defaults.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        id = try c.decode(String.self, forKey: .id)
        name = try c.decode(String.self, forKey: .name)
        sortName = try c.decodeIfPresent(String.self, forKey: .sortName)
        revision = try c.decode(Int64.self, forKey: .revision)
        updatedAt = try c.decode(Int64.self, forKey: .updatedAt)
        createdAt = try c.decode(Int64.self, forKey: .createdAt)
        deletedAt = try c.decodeIfPresent(Int64.self, forKey: .deletedAt)
        asin = try c.decodeIfPresent(String.self, forKey: .asin)
        description = try c.decodeIfPresent(String.self, forKey: .description)
        imagePath = try c.decodeIfPresent(String.self, forKey: .imagePath)
        birthDate = try c.decodeIfPresent(String.self, forKey: .birthDate)
        deathDate = try c.decodeIfPresent(String.self, forKey: .deathDate)
        website = try c.decodeIfPresent(String.self, forKey: .website)
        aliases = try c.decode(.aliases, default: [])
    }
}

/// A series (`SeriesSyncPayload`, §3.5), domain `series`: upstream
/// `contract/src/commonMain/kotlin/com/calypsan/listenup/api/sync/SeriesSyncPayload.kt`
/// (ListenUpApp/ListenUp). Omitted defaults (`asin`, `description`,
/// `coverPath`) decode to nil. Which books are in it comes with each book.
public struct SeriesSyncPayload: Codable, Sendable, Equatable {
    /// The id.
    public var id: String
    /// The name.
    public var name: String
    /// The name to sort by.
    public var sortName: String?
    /// The row's global revision.
    public var revision: Int64
    /// Epoch milliseconds.
    public var updatedAt: Int64
    /// Epoch milliseconds.
    public var createdAt: Int64
    /// Non-nil on a tombstone.
    public var deletedAt: Int64?
    /// Audible ASIN (default nil).
    public var asin: String?
    /// Description (default nil).
    public var description: String?
    /// Server path of the cover (default nil).
    public var coverPath: String?

    /// Creates a series; each parameter sets the property of the same name.
    public init(id: String, name: String, sortName: String? = nil, revision: Int64, updatedAt: Int64, createdAt: Int64,
                deletedAt: Int64? = nil, asin: String? = nil, description: String? = nil, coverPath: String? = nil) {
        self.id = id
        self.name = name
        self.sortName = sortName
        self.revision = revision
        self.updatedAt = updatedAt
        self.createdAt = createdAt
        self.deletedAt = deletedAt
        self.asin = asin
        self.description = description
        self.coverPath = coverPath
    }
}

extension ContributorSyncPayload {
    /// A tombstone.
    public var isDeleted: Bool { deletedAt != nil }
}

extension SeriesSyncPayload {
    /// A tombstone.
    public var isDeleted: Bool { deletedAt != nil }
}
