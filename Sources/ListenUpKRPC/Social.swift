// The social sync domains on the wire (addendum §2.1, §2.2): `public_profiles`
// (every user's row, global) and `activities` (the append-only feed, gated
// by book). Upstream (ListenUpApp/ListenUp):
// `contract/src/commonMain/kotlin/com/calypsan/listenup/api/sync/PublicProfileSyncPayload.kt`,
// `.../api/sync/ActivitySyncPayload.kt`, `.../api/dto/activity/ActivityType.kt`.
// `ActivitySyncPayload` declares no defaults, so every key is always sent
// (nulls included); `PublicProfileSyncPayload` omits its defaulted windows at 0.

/// One user's public profile (`PublicProfileSyncPayload`), domain
/// `public_profiles`: `id` is the user's id. A deleted user's row comes back
/// as a tombstone with the full row (`deletedAt` set).
public struct PublicProfileSyncPayload: Codable, Sendable, Equatable {
    public var id: String
    public var displayName: String
    /// `"auto"` or `"image"`.
    public var avatarType: String
    public var tagline: String?
    public var totalSecondsAllTime: Int64
    public var totalSecondsLast7Days: Int64
    public var totalSecondsLast30Days: Int64
    public var totalSecondsLast365Days: Int64
    public var booksFinished: Int
    public var currentStreakDays: Int
    public var longestStreakDays: Int
    /// The windowed counts (default 0 each).
    public var booksFinishedLast7Days: Int
    public var booksFinishedLast30Days: Int
    public var booksFinishedLast365Days: Int
    public var longestStreakLast7Days: Int
    public var longestStreakLast30Days: Int
    public var longestStreakLast365Days: Int
    public var revision: Int64
    /// Epoch milliseconds.
    public var updatedAt: Int64
    /// Epoch milliseconds.
    public var createdAt: Int64
    /// Non-nil on a tombstone.
    public var deletedAt: Int64?
    /// The avatar's cache-bust token (default 0: never uploaded).
    public var avatarUpdatedAt: Int64

    /// Creates a row: the windowed counts and the avatar token start at 0.
    public init(id: String, displayName: String, avatarType: String = "auto", tagline: String? = nil,
                totalSecondsAllTime: Int64 = 0, totalSecondsLast7Days: Int64 = 0, totalSecondsLast30Days: Int64 = 0,
                totalSecondsLast365Days: Int64 = 0, booksFinished: Int = 0, currentStreakDays: Int = 0, longestStreakDays: Int = 0,
                revision: Int64, updatedAt: Int64, createdAt: Int64, deletedAt: Int64? = nil) {
        self.id = id
        self.displayName = displayName
        self.avatarType = avatarType
        self.tagline = tagline
        self.totalSecondsAllTime = totalSecondsAllTime
        self.totalSecondsLast7Days = totalSecondsLast7Days
        self.totalSecondsLast30Days = totalSecondsLast30Days
        self.totalSecondsLast365Days = totalSecondsLast365Days
        self.booksFinished = booksFinished
        self.currentStreakDays = currentStreakDays
        self.longestStreakDays = longestStreakDays
        self.booksFinishedLast7Days = 0
        self.booksFinishedLast30Days = 0
        self.booksFinishedLast365Days = 0
        self.longestStreakLast7Days = 0
        self.longestStreakLast30Days = 0
        self.longestStreakLast365Days = 0
        self.revision = revision
        self.updatedAt = updatedAt
        self.createdAt = createdAt
        self.deletedAt = deletedAt
        self.avatarUpdatedAt = 0
    }

    private enum CodingKeys: String, CodingKey {
        case id, displayName, avatarType, tagline, totalSecondsAllTime, totalSecondsLast7Days, totalSecondsLast30Days
        case totalSecondsLast365Days, booksFinished, currentStreakDays, longestStreakDays, booksFinishedLast7Days
        case booksFinishedLast30Days, booksFinishedLast365Days, longestStreakLast7Days, longestStreakLast30Days
        case longestStreakLast365Days, revision, updatedAt, createdAt, deletedAt, avatarUpdatedAt
    }

    /// Decodes a row; omitted defaults take their Kotlin values.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(id: try c.decode(String.self, forKey: .id), displayName: try c.decode(String.self, forKey: .displayName),
                  avatarType: try c.decode(String.self, forKey: .avatarType),
                  tagline: try c.decodeIfPresent(String.self, forKey: .tagline),
                  totalSecondsAllTime: try c.decode(Int64.self, forKey: .totalSecondsAllTime),
                  totalSecondsLast7Days: try c.decode(Int64.self, forKey: .totalSecondsLast7Days),
                  totalSecondsLast30Days: try c.decode(Int64.self, forKey: .totalSecondsLast30Days),
                  totalSecondsLast365Days: try c.decode(Int64.self, forKey: .totalSecondsLast365Days),
                  booksFinished: try c.decode(Int.self, forKey: .booksFinished),
                  currentStreakDays: try c.decode(Int.self, forKey: .currentStreakDays),
                  longestStreakDays: try c.decode(Int.self, forKey: .longestStreakDays),
                  revision: try c.decode(Int64.self, forKey: .revision), updatedAt: try c.decode(Int64.self, forKey: .updatedAt),
                  createdAt: try c.decode(Int64.self, forKey: .createdAt),
                  deletedAt: try c.decodeIfPresent(Int64.self, forKey: .deletedAt))
        booksFinishedLast7Days = try c.decode(.booksFinishedLast7Days, default: 0)
        booksFinishedLast30Days = try c.decode(.booksFinishedLast30Days, default: 0)
        booksFinishedLast365Days = try c.decode(.booksFinishedLast365Days, default: 0)
        longestStreakLast7Days = try c.decode(.longestStreakLast7Days, default: 0)
        longestStreakLast30Days = try c.decode(.longestStreakLast30Days, default: 0)
        longestStreakLast365Days = try c.decode(.longestStreakLast365Days, default: 0)
        avatarUpdatedAt = try c.decode(.avatarUpdatedAt, default: Int64(0))
    }

    /// Encodes as Kotlin does: the nullables always, the defaulted fields only when set.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(id, forKey: .id)
        try c.encode(displayName, forKey: .displayName)
        try c.encode(avatarType, forKey: .avatarType)
        try c.encode(tagline, forKey: .tagline)
        try c.encode(totalSecondsAllTime, forKey: .totalSecondsAllTime)
        try c.encode(totalSecondsLast7Days, forKey: .totalSecondsLast7Days)
        try c.encode(totalSecondsLast30Days, forKey: .totalSecondsLast30Days)
        try c.encode(totalSecondsLast365Days, forKey: .totalSecondsLast365Days)
        try c.encode(booksFinished, forKey: .booksFinished)
        try c.encode(currentStreakDays, forKey: .currentStreakDays)
        try c.encode(longestStreakDays, forKey: .longestStreakDays)
        for (value, key) in [(booksFinishedLast7Days, CodingKeys.booksFinishedLast7Days),
                             (booksFinishedLast30Days, .booksFinishedLast30Days), (booksFinishedLast365Days, .booksFinishedLast365Days),
                             (longestStreakLast7Days, .longestStreakLast7Days), (longestStreakLast30Days, .longestStreakLast30Days),
                             (longestStreakLast365Days, .longestStreakLast365Days)] where value != 0 {
            try c.encode(value, forKey: key)
        }
        try c.encode(revision, forKey: .revision)
        try c.encode(updatedAt, forKey: .updatedAt)
        try c.encode(createdAt, forKey: .createdAt)
        try c.encode(deletedAt, forKey: .deletedAt)
        if avatarUpdatedAt != 0 { try c.encode(avatarUpdatedAt, forKey: .avatarUpdatedAt) }
    }

    /// A tombstone.
    public var isDeleted: Bool { deletedAt != nil }
}

/// One row of the activity feed (`ActivitySyncPayload`), domain
/// `activities`: written by the server, append-only. No display fields: the
/// user's name comes from `public_profiles`, the book's from `books`. A
/// tombstone blanks everything (`userId`, `type` `""`, numbers 0, nullables
/// null): key rows by `id`.
public struct ActivitySyncPayload: Codable, Sendable, Equatable {
    public var id: String
    public var userId: String
    /// One of ``ActivityKind``'s raw values; kept as sent.
    public var type: String
    public var bookId: String?
    public var isReread: Bool
    public var durationMs: Int64
    public var milestoneValue: Int
    /// `"days"` (streak) or `"hours"` (listening).
    public var milestoneUnit: String?
    public var shelfId: String?
    public var shelfName: String?
    /// Epoch milliseconds: when it happened.
    public var occurredAt: Int64
    public var revision: Int64
    /// Epoch milliseconds.
    public var createdAt: Int64
    /// Epoch milliseconds.
    public var updatedAt: Int64
    /// Non-nil on a tombstone.
    public var deletedAt: Int64?

    /// Creates a row; each parameter sets the property of the same name.
    public init(id: String, userId: String, type: String, bookId: String? = nil, isReread: Bool = false, durationMs: Int64 = 0,
                milestoneValue: Int = 0, milestoneUnit: String? = nil, shelfId: String? = nil, shelfName: String? = nil,
                occurredAt: Int64, revision: Int64, createdAt: Int64, updatedAt: Int64, deletedAt: Int64? = nil) {
        self.id = id
        self.userId = userId
        self.type = type
        self.bookId = bookId
        self.isReread = isReread
        self.durationMs = durationMs
        self.milestoneValue = milestoneValue
        self.milestoneUnit = milestoneUnit
        self.shelfId = shelfId
        self.shelfName = shelfName
        self.occurredAt = occurredAt
        self.revision = revision
        self.createdAt = createdAt
        self.updatedAt = updatedAt
        self.deletedAt = deletedAt
    }

    private enum CodingKeys: String, CodingKey {
        case id, userId, type, bookId, isReread, durationMs, milestoneValue, milestoneUnit, shelfId, shelfName, occurredAt
        case revision, createdAt, updatedAt, deletedAt
    }

    /// Every key is written, nulls included, as the server does (no defaults declared).
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(id, forKey: .id)
        try c.encode(userId, forKey: .userId)
        try c.encode(type, forKey: .type)
        try c.encode(bookId, forKey: .bookId)
        try c.encode(isReread, forKey: .isReread)
        try c.encode(durationMs, forKey: .durationMs)
        try c.encode(milestoneValue, forKey: .milestoneValue)
        try c.encode(milestoneUnit, forKey: .milestoneUnit)
        try c.encode(shelfId, forKey: .shelfId)
        try c.encode(shelfName, forKey: .shelfName)
        try c.encode(occurredAt, forKey: .occurredAt)
        try c.encode(revision, forKey: .revision)
        try c.encode(createdAt, forKey: .createdAt)
        try c.encode(updatedAt, forKey: .updatedAt)
        try c.encode(deletedAt, forKey: .deletedAt)
    }

    /// A tombstone.
    public var isDeleted: Bool { deletedAt != nil }
}

/// The kinds of activity (`api/dto/activity/ActivityType.kt`).
public enum ActivityKind: String, Sendable, CaseIterable {
    case startedBook = "started_book"
    case finishedBook = "finished_book"
    case listeningSession = "listening_session"
    case streakMilestone = "streak_milestone"
    case listeningMilestone = "listening_milestone"
    case shelfCreated = "shelf_created"
    case userJoined = "user_joined"
}

extension SyncDomain {
    /// `public_profiles` (``PublicProfileSyncPayload``), every user's row.
    public static let publicProfiles = SyncDomain(rawValue: "public_profiles")
    /// `activities` (``ActivitySyncPayload``), append-only, gated by book.
    public static let activities = SyncDomain(rawValue: "activities")
}
