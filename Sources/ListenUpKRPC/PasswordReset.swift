/// Password reset's wire types (addendum §6.3; upstream `api/AuthService.kt`
/// `requestPasswordReset`, `observePasswordResetStatus`, `completePasswordReset`;
/// `api/dto/auth/PasswordReset.kt`; `api/error/AuthError.kt`; the server's
/// `server/.../services/PasswordResetService.kt`). All three calls are on the
/// public socket; REST v1 (the Go server) has no password reset (§7).

/// `requestPasswordReset(email, deviceClaim)`'s argument object.
public struct RequestPasswordResetArguments: Encodable, Sendable, Equatable {
    /// The account's email, as typed (an unknown one still gets a ticket).
    public var email: String
    /// A high-entropy secret this device minted; presented again at completion.
    public var deviceClaim: String

    /// Creates the arguments; each parameter sets the property of the same name.
    public init(email: String, deviceClaim: String) {
        self.email = email
        self.deviceClaim = deviceClaim
    }
}

/// `PasswordResetTicket`: the handle of an open reset request, returned for
/// every request (also for an email with no account behind it).
public struct PasswordResetTicket: Codable, Sendable, Equatable {
    /// The request's id, for the status watch and the completion.
    public var ticketId: String
    /// When the request expires (epoch milliseconds; 15 minutes after it was made).
    public var expiresAt: Int64

    /// Creates a ticket; each parameter sets the property of the same name.
    public init(ticketId: String, expiresAt: Int64) {
        self.ticketId = ticketId
        self.expiresAt = expiresAt
    }
}

/// `observePasswordResetStatus(ticketId)`'s argument object.
public struct ObservePasswordResetStatusArguments: Encodable, Sendable, Equatable {
    /// ``PasswordResetTicket/ticketId``.
    public var ticketId: String

    /// - Parameter ticketId: the ticket to watch.
    public init(ticketId: String) {
        self.ticketId = ticketId
    }
}

/// One element of `observePasswordResetStatus`: the server polls every 3 s
/// and sends every poll (repeats included) while `PENDING` or `APPROVED`,
/// then the first other status, and completes. It never errors: an unknown
/// ticket reads `PENDING` until `EXPIRED`.
public struct PasswordResetStatusEvent: Codable, Sendable, Equatable {
    /// `PENDING`, `APPROVED`, `DENIED`, `CONSUMED` or `EXPIRED` (as sent). Open:
    /// an unknown word is kept.
    public var status: String
    /// When the request expires (epoch milliseconds).
    public var expiresAt: Int64

    /// Creates an event; each parameter sets the property of the same name.
    public init(status: String, expiresAt: Int64) {
        self.status = status
        self.expiresAt = expiresAt
    }

    /// `"PENDING"`.
    public static let pending = "PENDING"
    /// `"APPROVED"`: the only status completion accepts.
    public static let approved = "APPROVED"
    /// `"DENIED"`.
    public static let denied = "DENIED"
    /// `"CONSUMED"`: the reset was completed.
    public static let consumed = "CONSUMED"
    /// `"EXPIRED"`.
    public static let expired = "EXPIRED"
}

/// `completePasswordReset(ticketId, claimSecret, code, newPassword)`'s argument object.
public struct CompletePasswordResetArguments: Encodable, Sendable, Equatable {
    /// ``PasswordResetTicket/ticketId``.
    public var ticketId: String
    /// The `deviceClaim` sent with the request.
    public var claimSecret: String
    /// The administrator's code (the server upper-cases it and strips
    /// non-alphanumerics; this app sends it so already).
    public var code: String
    /// The new password (8…1024 characters, checked first by the server).
    public var newPassword: String

    /// Creates the arguments; each parameter sets the property of the same name.
    public init(ticketId: String, claimSecret: String, code: String, newPassword: String) {
        self.ticketId = ticketId
        self.claimSecret = claimSecret
        self.code = code
        self.newPassword = newPassword
    }
}

extension KRPCMethod {
    /// `AuthServicePublic.requestPasswordReset(email, deviceClaim)` →
    /// `AppResult<PasswordResetTicket>`. Always succeeds (rate limited 5 a
    /// minute per address); a new request expires the user's earlier ones.
    public static let requestPasswordReset = KRPCMethod(service: .authServicePublic, name: "requestPasswordReset")
    /// `AuthServicePublic.observePasswordResetStatus(ticketId)` →
    /// `Flow<RpcEvent<PasswordResetStatusEvent>>`.
    public static let observePasswordResetStatus = KRPCMethod(service: .authServicePublic, name: "observePasswordResetStatus",
                                                               isStream: true)
    /// `AuthServicePublic.completePasswordReset(ticketId, claimSecret, code, newPassword)` →
    /// `AppResult<Unit>`. At most once: a failure consumes an attempt.
    public static let completePasswordReset = KRPCMethod(service: .authServicePublic, name: "completePasswordReset")
}

extension AppError {
    /// `AuthError.ResetCodeIncorrect.attemptsRemaining`.
    public var attemptsRemaining: Int? { fields["attemptsRemaining"]?.intValue }
}
