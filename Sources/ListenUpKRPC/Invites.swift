/// What `InviteServicePublic.lookupInvite(code)` answers (addendum §6.4;
/// `api/dto/invite/InviteDtos.kt`): the public landing page's view of an
/// invite. `invalidReason` is omitted when null (`encodeDefaults=false`).
public struct InvitePreview: Codable, Sendable, Equatable {
    /// The name the invite proposes.
    public var displayName: String
    /// The invitee's email.
    public var email: String
    /// The inviter's display name (`"An administrator"` when unknown).
    public var invitedByName: String
    /// The server's name.
    public var serverName: String
    /// False for a claimed or expired invite.
    public var valid: Bool
    /// The English message of the `InviteError` that makes it invalid
    /// (`"This invite has already been used."`, `"This invite has expired."`).
    public var invalidReason: String?

    /// Creates a preview; each parameter sets the property of the same name.
    public init(displayName: String, email: String, invitedByName: String, serverName: String, valid: Bool,
                invalidReason: String? = nil) {
        self.displayName = displayName
        self.email = email
        self.invitedByName = invitedByName
        self.serverName = serverName
        self.valid = valid
        self.invalidReason = invalidReason
    }

    private enum CodingKeys: String, CodingKey { case displayName, email, invitedByName, serverName, valid, invalidReason }

    /// Writes every key, `invalidReason` only when set (as the server does).
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(displayName, forKey: .displayName)
        try c.encode(email, forKey: .email)
        try c.encode(invitedByName, forKey: .invitedByName)
        try c.encode(serverName, forKey: .serverName)
        try c.encode(valid, forKey: .valid)
        try c.encodeIfPresent(invalidReason, forKey: .invalidReason)
    }
}

/// `lookupInvite(code)`: `{"code":…}`.
public struct LookupInviteArguments: Codable, Sendable, Equatable {
    public var code: String

    public init(code: String) {
        self.code = code
    }
}

/// `claimInvite(code, password, displayName, deviceInfo)`: every parameter
/// sent, `null` included (§0 of the addendum: an absent argument crashes the call).
/// Holds the password: never log it.
public struct ClaimInviteArguments: Codable, Sendable, Equatable {
    public var code: String
    public var password: String
    /// nil keeps the invite's name.
    public var displayName: String?
    public var deviceInfo: DeviceInfo?

    /// Creates the arguments; each parameter sets the property of the same name.
    public init(code: String, password: String, displayName: String?, deviceInfo: DeviceInfo?) {
        self.code = code
        self.password = password
        self.displayName = displayName
        self.deviceInfo = deviceInfo
    }

    private enum CodingKeys: String, CodingKey { case code, password, displayName, deviceInfo }

    /// Writes every key, `null` for nil.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(code, forKey: .code)
        try c.encode(password, forKey: .password)
        try c.encode(displayName, forKey: .displayName)
        try c.encode(deviceInfo, forKey: .deviceInfo)
    }
}

extension KRPCMethod {
    /// `InviteServicePublic.lookupInvite(code)` → `AppResult<InvitePreview>` (a read: retried once).
    public static let lookupInvite = KRPCMethod(service: .inviteServicePublic, name: "lookupInvite", delivery: .retryOnce)
    /// `InviteServicePublic.claimInvite(code, password, displayName, deviceInfo)` → `AppResult<AuthSession>`.
    /// At most once: a second send answers `AlreadyClaimed`.
    public static let claimInvite = KRPCMethod(service: .inviteServicePublic, name: "claimInvite")
}
