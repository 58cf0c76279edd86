/// `CurrentlyListeningSession` (upstream
/// `contract/src/commonMain/kotlin/com/calypsan/listenup/api/dto/social/SocialDtos.kt`):
/// one other reader's row of "What Others Are Listening To". At most one
/// row per other user, the caller never among them, only books the caller
/// may see. `isLive`: listening right now (an active session, which the
/// server ends 30 minutes after its last position write); otherwise the
/// book they last played and did not finish ("recent fill").
/// `lastActiveAtMs` is the session's start when live, else the position's
/// `lastPlayedAt` (addendum §3.7).
public struct CurrentlyListeningSessionDTO: Codable, Equatable, Sendable {
    public var userId: String
    public var displayName: String
    /// `"auto"` or `"image"`.
    public var avatarType: String
    public var bookId: String
    public var lastActiveAtMs: Int64
    public var isLive: Bool

    public init(userId: String, displayName: String, avatarType: String, bookId: String, lastActiveAtMs: Int64, isLive: Bool) {
        self.userId = userId
        self.displayName = displayName
        self.avatarType = avatarType
        self.bookId = bookId
        self.lastActiveAtMs = lastActiveAtMs
        self.isLive = isLive
    }
}

extension KRPCServiceType {
    /// `SocialService` (authed): who listens to what (`api/SocialService.kt`).
    public static let socialService = KRPCServiceType(listenUp: "SocialService")
}

extension KRPCMethod {
    /// `SocialService.currentlyListening()` → `AppResult<List<CurrentlyListeningSession>>` (a read: retried once).
    /// `SyncControl.ActiveSessionsChanged` on the event stream says when to ask again.
    public static let currentlyListening = KRPCMethod(service: .socialService, name: "currentlyListening", delivery: .retryOnce)
}
