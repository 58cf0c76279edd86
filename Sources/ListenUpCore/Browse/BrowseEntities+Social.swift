import Foundation

/// One user's public profile, as kRPC's `public_profiles` domain gives it
/// (`PublicProfileSyncPayload`, upstream
/// `contract/src/commonMain/kotlin/com/calypsan/listenup/api/sync/PublicProfileSyncPayload.kt`):
/// every user of the server has one, keyed by the user's id. Only what the
/// app shows is kept: the name the activity feed joins in.
public struct PublicProfile: Codable, Equatable, Sendable, Identifiable {
    /// The user's id.
    public var id: String
    public var displayName: String
    /// `"auto"` (initials) or `"image"`.
    public var avatarType: String
    public var booksFinished: Int
    public var updatedAt: Date

    public init(id: String, displayName: String, avatarType: String = "auto", booksFinished: Int = 0, updatedAt: Date) {
        self.id = id
        self.displayName = displayName
        self.avatarType = avatarType
        self.booksFinished = booksFinished
        self.updatedAt = updatedAt
    }
}

/// One row of the server's activity feed, as kRPC's `activities` domain
/// gives it (`ActivitySyncPayload`, upstream
/// `contract/src/commonMain/kotlin/com/calypsan/listenup/api/sync/ActivitySyncPayload.kt`):
/// append-only, so a row once kept is never rewritten (a tombstone, which
/// blanks everything, deletes it by id). It names its user and book by id;
/// ``ActivityFeedEntry`` joins in the names.
public struct Activity: Codable, Equatable, Sendable, Identifiable {
    public var id: String
    public var userID: String
    /// The kind as sent (`started_book`, `finished_book`, …; ``ActivityFeedEntry/Kind``).
    public var kind: String
    public var bookID: String?
    public var isReread: Bool
    /// `listening_session`: how long it lasted.
    public var durationMs: Int64
    /// A milestone's number (7 days, 10 hours) and unit (`days`, `hours`).
    public var milestoneValue: Int
    public var milestoneUnit: String?
    /// `shelf_created`: the shelf's name.
    public var shelfName: String?
    /// When it happened.
    public var occurredAt: Date

    public init(id: String, userID: String, kind: String, bookID: String? = nil, isReread: Bool = false, durationMs: Int64 = 0,
                milestoneValue: Int = 0, milestoneUnit: String? = nil, shelfName: String? = nil, occurredAt: Date) {
        self.id = id
        self.userID = userID
        self.kind = kind
        self.bookID = bookID
        self.isReread = isReread
        self.durationMs = durationMs
        self.milestoneValue = milestoneValue
        self.milestoneUnit = milestoneUnit
        self.shelfName = shelfName
        self.occurredAt = occurredAt
    }

    /// Its time is what a page's newest change is measured by.
    public var updatedAt: Date { occurredAt }
}

/// An activity as Discover shows it: who (their profile's name), what, and
/// the book's title when the book is cached.
public struct ActivityFeedEntry: Equatable, Sendable, Identifiable {
    /// The kinds the feed knows how to say (`api/dto/activity/ActivityType.kt`).
    public enum Kind: String, Sendable, CaseIterable {
        case startedBook = "started_book"
        case finishedBook = "finished_book"
        case listeningSession = "listening_session"
        case streakMilestone = "streak_milestone"
        case listeningMilestone = "listening_milestone"
        case shelfCreated = "shelf_created"
        case userJoined = "user_joined"
    }

    public var activity: Activity
    /// The user's name from `public_profiles`; nil when no profile is kept.
    public var userName: String?
    /// The book's title when it is cached.
    public var bookTitle: String?

    public init(activity: Activity, userName: String?, bookTitle: String?) {
        self.activity = activity
        self.userName = userName
        self.bookTitle = bookTitle
    }

    public var id: String { activity.id }
    /// The kind, nil for one this build does not know.
    public var kind: Kind? { Kind(rawValue: activity.kind) }

    /// Entries the feed shows: a known kind, and a book the cache holds
    /// when it names one (a book the user cannot see is never named).
    public var isShown: Bool {
        guard kind != nil else { return false }
        return activity.bookID == nil || bookTitle != nil
    }
}

/// Another reader listening to a book now, or the book they last played and
/// did not finish (kRPC `CurrentlyListeningSession`, addendum §3.7; REST v1's
/// `currently-listening` readers, all live).
public struct ListeningNow: Equatable, Sendable, Identifiable {
    public var userID: String
    public var displayName: String
    public var bookID: String
    /// When they started listening (live) or last played it; nil when the
    /// server does not say (REST v1).
    public var lastActiveAt: Date?
    /// Listening right now.
    public var isLive: Bool

    public init(userID: String, displayName: String, bookID: String, lastActiveAt: Date?, isLive: Bool) {
        self.userID = userID
        self.displayName = displayName
        self.bookID = bookID
        self.lastActiveAt = lastActiveAt
        self.isLive = isLive
    }

    /// One row per reader.
    public var id: String { userID }
}
