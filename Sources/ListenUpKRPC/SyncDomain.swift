/// A sync domain name (§3.4, `SyncDomains.kt`). Open: `listDomains` may
/// return names this build does not know.
public struct SyncDomain: RawRepresentable, Hashable, Sendable, Codable, CustomStringConvertible {
    /// The name as sent, e.g. `books`.
    public let rawValue: String

    /// Wraps a name.
    /// - Parameter rawValue: the domain name.
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// `books`: the fat book snapshot (``BookSyncPayload``).
    public static let books = SyncDomain(rawValue: "books")
    /// `contributors` (``ContributorSyncPayload``).
    public static let contributors = SyncDomain(rawValue: "contributors")
    /// `series` (``SeriesSyncPayload``).
    public static let series = SyncDomain(rawValue: "series")
    /// `playback_positions` (``PlaybackPositionSyncPayload``).
    public static let playbackPositions = SyncDomain(rawValue: "playback_positions")
    /// `listening_events` (``ListeningEventSyncPayload``).
    public static let listeningEvents = SyncDomain(rawValue: "listening_events")
    /// The pseudo-domain of ``SyncControl`` frames.
    public static let control = SyncDomain(rawValue: "control")

    /// Every domain the v0.9 server serves, in `SyncDomains.kt` order.
    public static let all: [SyncDomain] = [
        "books", "contributors", "series", "genres", "tags", "book_tags", "moods", "book_moods",
        "playback_positions", "listening_events", "user_stats", "libraries", "library_folders", "admin_user_roster",
        "collections", "collection_books", "collection_shares", "shelves", "shelf_books", "public_profiles",
        "activities",
    ].map(SyncDomain.init(rawValue:))


    /// The name.
    public var description: String { rawValue }
}

/// `pullByIds`'s `match` argument (`TargetedMatch`, §3.4): which column the ids name.
public struct TargetedMatch: RawRepresentable, Hashable, Sendable, Codable, CustomStringConvertible {
    /// The name as sent, e.g. `"book_id"`.
    public let rawValue: String

    /// Wraps a name.
    /// - Parameter rawValue: the wire name.
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// `"id"`: the rows' own ids.
    public static let id = TargetedMatch(rawValue: "id")
    /// `"collection_id"`.
    public static let collectionId = TargetedMatch(rawValue: "collection_id")
    /// `"book_id"`.
    public static let bookId = TargetedMatch(rawValue: "book_id")


    /// The name.
    public var description: String { rawValue }
}
