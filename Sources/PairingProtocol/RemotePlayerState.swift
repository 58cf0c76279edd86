import Foundation

/// What a paired device sees of the desktop's player (`GET /api/v1/player`
/// and each `state` event of `GET /api/v1/player/events`): a snapshot, taken
/// by the ``RemotePlayer`` whenever asked or whenever something changed.
///
/// A plain value: build it on any thread, send it anywhere. On the wire it is
/// a JSON object with the keys of ``CodingKeys`` (camelCase, `bookId`);
/// optional fields are written as `null`, never left out.
public struct RemotePlayerState: Codable, Sendable, Equatable {
    /// What the player is doing (the same words as the app's player and its
    /// headless `status`).
    public enum Status: String, Codable, Sendable, CaseIterable {
        /// No book loaded.
        case idle
        /// Loading a book or seeking: no audio yet.
        case loading
        /// Audio is playing.
        case playing
        /// A book is loaded and paused.
        case paused
        /// Playing, but waiting for data.
        case buffering
        /// The end of the book was reached.
        case ended
        /// Stopped by the user (the book is unloaded).
        case stopped
        /// Playback failed (the desktop shows why).
        case error
    }

    /// A book of the continue-listening shelf: what a remote may start with
    /// ``RemoteCommand/playBook(bookID:)`` without knowing the library.
    public struct Book: Codable, Sendable, Equatable {
        /// The book's id on the ListenUp server.
        public var bookID: String
        /// The book's title.
        public var title: String
        /// Author names, in the book's order.
        public var authors: [String]
        /// Where listening stopped, milliseconds from the start of the book.
        public var positionMs: Int64
        /// The book's length, milliseconds.
        public var durationMs: Int64

        /// A shelf entry.
        public init(bookID: String, title: String, authors: [String], positionMs: Int64, durationMs: Int64) {
            self.bookID = bookID
            self.title = title
            self.authors = authors
            self.positionMs = positionMs
            self.durationMs = durationMs
        }

        enum CodingKeys: String, CodingKey {
            case bookID = "bookId", title, authors, positionMs, durationMs
        }
    }

    /// The book loaded, or nil (``Status/idle``, ``Status/stopped``).
    public var bookID: String?
    /// Its title, or nil when nothing is loaded.
    public var title: String?
    /// Its authors (empty when nothing is loaded).
    public var authors: [String]
    /// The chapter playing (0-based), nil when nothing is loaded or the book has no chapters.
    public var chapterIndex: Int?
    /// That chapter's title.
    public var chapterTitle: String?
    /// The book position, milliseconds.
    public var positionMs: Int64
    /// The book's length, milliseconds (0 when nothing is loaded).
    public var durationMs: Int64
    /// The position inside the chapter playing, milliseconds (the book position without chapters).
    public var chapterPositionMs: Int64
    /// The chapter's length, milliseconds (the book's without chapters).
    public var chapterDurationMs: Int64
    /// The playback rate, 0.5...3.0.
    public var rate: Double
    /// The volume, 0...1.
    public var volume: Double
    /// What the player is doing.
    public var status: Status
    /// Until the sleep timer pauses playback, milliseconds; nil when the timer is off.
    public var sleepRemainingMs: Int64?
    /// The sleep timer pauses at the end of the chapter (``sleepRemainingMs`` then
    /// counts down to that end).
    public var sleepEndOfChapter: Bool
    /// `GET /api/v1/player/cover` has an image for the book loaded.
    public var hasCover: Bool
    /// The continue-listening shelf, most recent first (at most what the desktop shows).
    public var continueListening: [Book]

    /// A snapshot. The defaults describe a player with nothing loaded.
    public init(bookID: String? = nil, title: String? = nil, authors: [String] = [], chapterIndex: Int? = nil,
                chapterTitle: String? = nil, positionMs: Int64 = 0, durationMs: Int64 = 0, chapterPositionMs: Int64 = 0,
                chapterDurationMs: Int64 = 0, rate: Double = 1, volume: Double = 1, status: Status = .idle,
                sleepRemainingMs: Int64? = nil, sleepEndOfChapter: Bool = false, hasCover: Bool = false,
                continueListening: [Book] = []) {
        self.bookID = bookID
        self.title = title
        self.authors = authors
        self.chapterIndex = chapterIndex
        self.chapterTitle = chapterTitle
        self.positionMs = positionMs
        self.durationMs = durationMs
        self.chapterPositionMs = chapterPositionMs
        self.chapterDurationMs = chapterDurationMs
        self.rate = rate
        self.volume = volume
        self.status = status
        self.sleepRemainingMs = sleepRemainingMs
        self.sleepEndOfChapter = sleepEndOfChapter
        self.hasCover = hasCover
        self.continueListening = continueListening
    }

    /// The wire names.
    public enum CodingKeys: String, CodingKey {
        case bookID = "bookId", title, authors, chapterIndex, chapterTitle, positionMs, durationMs, chapterPositionMs,
             chapterDurationMs, rate, volume, status, sleepRemainingMs, sleepEndOfChapter, hasCover, continueListening
    }

    /// Writes every key; absent values as `null` (a remote can tell "none" from "not sent").
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(bookID, forKey: .bookID)
        try container.encode(title, forKey: .title)
        try container.encode(authors, forKey: .authors)
        try container.encode(chapterIndex, forKey: .chapterIndex)
        try container.encode(chapterTitle, forKey: .chapterTitle)
        try container.encode(positionMs, forKey: .positionMs)
        try container.encode(durationMs, forKey: .durationMs)
        try container.encode(chapterPositionMs, forKey: .chapterPositionMs)
        try container.encode(chapterDurationMs, forKey: .chapterDurationMs)
        try container.encode(rate, forKey: .rate)
        try container.encode(volume, forKey: .volume)
        try container.encode(status, forKey: .status)
        try container.encode(sleepRemainingMs, forKey: .sleepRemainingMs)
        try container.encode(sleepEndOfChapter, forKey: .sleepEndOfChapter)
        try container.encode(hasCover, forKey: .hasCover)
        try container.encode(continueListening, forKey: .continueListening)
    }
}
