import Foundation

/// One listening event of `POST /api/v1/listening/events` (contract §10.1).
/// Times are epoch milliseconds (RFC 3339 strings give 422).
public struct ListeningEventDTO: Codable, Equatable, Sendable {
    public var id: String
    public var bookID: String
    public var startPositionMs: Int64
    public var endPositionMs: Int64
    public var startedAt: Int64
    public var endedAt: Int64
    public var playbackSpeed: Double
    public var deviceID: String
    public var source: String?

    private enum CodingKeys: String, CodingKey {
        case id, source
        case bookID = "book_id"
        case startPositionMs = "start_position_ms"
        case endPositionMs = "end_position_ms"
        case startedAt = "started_at"
        case endedAt = "ended_at"
        case playbackSpeed = "playback_speed"
        case deviceID = "device_id"
    }

    public init(id: String, bookID: String, startPositionMs: Int64, endPositionMs: Int64, startedAt: Int64, endedAt: Int64,
                playbackSpeed: Double, deviceID: String, source: String? = nil) {
        self.id = id
        self.bookID = bookID
        self.startPositionMs = startPositionMs
        self.endPositionMs = endPositionMs
        self.startedAt = startedAt
        self.endedAt = endedAt
        self.playbackSpeed = playbackSpeed
        self.deviceID = deviceID
        self.source = source
    }
}

/// The body of `POST /api/v1/listening/events`.
public struct ListeningEventsRequest: Codable, Equatable, Sendable {
    public var events: [ListeningEventDTO]

    public init(events: [ListeningEventDTO]) { self.events = events }
}

/// Its answer: both keys always arrays.
public struct ListeningEventsResponse: Codable, Equatable, Sendable {
    public var acknowledged: [String]
    public var failed: [String]

    public init(acknowledged: [String], failed: [String]) {
        self.acknowledged = acknowledged
        self.failed = failed
    }
}

/// One item of `GET /api/v1/listening/progress` (contract §10.3).
public struct ProgressItemDTO: Codable, Equatable, Sendable {
    public var bookID: String
    public var currentPositionMs: Int64
    public var isFinished: Bool
    public var finishedAt: Date?
    public var lastPlayedAt: Date
    public var updatedAt: Date

    private enum CodingKeys: String, CodingKey {
        case bookID = "book_id"
        case currentPositionMs = "current_position_ms"
        case isFinished = "is_finished"
        case finishedAt = "finished_at"
        case lastPlayedAt = "last_played_at"
        case updatedAt = "updated_at"
    }

    public init(bookID: String, currentPositionMs: Int64, isFinished: Bool, finishedAt: Date? = nil, lastPlayedAt: Date, updatedAt: Date) {
        self.bookID = bookID
        self.currentPositionMs = currentPositionMs
        self.isFinished = isFinished
        self.finishedAt = finishedAt
        self.lastPlayedAt = lastPlayedAt
        self.updatedAt = updatedAt
    }
}

/// `GET /api/v1/listening/progress`.
public struct ProgressListResponse: Codable, Equatable, Sendable {
    public var items: [ProgressItemDTO]

    public init(items: [ProgressItemDTO]) { self.items = items }
}

/// One item of `GET /api/v1/listening/continue` (contract §10.3).
public struct ContinueItemDTO: Codable, Equatable, Sendable {
    public var bookID: String
    public var title: String
    public var authorName: String?
    public var coverPath: String?
    public var coverBlurHash: String?
    public var currentPositionMs: Int64
    public var totalDurationMs: Int64
    public var progress: Double
    public var lastPlayedAt: Date

    private enum CodingKeys: String, CodingKey {
        case title, progress
        case bookID = "book_id"
        case authorName = "author_name"
        case coverPath = "cover_path"
        case coverBlurHash = "cover_blur_hash"
        case currentPositionMs = "current_position_ms"
        case totalDurationMs = "total_duration_ms"
        case lastPlayedAt = "last_played_at"
    }

    public init(bookID: String, title: String, authorName: String? = nil, coverPath: String? = nil, coverBlurHash: String? = nil,
                currentPositionMs: Int64, totalDurationMs: Int64, progress: Double, lastPlayedAt: Date) {
        self.bookID = bookID
        self.title = title
        self.authorName = authorName
        self.coverPath = coverPath
        self.coverBlurHash = coverBlurHash
        self.currentPositionMs = currentPositionMs
        self.totalDurationMs = totalDurationMs
        self.progress = progress
        self.lastPlayedAt = lastPlayedAt
    }
}

/// `GET /api/v1/listening/continue`.
public struct ContinueListResponse: Codable, Equatable, Sendable {
    public var items: [ContinueItemDTO]

    public init(items: [ContinueItemDTO]) { self.items = items }
}

/// The body of `POST /api/v1/books/{id}/progress/complete` (required: `{}` at least).
public struct CompleteRequest: Codable, Equatable, Sendable {
    public var finishedAt: Date?

    private enum CodingKeys: String, CodingKey {
        case finishedAt = "finished_at"
    }

    public init(finishedAt: Date? = nil) { self.finishedAt = finishedAt }
}

/// What `/progress/complete` and `/progress/restart` answer.
public struct ProgressChangeResponse: Codable, Equatable, Sendable {
    public var bookID: String
    public var isFinished: Bool
    public var finishedAt: Date?
    public var currentPositionMs: Int64
    public var updatedAt: Date

    private enum CodingKeys: String, CodingKey {
        case bookID = "book_id"
        case isFinished = "is_finished"
        case finishedAt = "finished_at"
        case currentPositionMs = "current_position_ms"
        case updatedAt = "updated_at"
    }

    public init(bookID: String, isFinished: Bool, finishedAt: Date? = nil, currentPositionMs: Int64, updatedAt: Date) {
        self.bookID = bookID
        self.isFinished = isFinished
        self.finishedAt = finishedAt
        self.currentPositionMs = currentPositionMs
        self.updatedAt = updatedAt
    }
}

extension Endpoint where Response == ListeningEventsResponse {
    /// `POST /api/v1/listening/events`.
    public static func listeningEvents(_ request: ListeningEventsRequest) -> Endpoint {
        Endpoint(method: .post, path: "/api/v1/listening/events", body: json(request), requiresAuth: true)
    }
}

extension Endpoint where Response == ProgressListResponse {
    /// `GET /api/v1/listening/progress`, all or changed since `updatedAfter`.
    public static func listeningProgress(updatedAfter: Date?) -> Endpoint {
        Endpoint(method: .get, path: "/api/v1/listening/progress",
                 query: updatedAfter.map { [("updated_after", RFC3339.string(from: $0))] } ?? [], requiresAuth: true)
    }
}

extension Endpoint where Response == ContinueListResponse {
    /// `GET /api/v1/listening/continue?limit=` (1–100).
    public static func continueListening(limit: Int) -> Endpoint {
        Endpoint(method: .get, path: "/api/v1/listening/continue", query: [("limit", String(min(max(limit, 1), 100)))], requiresAuth: true)
    }
}

extension Endpoint where Response == ProgressChangeResponse {
    /// `POST /api/v1/books/{id}/progress/complete` (body `{}` at least).
    public static func completeBook(_ bookID: String) -> Endpoint {
        Endpoint(method: .post, path: "/api/v1/books/\(segment(bookID))/progress/complete", body: json(CompleteRequest()), requiresAuth: true)
    }

    /// `POST /api/v1/books/{id}/progress/restart` (no body): not finished, at 0.
    public static func restartBook(_ bookID: String) -> Endpoint {
        Endpoint(method: .post, path: "/api/v1/books/\(segment(bookID))/progress/restart", requiresAuth: true)
    }
}

extension RawEndpoint {
    /// `GET /api/v1/audio/{bookId}/{fileId}`: Bearer header only (never `?token=`).
    public static func audio(bookID: String, fileID: String) -> String {
        "/api/v1/audio/\(Endpoint<MessageResponse>.segment(bookID))/\(Endpoint<MessageResponse>.segment(fileID))"
    }
}
