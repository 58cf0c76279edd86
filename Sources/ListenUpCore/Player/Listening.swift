import Foundation

/// A stretch of listening: what the server is told (`POST
/// /api/v1/listening/events` on REST v1, `recordListeningEvent` on kRPC).
/// The id is made here, so sending it again is harmless.
public struct ListeningSpan: Codable, Equatable, Sendable, Identifiable {
    public var id: String
    public var bookID: String
    /// Book positions, milliseconds; `end > start`.
    public var start: Int64
    public var end: Int64
    public var startedAt: Date
    public var endedAt: Date
    public var rate: Double
    /// This installation (``Dependencies/deviceID``).
    public var deviceID: String
    /// What the book's position row said when the span was cut, beside
    /// where it is and its speed: a server that replaces the row wholesale
    /// on every write (kRPC `recordPosition`) is sent these, so a periodic
    /// write never un-finishes a book or resets its boost. Nil in spans
    /// queued by a build that did not keep it (sent as not finished, no
    /// boost, as that build did).
    public var book: ListeningPosition.Facts?

    public init(id: String = UUID().uuidString.lowercased(), bookID: String, start: Int64, end: Int64,
                startedAt: Date, endedAt: Date, rate: Double, deviceID: String, book: ListeningPosition.Facts? = nil) {
        self.id = id
        self.bookID = bookID
        self.start = start
        self.end = end
        self.startedAt = startedAt
        self.endedAt = endedAt
        self.rate = rate
        self.deviceID = deviceID
        self.book = book
    }
}

/// What the server answered for a batch of spans.
public struct ListeningAcknowledgement: Equatable, Sendable {
    /// Stored (or already stored: a duplicate id).
    public var acknowledged: [String]
    /// Refused for good (bad values, unknown book): not sent again.
    public var failed: [String]

    public init(acknowledged: [String], failed: [String]) {
        self.acknowledged = acknowledged
        self.failed = failed
    }
}

/// Where the user is in a book, as the server (or this device) last knew:
/// the book's position row.
///
/// Besides the position the row keeps what the listener chose for the book
/// (its speed and volume boost), the loudness measured for it, whether it
/// is finished and the chapter at the position. Today's server keeps one
/// such row per user and book and replaces it wholesale on each write
/// (`PlaybackPositionRepository.recordPosition`, contract addendum §1.1),
/// so every write carries the row's values; the Go server (REST v1) keeps
/// only the position and `finished` (its progress is derived from
/// listening events), and the other fields stay on this device there.
public struct ListeningPosition: Codable, Equatable, Sendable {
    public var bookID: String
    /// Book position, milliseconds.
    public var position: Int64
    /// When it was listened (the row's `lastPlayedAt`: the newer row wins,
    /// here as on the server).
    public var updatedAt: Date
    public var finished: Bool
    /// The book's own speed; nil when none was ever set (the user's
    /// default speed applies).
    public var playbackSpeed: Double?
    /// The book's volume boost, dB (0...12); nil when none was ever set.
    public var volumeBoostDb: Double?
    /// The loudness correction measured for the book, dB; nil when none.
    public var measuredGainDb: Double?
    /// The id of the chapter at ``position`` (nil when the book's chapters
    /// have no ids, as on REST v1).
    public var chapterID: String?

    public init(bookID: String, position: Int64, updatedAt: Date, finished: Bool = false, playbackSpeed: Double? = nil,
                volumeBoostDb: Double? = nil, measuredGainDb: Double? = nil, chapterID: String? = nil) {
        self.bookID = bookID
        self.position = position
        self.updatedAt = updatedAt
        self.finished = finished
        self.playbackSpeed = playbackSpeed
        self.volumeBoostDb = volumeBoostDb
        self.measuredGainDb = measuredGainDb
        self.chapterID = chapterID
    }

    /// What a row keeps beside the position and when: carried on every
    /// write so the server's row keeps them (``ListeningSpan/book``).
    public struct Facts: Codable, Equatable, Sendable {
        public var finished: Bool
        public var volumeBoostDb: Double?
        public var measuredGainDb: Double?
        public var chapterID: String?

        public init(finished: Bool, volumeBoostDb: Double? = nil, measuredGainDb: Double? = nil, chapterID: String? = nil) {
            self.finished = finished
            self.volumeBoostDb = volumeBoostDb
            self.measuredGainDb = measuredGainDb
            self.chapterID = chapterID
        }
    }

    /// This row's facts.
    public var facts: Facts {
        Facts(finished: finished, volumeBoostDb: volumeBoostDb, measuredGainDb: measuredGainDb, chapterID: chapterID)
    }

    /// The row, keeping what `older` knew that this one does not say (a
    /// row from a server that has no speed or boost, or from a build that
    /// did not keep them, does not wipe what this device knows).
    public func filling(from older: ListeningPosition?) -> ListeningPosition {
        guard let older, older.bookID == bookID else { return self }
        var merged = self
        merged.playbackSpeed = playbackSpeed ?? older.playbackSpeed
        merged.volumeBoostDb = volumeBoostDb ?? older.volumeBoostDb
        merged.measuredGainDb = measuredGainDb ?? older.measuredGainDb
        return merged
    }
}

/// One book of *Continue listening*.
public struct ContinueListeningItem: Codable, Equatable, Sendable, Identifiable {
    public var bookID: String
    public var title: String
    public var author: String?
    public var position: Int64
    public var duration: Int64
    /// 0...1.
    public var progress: Double
    public var lastPlayedAt: Date

    public var id: String { bookID }

    public init(bookID: String, title: String, author: String?, position: Int64, duration: Int64, progress: Double, lastPlayedAt: Date) {
        self.bookID = bookID
        self.title = title
        self.author = author
        self.position = position
        self.duration = duration
        self.progress = progress
        self.lastPlayedAt = lastPlayedAt
    }
}

/// How to read a book's audio files: a URL per file id, and the headers to
/// send with them (the Bearer header on REST v1; none for signed URLs).
public struct AudioAccess: Equatable, Sendable {
    public var urls: [String: URL]
    public var headers: [String: String]

    public init(urls: [String: URL], headers: [String: String]) {
        self.urls = urls
        self.headers = headers
    }
}

/// What the player keeps on this device, per server and user: the spans
/// not yet acknowledged (in order), the last local position of each book,
/// and the last *Continue listening* list (for offline).
///
/// Spans are written here before they are sent, so nothing is lost to a
/// crash or an outage. The app's is SQLite (in the library's database,
/// `ListenUpLive`); ``InMemoryListeningStore`` serves previews and tests.
public protocol ListeningStore: AnyObject, Sendable {
    /// Queues a span (durably, before returning).
    func enqueue(_ span: ListeningSpan) throws
    /// The oldest `limit` spans waiting, oldest first.
    func pendingSpans(limit: Int) throws -> [ListeningSpan]
    /// Forgets spans (acknowledged or refused for good).
    func removeSpans(_ ids: [String]) throws
    /// Records this device's position in a book.
    func savePosition(_ position: ListeningPosition) throws
    /// This device's last position in a book.
    func position(bookID: String) throws -> ListeningPosition?
    /// The *Continue listening* list as last fetched.
    func continueListening() throws -> [ContinueListeningItem]
    func saveContinueListening(_ items: [ContinueListeningItem]) throws
}
