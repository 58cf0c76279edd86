/// The `AppError` types this build knows (§3.0), with their stable code and
/// retry flag. The server does not send these; they are constants per type.
///
/// | `type` | ``code`` | ``isRetryable`` |
/// |---|---|---|
/// | `AppError.InternalError` | `INTERNAL_ERROR` | no |
/// | `AppError.ValidationError` | `VALIDATION_ERROR` | no |
/// | `AuthError.InvalidCredentials` | `AUTH_INVALID_CREDENTIALS` | no |
/// | `AuthError.SetupRequired` | `AUTH_SETUP_REQUIRED` | no |
/// | `AuthError.SetupAlreadyComplete` | `AUTH_SETUP_ALREADY_COMPLETE` | no |
/// | `AuthError.PendingApproval` | `AUTH_PENDING_APPROVAL` | no |
/// | `AuthError.AccountDenied` | `AUTH_ACCOUNT_DENIED` | no |
/// | `AuthError.SessionExpired` | `AUTH_SESSION_EXPIRED` | no |
/// | `AuthError.SessionNotFound` | `AUTH_SESSION_NOT_FOUND` | no |
/// | `AuthError.ServerInstanceChanged` | `AUTH_SERVER_INSTANCE_CHANGED` | no |
/// | `AuthError.EmailAlreadyExists` | `AUTH_EMAIL_ALREADY_EXISTS` | no |
/// | `AuthError.RegistrationDisabled` | `AUTH_REGISTRATION_DISABLED` | no |
/// | `AuthError.PermissionDenied` | `AUTH_PERMISSION_DENIED` | no |
/// | `AuthError.InvalidRefreshToken` | `AUTH_INVALID_REFRESH_TOKEN` | no |
/// | `AuthError.RateLimited` | `AUTH_RATE_LIMITED` | **yes** |
/// | `AuthError.WeakPassword` | `AUTH_WEAK_PASSWORD` | no |
/// | `AuthError.RegistrationNotFound` | `AUTH_REGISTRATION_NOT_FOUND` | no |
/// | `AuthError.ResetRequestNotFound` | `AUTH_RESET_NOT_FOUND` | no |
/// | `AuthError.ResetNotApproved` | `AUTH_RESET_NOT_APPROVED` | no |
/// | `AuthError.ResetCodeIncorrect` | `AUTH_RESET_CODE_INCORRECT` | no |
/// | `AuthError.ResetAttemptsExhausted` | `AUTH_RESET_ATTEMPTS_EXHAUSTED` | no |
/// | `SyncError.NotFound` | `SYNC_NOT_FOUND` | no |
/// | `SyncError.UnknownDomain` | `SYNC_UNKNOWN_DOMAIN` | no |
/// | `SyncError.TooManyIds` | `SYNC_TOO_MANY_IDS` | no |
/// | `SyncError.UnsupportedMatch` | `SYNC_UNSUPPORTED_MATCH` | no |
/// | `InviteError.NotFound` | `INVITE_NOT_FOUND` | no |
/// | `InviteError.Expired` | `INVITE_EXPIRED` | no |
/// | `InviteError.AlreadyClaimed` | `INVITE_ALREADY_CLAIMED` | no |
/// | `InviteError.EmailInUse` | `INVITE_EMAIL_IN_USE` | no |
/// | `InviteError.InvalidInput` | `INVITE_INVALID_INPUT` | no |
/// | anything else | `UNKNOWN_ERROR` | no |
public enum AppErrorKind: Sendable, Hashable, CaseIterable {
    /// `AppError.InternalError`: an unmapped server exception (the guard's catch-all).
    case internalError
    /// `AppError.ValidationError`: malformed input; carries `message` and `field`.
    case validationError
    /// `AuthError.InvalidCredentials`: wrong email or password (deliberately vague).
    case authInvalidCredentials
    /// `AuthError.SetupRequired`: no users yet; call `setupRoot`.
    case authSetupRequired
    /// `AuthError.SetupAlreadyComplete`: `setupRoot` on a server that has users.
    case authSetupAlreadyComplete
    /// `AuthError.PendingApproval`: the account awaits an administrator.
    case authPendingApproval
    /// `AuthError.AccountDenied`: the account was denied.
    case authAccountDenied
    /// `AuthError.SessionExpired`: sign in again (also ends streams on revocation).
    case authSessionExpired
    /// `AuthError.SessionNotFound`: sign in again.
    case authSessionNotFound
    /// `AuthError.ServerInstanceChanged`: the server at this address is another instance.
    case authServerInstanceChanged
    /// `AuthError.EmailAlreadyExists`.
    case authEmailAlreadyExists
    /// `AuthError.RegistrationDisabled`.
    case authRegistrationDisabled
    /// `AuthError.PermissionDenied`: also what a stream without a principal ends with.
    case authPermissionDenied
    /// `AuthError.InvalidRefreshToken`: carries `familyRevoked`.
    case authInvalidRefreshToken
    /// `AuthError.RateLimited`: carries `retryAfterSeconds`.
    case authRateLimited
    /// `AuthError.WeakPassword`: carries `reason`.
    case authWeakPassword
    /// `AuthError.RegistrationNotFound`: no registration has the watched id.
    case authRegistrationNotFound
    /// `AuthError.ResetRequestNotFound`: the reset is unknown, expired or used (upstream `api/error/AuthError.kt`).
    case authResetRequestNotFound
    /// `AuthError.ResetNotApproved`: the reset is pending or was denied (one shape for both).
    case authResetNotApproved
    /// `AuthError.ResetCodeIncorrect`: wrong code or claim; carries `attemptsRemaining`.
    case authResetCodeIncorrect
    /// `AuthError.ResetAttemptsExhausted`: five wrong codes; the reset is dead.
    case authResetAttemptsExhausted
    /// `SyncError.NotFound`: carries `domain` and `entityId`; also "book not accessible".
    case syncNotFound
    /// `SyncError.UnknownDomain`: carries `domain`.
    case syncUnknownDomain
    /// `SyncError.TooManyIds`: carries `requested` and `maxIds`.
    case syncTooManyIds
    /// `SyncError.UnsupportedMatch`: carries `domain` and `match`.
    case syncUnsupportedMatch
    /// `ShelfError.NotFound`: missing, deleted, or someone else's private shelf.
    case shelfNotFound
    /// `ShelfError.Forbidden`: someone else's shelf.
    case shelfForbidden
    /// `ShelfError.InvalidName`: blank or over 200 characters.
    case shelfInvalidName
    /// `InviteError.NotFound`: no invite has this code.
    case inviteNotFound
    /// `InviteError.Expired`.
    case inviteExpired
    /// `InviteError.AlreadyClaimed`.
    case inviteAlreadyClaimed
    /// `InviteError.EmailInUse`: an account has the invite's email.
    case inviteEmailInUse
    /// `InviteError.InvalidInput`.
    case inviteInvalidInput
    /// A type this build does not know: the server is newer than the app.
    case unknown

    /// Every kind except ``unknown``.
    public static var known: [AppErrorKind] { allCases.filter { $0 != .unknown } }

    /// Looks a wire `type` up in the table.
    /// - Parameter wireType: e.g. `"AuthError.RateLimited"`.
    public init(wireType: String) {
        self = Self.byWireType[wireType] ?? .unknown
    }

    /// The wire `type`, or nil for ``unknown``.
    public var wireType: String? { Self.entries[self]?.type }

    /// The stable machine code, e.g. `AUTH_RATE_LIMITED`; `UNKNOWN_ERROR` for ``unknown``.
    public var code: String { Self.entries[self]?.code ?? "UNKNOWN_ERROR" }

    /// Whether retrying the same action is reasonable (only rate limits are).
    public var isRetryable: Bool { self == .authRateLimited }

    private static let entries: [AppErrorKind: (type: String, code: String)] = [
        .internalError: ("AppError.InternalError", "INTERNAL_ERROR"),
        .validationError: ("AppError.ValidationError", "VALIDATION_ERROR"),
        .authInvalidCredentials: ("AuthError.InvalidCredentials", "AUTH_INVALID_CREDENTIALS"),
        .authSetupRequired: ("AuthError.SetupRequired", "AUTH_SETUP_REQUIRED"),
        .authSetupAlreadyComplete: ("AuthError.SetupAlreadyComplete", "AUTH_SETUP_ALREADY_COMPLETE"),
        .authPendingApproval: ("AuthError.PendingApproval", "AUTH_PENDING_APPROVAL"),
        .authAccountDenied: ("AuthError.AccountDenied", "AUTH_ACCOUNT_DENIED"),
        .authSessionExpired: ("AuthError.SessionExpired", "AUTH_SESSION_EXPIRED"),
        .authSessionNotFound: ("AuthError.SessionNotFound", "AUTH_SESSION_NOT_FOUND"),
        .authServerInstanceChanged: ("AuthError.ServerInstanceChanged", "AUTH_SERVER_INSTANCE_CHANGED"),
        .authEmailAlreadyExists: ("AuthError.EmailAlreadyExists", "AUTH_EMAIL_ALREADY_EXISTS"),
        .authRegistrationDisabled: ("AuthError.RegistrationDisabled", "AUTH_REGISTRATION_DISABLED"),
        .authPermissionDenied: ("AuthError.PermissionDenied", "AUTH_PERMISSION_DENIED"),
        .authInvalidRefreshToken: ("AuthError.InvalidRefreshToken", "AUTH_INVALID_REFRESH_TOKEN"),
        .authRateLimited: ("AuthError.RateLimited", "AUTH_RATE_LIMITED"),
        .authWeakPassword: ("AuthError.WeakPassword", "AUTH_WEAK_PASSWORD"),
        .authRegistrationNotFound: ("AuthError.RegistrationNotFound", "AUTH_REGISTRATION_NOT_FOUND"),
        .authResetRequestNotFound: ("AuthError.ResetRequestNotFound", "AUTH_RESET_NOT_FOUND"),
        .authResetNotApproved: ("AuthError.ResetNotApproved", "AUTH_RESET_NOT_APPROVED"),
        .authResetCodeIncorrect: ("AuthError.ResetCodeIncorrect", "AUTH_RESET_CODE_INCORRECT"),
        .authResetAttemptsExhausted: ("AuthError.ResetAttemptsExhausted", "AUTH_RESET_ATTEMPTS_EXHAUSTED"),
        .syncNotFound: ("SyncError.NotFound", "SYNC_NOT_FOUND"),
        .syncUnknownDomain: ("SyncError.UnknownDomain", "SYNC_UNKNOWN_DOMAIN"),
        .syncTooManyIds: ("SyncError.TooManyIds", "SYNC_TOO_MANY_IDS"),
        .syncUnsupportedMatch: ("SyncError.UnsupportedMatch", "SYNC_UNSUPPORTED_MATCH"),
        .shelfNotFound: ("ShelfError.NotFound", "SHELF_NOT_FOUND"),
        .shelfForbidden: ("ShelfError.Forbidden", "SHELF_FORBIDDEN"),
        .shelfInvalidName: ("ShelfError.InvalidName", "SHELF_INVALID_NAME"),
        .inviteNotFound: ("InviteError.NotFound", "INVITE_NOT_FOUND"),
        .inviteExpired: ("InviteError.Expired", "INVITE_EXPIRED"),
        .inviteAlreadyClaimed: ("InviteError.AlreadyClaimed", "INVITE_ALREADY_CLAIMED"),
        .inviteEmailInUse: ("InviteError.EmailInUse", "INVITE_EMAIL_IN_USE"),
        .inviteInvalidInput: ("InviteError.InvalidInput", "INVITE_INVALID_INPUT"),
    ]

    private static let byWireType: [String: AppErrorKind] = {
        var table: [String: AppErrorKind] = [:]
        for (kind, entry) in entries { table[entry.type] = kind }
        return table
    }()
}
