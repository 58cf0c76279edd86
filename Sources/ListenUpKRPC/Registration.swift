/// Registration's wire types beyond `RegisterRequest` and `RegisterResult`
/// (addendum §6.2; upstream `api/AuthService.kt`,
/// `api/dto/auth/RegistrationStatusEvent.kt`,
/// `server/.../auth/RegistrationStatusWatch.kt`).

/// `observeRegistrationStatus(userId)`'s argument object.
public struct ObserveRegistrationStatusArguments: Encodable, Sendable, Equatable {
    /// The pending account's id (`RegisterResult.PendingApproval.userId`); not blank.
    public var userId: String

    /// - Parameter userId: the pending account's id.
    public init(userId: String) {
        self.userId = userId
    }
}

/// One element of `observeRegistrationStatus`: the current status, then,
/// while `pending`, exactly one terminal one; the Flow then completes.
public struct RegistrationStatusEvent: Codable, Sendable, Equatable {
    /// `pending`, `approved` or `denied` (lower case, as sent). Open: an
    /// unknown word is kept.
    public var status: String
    /// Never set by the server (default nil).
    public var timestamp: String?
    /// The denial's reason, only on a live push (default nil).
    public var message: String?

    /// Creates an event; each parameter sets the property of the same name.
    public init(status: String, timestamp: String? = nil, message: String? = nil) {
        self.status = status
        self.timestamp = timestamp
        self.message = message
    }

    /// `"pending"`.
    public static let pending = "pending"
    /// `"approved"`.
    public static let approved = "approved"
    /// `"denied"`.
    public static let denied = "denied"

    enum CodingKeys: String, CodingKey {
        case status, timestamp, message
    }

    /// Decodes an event; `timestamp` and `message` may be absent (their Kotlin defaults).
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(status: try c.decode(String.self, forKey: .status), timestamp: try c.decodeIfPresent(String.self, forKey: .timestamp),
                  message: try c.decodeIfPresent(String.self, forKey: .message))
    }

    /// Writes `status`, and `timestamp` and `message` only when set (the server omits defaults).
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(status, forKey: .status)
        try c.encodeIfPresent(timestamp, forKey: .timestamp)
        try c.encodeIfPresent(message, forKey: .message)
    }
}

extension KRPCMethod {
    /// `AuthServicePublic.observeRegistrationStatus(userId)` →
    /// `Flow<RpcEvent<RegistrationStatusEvent>>`: completes after the
    /// terminal event; an unknown id is `RpcEvent.Error(AuthError.RegistrationNotFound)`.
    /// Counted per address (20 a minute): do not resubscribe in a loop.
    public static let observeRegistrationStatus = KRPCMethod(service: .authServicePublic, name: "observeRegistrationStatus",
                                                              isStream: true)

    /// `AuthServicePublic.observeRegistrationPolicy()` →
    /// `Flow<RpcEvent<RegistrationPolicy>>`: the policy now, then each change
    /// (a value is a JSON string, `"OPEN"`); it never completes on its own.
    /// Counted per address (20 a minute): follow it while Sign in shows,
    /// never resubscribe in a loop.
    public static let observeRegistrationPolicy = KRPCMethod(service: .authServicePublic, name: "observeRegistrationPolicy",
                                                              isStream: true)
}

extension AppError {
    /// `AuthError.RegistrationNotFound`: the watched registration does not exist.
    public var isRegistrationNotFound: Bool { kind == .authRegistrationNotFound }
}
