import Testing
@testable import ListenUpKRPC

/// The local table of §3.0: every listed `type`, its code and retry flag.
@Suite("AppError table")
struct AppErrorTableTests {
    /// Every `type` in the §3.0 table, with the code it must map to.
    static let contractTable: [(String, String)] = [
        ("AppError.InternalError", "INTERNAL_ERROR"),
        ("AppError.ValidationError", "VALIDATION_ERROR"),
        ("AuthError.InvalidCredentials", "AUTH_INVALID_CREDENTIALS"),
        ("AuthError.SetupRequired", "AUTH_SETUP_REQUIRED"),
        ("AuthError.SetupAlreadyComplete", "AUTH_SETUP_ALREADY_COMPLETE"),
        ("AuthError.PendingApproval", "AUTH_PENDING_APPROVAL"),
        ("AuthError.AccountDenied", "AUTH_ACCOUNT_DENIED"),
        ("AuthError.SessionExpired", "AUTH_SESSION_EXPIRED"),
        ("AuthError.SessionNotFound", "AUTH_SESSION_NOT_FOUND"),
        ("AuthError.ServerInstanceChanged", "AUTH_SERVER_INSTANCE_CHANGED"),
        ("AuthError.EmailAlreadyExists", "AUTH_EMAIL_ALREADY_EXISTS"),
        ("AuthError.RegistrationDisabled", "AUTH_REGISTRATION_DISABLED"),
        ("AuthError.PermissionDenied", "AUTH_PERMISSION_DENIED"),
        ("AuthError.InvalidRefreshToken", "AUTH_INVALID_REFRESH_TOKEN"),
        ("AuthError.RateLimited", "AUTH_RATE_LIMITED"),
        ("AuthError.WeakPassword", "AUTH_WEAK_PASSWORD"),
        ("AuthError.RegistrationNotFound", "AUTH_REGISTRATION_NOT_FOUND"),
        // Upstream `api/error/AuthError.kt` (addendum §6.3, password reset).
        ("AuthError.ResetRequestNotFound", "AUTH_RESET_NOT_FOUND"),
        ("AuthError.ResetNotApproved", "AUTH_RESET_NOT_APPROVED"),
        ("AuthError.ResetCodeIncorrect", "AUTH_RESET_CODE_INCORRECT"),
        ("AuthError.ResetAttemptsExhausted", "AUTH_RESET_ATTEMPTS_EXHAUSTED"),
        ("SyncError.NotFound", "SYNC_NOT_FOUND"),
        ("SyncError.UnknownDomain", "SYNC_UNKNOWN_DOMAIN"),
        ("SyncError.TooManyIds", "SYNC_TOO_MANY_IDS"),
        ("SyncError.UnsupportedMatch", "SYNC_UNSUPPORTED_MATCH"),
        // Upstream `api/error/ShelfError.kt` (addendum §0).
        ("ShelfError.NotFound", "SHELF_NOT_FOUND"),
        ("ShelfError.Forbidden", "SHELF_FORBIDDEN"),
        ("ShelfError.InvalidName", "SHELF_INVALID_NAME"),
        // Upstream `api/error/InviteError.kt` (addendum §0, §6.4).
        ("InviteError.NotFound", "INVITE_NOT_FOUND"),
        ("InviteError.Expired", "INVITE_EXPIRED"),
        ("InviteError.AlreadyClaimed", "INVITE_ALREADY_CLAIMED"),
        ("InviteError.EmailInUse", "INVITE_EMAIL_IN_USE"),
        ("InviteError.InvalidInput", "INVITE_INVALID_INPUT"),
    ]

    @Test(arguments: contractTable)
    func everyContractTypeHasItsCode(_ type: String, _ code: String) {
        let kind = AppErrorKind(wireType: type)
        #expect(kind != .unknown)
        #expect(kind.code == code)
        #expect(kind.wireType == type)
        #expect(kind.isRetryable == (type == "AuthError.RateLimited"))
        #expect(AppError(type: type).code == code)
    }

    @Test func tableIsExactlyTheContractTable() {
        #expect(AppErrorKind.known.count == Self.contractTable.count)
        #expect(Set(AppErrorKind.known.compactMap(\.wireType)) == Set(Self.contractTable.map(\.0)))
        #expect(Set(AppErrorKind.known.map(\.code)).count == AppErrorKind.known.count)
    }

    @Test func unknownIsDistinct() {
        #expect(AppErrorKind(wireType: "AuthError.Brand.New") == .unknown)
        #expect(AppErrorKind(wireType: "") == .unknown)
        #expect(AppErrorKind.unknown.wireType == nil)
        #expect(AppErrorKind.unknown.code == "UNKNOWN_ERROR")
        #expect(!AppErrorKind.unknown.isRetryable)
    }
}
