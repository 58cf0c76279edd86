/// The two WebSocket mounts of the server (§1.1).
public enum KRPCMount: String, Sendable, CaseIterable {
    /// `/api/rpc/public`: no authentication.
    case `public` = "/api/rpc/public"
    /// `/api/rpc/authed`: `Authorization: Bearer <accessToken>` on the upgrade.
    case authed = "/api/rpc/authed"

    /// The request path.
    public var path: String { rawValue }
}

/// A service's `serviceType`: the Kotlin fq-name of its `@Rpc` interface
/// (§1.1, §2.4.1). Sending a service on the wrong mount gets **no reply**
/// (§2.7), so each constant names its mount.
public struct KRPCServiceType: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The fq-name, e.g. `com.calypsan.listenup.api.InstanceService`.
    public let rawValue: String

    /// Wraps an fq-name.
    /// - Parameter rawValue: the fq-name.
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// A service in package `com.calypsan.listenup.api`.
    /// - Parameter simpleName: e.g. `"BookService"`.
    public init(listenUp simpleName: String) {
        self.init(rawValue: "com.calypsan.listenup.api." + simpleName)
    }

    /// `InstanceService` (public): server info.
    public static let instanceService = KRPCServiceType(listenUp: "InstanceService")
    /// `PingService` (public).
    public static let pingService = KRPCServiceType(listenUp: "PingService")
    /// `AuthServicePublic` (public): setup, login, register, refresh.
    public static let authServicePublic = KRPCServiceType(listenUp: "AuthServicePublic")
    /// `InviteServicePublic` (public).
    public static let inviteServicePublic = KRPCServiceType(listenUp: "InviteServicePublic")
    /// `AuthServiceAuthed` (authed): logout, current user.
    public static let authServiceAuthed = KRPCServiceType(listenUp: "AuthServiceAuthed")
    /// `SyncStreamService` (authed): domains, pages, digests, live events.
    public static let syncStreamService = KRPCServiceType(listenUp: "SyncStreamService")
    /// `PlaybackService` (authed): prepare, positions, listening events.
    public static let playbackService = KRPCServiceType(listenUp: "PlaybackService")
    /// `PlaybackProgressService` (authed): continue listening.
    public static let playbackProgressService = KRPCServiceType(listenUp: "PlaybackProgressService")
    /// `BookService` (authed): one book without sync.
    public static let bookService = KRPCServiceType(listenUp: "BookService")
    /// `UserPreferencesService` (authed): the account's playback preferences.
    public static let userPreferencesService = KRPCServiceType(listenUp: "UserPreferencesService")

    /// The simple names registered on `/api/rpc/public` (§1.1).
    public static let publicServiceNames: Set<String> = ["PingService", "InstanceService", "AuthServicePublic", "InviteServicePublic"]

    /// The simple names registered on `/api/rpc/authed` (§1.1).
    public static let authedServiceNames: Set<String> = [
        "ScannerService", "AuthServiceAuthed", "BookService", "ContributorService", "SeriesService", "PlaybackService",
        "PlaybackProgressService", "MetadataLookupService", "LibraryAdminService", "TagService", "MoodService",
        "GenreService", "CollectionService", "ShelfService", "SocialService", "AdminUserService",
        "AdminSettingsService", "InviteService", "ProfileService", "UserPreferencesService", "PushService",
        "BackupService", "ImportService", "SyncStreamService",
    ]

    /// The mount that serves this service, or nil for a name §1.1 does not list.
    public var mount: KRPCMount? {
        let prefix = "com.calypsan.listenup.api."
        guard rawValue.hasPrefix(prefix) else { return nil }
        let simpleName = String(rawValue.dropFirst(prefix.count))
        if Self.publicServiceNames.contains(simpleName) { return .public }
        if Self.authedServiceNames.contains(simpleName) { return .authed }
        return nil
    }

    /// The fq-name.
    public var description: String { rawValue }
}

/// A method the desktop client calls: its service, its Kotlin name and
/// whether it returns a Flow (§3).
public struct KRPCMethod: Hashable, Sendable, CustomStringConvertible {
    /// The service that declares it.
    public let service: KRPCServiceType
    /// The Kotlin function name, sent as `method`.
    public let name: String
    /// True for `Flow<RpcEvent<T>>` methods (answered by stream messages),
    /// false for unary `AppResult<T>` ones (answered by one CallSuccess).
    public let isStream: Bool
    /// Whether a unary call of this method may be sent again after a lost
    /// answer (``KRPCDelivery``). A caller may ask for `atMostOnce` for one
    /// call of a `retryOnce` method (marking a book finished is a
    /// `recordPosition` that must not run twice).
    public let delivery: KRPCDelivery

    /// Names a method.
    /// - Parameters:
    ///   - service: the declaring service.
    ///   - name: the Kotlin function name.
    ///   - isStream: whether it returns a Flow.
    ///   - delivery: whether a lost answer may be asked for again; the
    ///     default, `atMostOnce`, is right for any call that changes
    ///     something: declare `retryOnce` only for reads and writes that are
    ///     safe to run twice.
    public init(service: KRPCServiceType, name: String, isStream: Bool = false, delivery: KRPCDelivery = .atMostOnce) {
        self.service = service
        self.name = name
        self.isStream = isStream
        self.delivery = delivery
    }

    /// `InstanceService.getServerInfo()` → `AppResult<ServerInfo>`.
    public static let getServerInfo = KRPCMethod(service: .instanceService, name: "getServerInfo", delivery: .retryOnce)
    /// `AuthServicePublic.setupRoot(request)` → `AppResult<AuthSession>`.
    /// At most once: a second send answers `SetupAlreadyComplete`.
    public static let setupRoot = KRPCMethod(service: .authServicePublic, name: "setupRoot")
    /// `AuthServicePublic.login(request)` → `AppResult<AuthSession>`.
    /// At most once: each send opens a session on the server.
    public static let login = KRPCMethod(service: .authServicePublic, name: "login")
    /// `AuthServicePublic.register(request)` → `AppResult<RegisterResult>`.
    /// At most once: a second send answers `EmailAlreadyExists`.
    public static let register = KRPCMethod(service: .authServicePublic, name: "register")
    /// `AuthServicePublic.refreshSession(request)` → `AppResult<AuthSession>`.
    /// At most once, as the official client sends it (`AuthRepositoryImpl.performRefresh`):
    /// each send rotates the pair. After a lost answer the session stands and
    /// the next refresh, with the same token, falls in the server's grace window.
    public static let refreshSession = KRPCMethod(service: .authServicePublic, name: "refreshSession")
    /// `AuthServiceAuthed.logout()` → `AppResult<Unit>`. Idempotent on the server (§3.3).
    public static let logout = KRPCMethod(service: .authServiceAuthed, name: "logout", delivery: .retryOnce)
    /// `AuthServiceAuthed.listSessions()` → `AppResult<List<SessionSummary>>` (a read).
    public static let listSessions = KRPCMethod(service: .authServiceAuthed, name: "listSessions", delivery: .retryOnce)
    /// `AuthServiceAuthed.revokeSession(sessionId)` → `AppResult<Unit>`: owner-scoped and
    /// idempotent (a foreign or unknown id is a silent success), so sent again after a lost answer.
    public static let revokeSession = KRPCMethod(service: .authServiceAuthed, name: "revokeSession", delivery: .retryOnce)
    /// `AuthServiceAuthed.currentUser()` → `AppResult<User>`.
    public static let currentUser = KRPCMethod(service: .authServiceAuthed, name: "currentUser", delivery: .retryOnce)
    /// `SyncStreamService.listDomains()` → `AppResult<List<String>>`.
    public static let listDomains = KRPCMethod(service: .syncStreamService, name: "listDomains", delivery: .retryOnce)
    /// `SyncStreamService.pullDomain(domain, since, limit)` → `AppResult<SyncPage>`.
    public static let pullDomain = KRPCMethod(service: .syncStreamService, name: "pullDomain", delivery: .retryOnce)
    /// `SyncStreamService.pullByIds(domain, match, ids)` → `AppResult<SyncPage>`.
    public static let pullByIds = KRPCMethod(service: .syncStreamService, name: "pullByIds", delivery: .retryOnce)
    /// `SyncStreamService.digest(domain, cursor)` → `AppResult<DomainDigest>`.
    public static let digest = KRPCMethod(service: .syncStreamService, name: "digest", delivery: .retryOnce)
    /// `SyncStreamService.observeEvents(sinceRevision)` → `Flow<RpcEvent<SyncFrame>>`.
    public static let observeEvents = KRPCMethod(service: .syncStreamService, name: "observeEvents", isStream: true)
    /// `PlaybackService.prepare(bookId, capabilities, forceTranscode)` → `AppResult<PreparedPlayback>`.
    /// Sent again after a lost answer: it only signs URLs (direct play starts no transcode).
    public static let prepare = KRPCMethod(service: .playbackService, name: "prepare", delivery: .retryOnce)
    /// `PlaybackService.getPosition(bookId)` → `AppResult<PlaybackPositionSyncPayload?>`.
    public static let getPosition = KRPCMethod(service: .playbackService, name: "getPosition", delivery: .retryOnce)
    /// `PlaybackService.recordPosition(request)` → `AppResult<PlaybackPositionSyncPayload>`.
    /// Sent again after a lost answer when the position is a listening span's
    /// end, stamped with the span's own `lastPlayedAt` (the same write twice);
    /// marking a book finished asks for `atMostOnce` for its call.
    public static let recordPosition = KRPCMethod(service: .playbackService, name: "recordPosition", delivery: .retryOnce)
    /// `PlaybackService.recordListeningEvent(request)` → `AppResult<ListeningEventSyncPayload>`.
    /// Sent again after a lost answer: the server upserts the event by its client-chosen `id`.
    public static let recordListeningEvent = KRPCMethod(service: .playbackService, name: "recordListeningEvent", delivery: .retryOnce)
    /// `PlaybackProgressService.getRecentlyListened(limit)` → `AppResult<List<PlaybackPositionSyncPayload>>`.
    public static let getRecentlyListened = KRPCMethod(service: .playbackProgressService, name: "getRecentlyListened",
                                                           delivery: .retryOnce)
    /// `BookService.getBook(id)` → `AppResult<BookSyncPayload>`.
    public static let getBook = KRPCMethod(service: .bookService, name: "getBook", delivery: .retryOnce)
    /// `UserPreferencesService.getMyPreferences()` → `AppResult<UserPreferencesDto>` (a read: retried once).
    public static let getMyPreferences = KRPCMethod(service: .userPreferencesService, name: "getMyPreferences", delivery: .retryOnce)
    /// `UserPreferencesService.updateMyPreferences(request)` → `AppResult<UserPreferencesDto>` (merged, clamped);
    /// sent at most once (the default delivery).
    public static let updateMyPreferences = KRPCMethod(service: .userPreferencesService, name: "updateMyPreferences")

    /// Every method above.
    public static let all: [KRPCMethod] = [
        .getServerInfo, .setupRoot, .login, .register, .refreshSession, .logout, .currentUser, .listDomains, .pullDomain,
        .listSessions, .revokeSession, .pullByIds, .digest, .observeEvents, .prepare, .getPosition, .recordPosition, .recordListeningEvent,
        .getRecentlyListened, .getBook, .getMyPreferences, .updateMyPreferences,
        .createShelf, .updateShelf, .deleteShelf, .addBookToShelf, .removeBookFromShelf, .getShelf, .discoverShelves,
        .lookupInvite, .claimInvite, .currentlyListening,
    ]

    /// `Service.method`, for logs.
    public var description: String {
        let simple = service.rawValue.split(separator: ".").last.map(String.init) ?? service.rawValue
        return "\(simple).\(name)"
    }
}
