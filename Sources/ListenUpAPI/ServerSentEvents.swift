import Foundation

// The live events' payloads (the stream itself is parsed by the
// ServerSentEvents module).

/// The wrapper around every live event but `connected`:
/// `{"timestamp":…,"data":<payload>,"type":"…"}` (contract §11.3).
public struct LiveEvent<Payload: Decodable & Sendable>: Decodable, Sendable {
    public var timestamp: Date
    public var data: Payload
    public var type: String
}

/// `book.created`: `{book: dto.Book}`, the shape of `/sync/books` items.
public struct BookCreatedPayload: Codable, Sendable {
    public var book: SyncBook

    public init(book: SyncBook) {
        self.book = book
    }
}

/// `book.deleted`: `{deleted_at, book_id}`.
public struct BookDeletedPayload: Codable, Sendable {
    public var deletedAt: Date
    public var bookID: String

    public init(deletedAt: Date, bookID: String) {
        self.deletedAt = deletedAt
        self.bookID = bookID
    }

    enum CodingKeys: String, CodingKey {
        case deletedAt = "deleted_at"
        case bookID = "book_id"
    }
}

/// `listening.progress_updated` (contract §11.3): `{book_id,
/// current_position_ms, progress, total_listen_time_ms, is_finished,
/// finished_at*, started_at*, last_played_at}`.
public struct ProgressUpdatedPayload: Codable, Sendable {
    public var bookID: String
    public var progress: Double
    public var isFinished: Bool
    public var currentPositionMs: Int64?
    public var totalListenTimeMs: Int64?
    public var finishedAt: Date?
    public var startedAt: Date?
    public var lastPlayedAt: Date?
    /// The rest of a position row, which the Go server's event never has:
    /// the app fills them in when it translates today's server's
    /// `playback_positions` events into this shape (`KRPCLiveEvents`).
    public var playbackSpeed: Double?
    public var volumeBoostDb: Double?
    public var measuredGainDb: Double?
    public var currentChapterID: String?

    public init(bookID: String, progress: Double, isFinished: Bool, currentPositionMs: Int64? = nil, totalListenTimeMs: Int64? = nil,
                finishedAt: Date? = nil, startedAt: Date? = nil, lastPlayedAt: Date? = nil, playbackSpeed: Double? = nil,
                volumeBoostDb: Double? = nil, measuredGainDb: Double? = nil, currentChapterID: String? = nil) {
        self.bookID = bookID
        self.progress = progress
        self.isFinished = isFinished
        self.currentPositionMs = currentPositionMs
        self.totalListenTimeMs = totalListenTimeMs
        self.finishedAt = finishedAt
        self.startedAt = startedAt
        self.lastPlayedAt = lastPlayedAt
        self.playbackSpeed = playbackSpeed
        self.volumeBoostDb = volumeBoostDb
        self.measuredGainDb = measuredGainDb
        self.currentChapterID = currentChapterID
    }

    enum CodingKeys: String, CodingKey {
        case bookID = "book_id"
        case currentPositionMs = "current_position_ms"
        case progress
        case totalListenTimeMs = "total_listen_time_ms"
        case isFinished = "is_finished"
        case finishedAt = "finished_at"
        case startedAt = "started_at"
        case lastPlayedAt = "last_played_at"
        case playbackSpeed = "playback_speed"
        case volumeBoostDb = "volume_boost_db"
        case measuredGainDb = "measured_gain_db"
        case currentChapterID = "current_chapter_id"
    }
}

/// `listening.progress_deleted`: `{book_id}`.
public struct BookIDPayload: Codable, Sendable {
    public var bookID: String

    public init(bookID: String) {
        self.bookID = bookID
    }

    enum CodingKeys: String, CodingKey {
        case bookID = "book_id"
    }
}

/// `library.scan_progress` (the phase is what the library needs).
public struct ScanProgressPayload: Codable, Sendable {
    public var phase: String

    public init(phase: String) {
        self.phase = phase
    }
}

/// `user.deleted` (to the deleted user only): `{user_id, reason*}`
/// (`internal/sse/events.go UserDeletedEventData`): clear credentials.
public struct UserDeletedPayload: Codable, Sendable {
    public var userID: String?
    public var reason: String?

    public init(userID: String? = nil, reason: String?) {
        self.userID = userID
        self.reason = reason
    }

    enum CodingKeys: String, CodingKey {
        case userID = "user_id"
        case reason
    }
}
