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

    public init(id: String = UUID().uuidString.lowercased(), bookID: String, start: Int64, end: Int64,
                startedAt: Date, endedAt: Date, rate: Double, deviceID: String) {
        self.id = id
        self.bookID = bookID
        self.start = start
        self.end = end
        self.startedAt = startedAt
        self.endedAt = endedAt
        self.rate = rate
        self.deviceID = deviceID
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

/// Where the user is in a book, as the server (or this device) last knew.
public struct ListeningPosition: Codable, Equatable, Sendable {
    public var bookID: String
    /// Book position, milliseconds.
    public var position: Int64
    /// When it was recorded (for "the newer of local and server").
    public var updatedAt: Date
    public var finished: Bool

    public init(bookID: String, position: Int64, updatedAt: Date, finished: Bool = false) {
        self.bookID = bookID
        self.position = position
        self.updatedAt = updatedAt
        self.finished = finished
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
