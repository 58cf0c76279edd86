/// One signed-in session of the account, as `AuthServiceAuthed.listSessions()`
/// lists it (addendum §6.5; `api/dto/auth/SessionSummary.kt`): live sessions
/// only (not revoked, not expired), newest use first.
public struct SessionSummary: Codable, Sendable, Equatable {
    /// The session's id (`SessionId`, a plain string on the wire).
    public var id: String
    /// The label the client gave at sign-in (`LoginRequest.sessionLabel`).
    public var label: String?
    /// Who the client said it was (sanitized; blank fields dropped).
    public var deviceInfo: DeviceInfo?
    /// Always null in practice (no caller sets it on the server).
    public var userAgent: String?
    /// Epoch milliseconds.
    public var createdAt: Int64
    /// Epoch milliseconds.
    public var lastUsedAt: Int64
    /// The caller's own session.
    public var current: Bool

    /// Creates a summary; each parameter sets the property of the same name.
    public init(id: String, label: String? = nil, deviceInfo: DeviceInfo? = nil, userAgent: String? = nil, createdAt: Int64,
                lastUsedAt: Int64, current: Bool) {
        self.id = id
        self.label = label
        self.deviceInfo = deviceInfo
        self.userAgent = userAgent
        self.createdAt = createdAt
        self.lastUsedAt = lastUsedAt
        self.current = current
    }
}

/// `AuthServiceAuthed.revokeSession(sessionId: SessionId)`'s argument.
public struct RevokeSessionArguments: Codable, Sendable, Equatable {
    public var sessionId: String

    public init(sessionId: String) {
        self.sessionId = sessionId
    }
}
