import Foundation

/// `GET /api/v1/social/feed` (the Go server's `internal/api/social_handlers.go`,
/// `handleGetActivityFeed`; contract addendum §7): the activity feed, newest
/// first, with the display fields joined in by the server. Empty strings,
/// `false` and `0` are omitted (`omitempty`).
public struct ActivityFeedResponse: Codable, Equatable, Sendable {
    /// One activity (`ActivityResponse`).
    public struct Activity: Codable, Equatable, Sendable {
        public var id: String
        /// `started_book`, `finished_book`, `streak_milestone`, `listening_milestone`, `shelf_created`.
        public var type: String
        /// RFC 3339.
        public var createdAt: String
        public var userID: String
        public var userDisplayName: String
        public var userAvatarColor: String?
        public var userAvatarType: String?
        public var bookID: String?
        public var bookTitle: String?
        public var isReread: Bool?
        public var milestoneValue: Int?
        public var milestoneUnit: String?
        public var shelfID: String?
        public var shelfName: String?

        enum CodingKeys: String, CodingKey {
            case id, type
            case createdAt = "created_at"
            case userID = "user_id"
            case userDisplayName = "user_display_name"
            case userAvatarColor = "user_avatar_color"
            case userAvatarType = "user_avatar_type"
            case bookID = "book_id"
            case bookTitle = "book_title"
            case isReread = "is_reread"
            case milestoneValue = "milestone_value"
            case milestoneUnit = "milestone_unit"
            case shelfID = "shelf_id"
            case shelfName = "shelf_name"
        }

        public init(id: String, type: String, createdAt: String, userID: String, userDisplayName: String, userAvatarColor: String? = nil,
                    userAvatarType: String? = nil, bookID: String? = nil, bookTitle: String? = nil, isReread: Bool? = nil,
                    milestoneValue: Int? = nil, milestoneUnit: String? = nil, shelfID: String? = nil, shelfName: String? = nil) {
            self.id = id
            self.type = type
            self.createdAt = createdAt
            self.userID = userID
            self.userDisplayName = userDisplayName
            self.userAvatarColor = userAvatarColor
            self.userAvatarType = userAvatarType
            self.bookID = bookID
            self.bookTitle = bookTitle
            self.isReread = isReread
            self.milestoneValue = milestoneValue
            self.milestoneUnit = milestoneUnit
            self.shelfID = shelfID
            self.shelfName = shelfName
        }
    }

    public var activities: [Activity]
    /// `<RFC 3339>|<activity id>` when the page was full.
    public var nextCursor: String?

    enum CodingKeys: String, CodingKey {
        case activities
        case nextCursor = "next_cursor"
    }

    public init(activities: [Activity], nextCursor: String? = nil) {
        self.activities = activities
        self.nextCursor = nextCursor
    }
}

extension Endpoint where Response == ActivityFeedResponse {
    /// `GET /api/v1/social/feed?limit=` (the server caps `limit` at 50).
    public static func activityFeed(limit: Int) -> Endpoint {
        Endpoint(method: .get, path: "/api/v1/social/feed", query: [("limit", String(min(max(limit, 1), 50)))], requiresAuth: true)
    }
}

/// `GET /api/v1/social/currently-listening` (the Go server's
/// `internal/api/social_handlers.go`, `CurrentlyListeningResponse`): the
/// books other readers have an active session on, each with up to three
/// of them. No times: every reader named is listening now.
public struct CurrentlyListeningResponse: Codable, Equatable, Sendable {
    public struct Reader: Codable, Equatable, Sendable {
        public var userID: String
        public var displayName: String
        public var avatarType: String?

        enum CodingKeys: String, CodingKey {
            case userID = "user_id"
            case displayName = "display_name"
            case avatarType = "avatar_type"
        }

        public init(userID: String, displayName: String, avatarType: String? = "auto") {
            self.userID = userID
            self.displayName = displayName
            self.avatarType = avatarType
        }
    }

    public struct Book: Codable, Equatable, Sendable {
        public var id: String
        public var title: String
        public var readers: [Reader]
        public var totalReaderCount: Int?

        enum CodingKeys: String, CodingKey {
            case id, title, readers
            case totalReaderCount = "total_reader_count"
        }

        public init(id: String, title: String, readers: [Reader], totalReaderCount: Int? = nil) {
            self.id = id
            self.title = title
            self.readers = readers
            self.totalReaderCount = totalReaderCount
        }
    }

    public var books: [Book]

    public init(books: [Book]) {
        self.books = books
    }
}

extension Endpoint where Response == CurrentlyListeningResponse {
    /// `GET /api/v1/social/currently-listening?limit=` (1…50 books; the server's default is 10).
    public static func currentlyListening(limit: Int) -> Endpoint {
        Endpoint(method: .get, path: "/api/v1/social/currently-listening", query: [("limit", String(min(max(limit, 1), 50)))],
                 requiresAuth: true)
    }
}
