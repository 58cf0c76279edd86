/// A signed-in session (`AuthSession`, §3.2), returned by `setupRoot`,
/// `login` and `refreshSession`. Both tokens are secrets: never log them.
public struct AuthSession: Codable, Sendable, Equatable {
    /// HS256 JWT for `Authorization: Bearer` on the authed socket and covers (15 min).
    public var accessToken: String
    /// Epoch milliseconds.
    public var accessTokenExpiresAt: Int64
    /// Opaque; each refresh rotates it (30 days, sliding).
    public var refreshToken: String
    /// Epoch milliseconds.
    public var refreshTokenExpiresAt: Int64
    /// The session's id.
    public var sessionId: String
    /// The signed-in user.
    public var user: User

    /// Creates a session; each parameter sets the property of the same name.
    public init(accessToken: String, accessTokenExpiresAt: Int64, refreshToken: String, refreshTokenExpiresAt: Int64,
                sessionId: String, user: User) {
        self.accessToken = accessToken
        self.accessTokenExpiresAt = accessTokenExpiresAt
        self.refreshToken = refreshToken
        self.refreshTokenExpiresAt = refreshTokenExpiresAt
        self.sessionId = sessionId
        self.user = user
    }
}

/// A user account (`User`, §3.2).
public struct User: Codable, Sendable, Equatable {
    /// The user's id.
    public var id: String
    /// The email.
    public var email: String
    /// The display name.
    public var displayName: String
    /// ROOT, ADMIN or MEMBER.
    public var role: UserRole
    /// ACTIVE, PENDING_APPROVAL or DENIED.
    public var status: UserStatus
    /// Epoch milliseconds.
    public var createdAt: Int64
    /// What the user may do (default: edit and share).
    public var permissions: UserPermissions
    /// Who approved the account, when someone did.
    public var approvedBy: String?
    /// When, in epoch milliseconds.
    public var approvedAt: Int64?

    /// Creates a user; each parameter sets the property of the same name.
    public init(id: String, email: String, displayName: String, role: UserRole, status: UserStatus, createdAt: Int64,
                permissions: UserPermissions = UserPermissions(), approvedBy: String? = nil, approvedAt: Int64? = nil) {
        self.id = id
        self.email = email
        self.displayName = displayName
        self.role = role
        self.status = status
        self.createdAt = createdAt
        self.permissions = permissions
        self.approvedBy = approvedBy
        self.approvedAt = approvedAt
    }

    private enum CodingKeys: String, CodingKey {
        case id, email, displayName, role, status, createdAt, permissions, approvedBy, approvedAt
    }

    /// Decodes a user; omitted `permissions` is `{canEdit:true, canShare:true}`.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(id: try c.decode(String.self, forKey: .id), email: try c.decode(String.self, forKey: .email),
                  displayName: try c.decode(String.self, forKey: .displayName),
                  role: try c.decode(UserRole.self, forKey: .role), status: try c.decode(UserStatus.self, forKey: .status),
                  createdAt: try c.decode(Int64.self, forKey: .createdAt),
                  permissions: try c.decode(.permissions, default: UserPermissions()),
                  approvedBy: try c.decodeIfPresent(String.self, forKey: .approvedBy),
                  approvedAt: try c.decodeIfPresent(Int64.self, forKey: .approvedAt))
    }
}

/// `User.permissions`; each flag defaults to true when omitted.
public struct UserPermissions: Codable, Sendable, Equatable, Hashable {
    /// May edit metadata.
    public var canEdit: Bool
    /// May share collections.
    public var canShare: Bool

    /// Creates permissions; each parameter sets the property of the same name.
    public init(canEdit: Bool = true, canShare: Bool = true) {
        self.canEdit = canEdit
        self.canShare = canShare
    }

    private enum CodingKeys: String, CodingKey {
        case canEdit, canShare
    }

    /// Decodes permissions, filling `true` for an omitted flag.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(canEdit: try c.decode(.canEdit, default: true), canShare: try c.decode(.canShare, default: true))
    }
}

/// `User.role`. Open: unknown names are kept.
public struct UserRole: RawRepresentable, Hashable, Sendable, Codable, CustomStringConvertible {
    /// The name as sent.
    public let rawValue: String
    /// Wraps a name.
    /// - Parameter rawValue: e.g. `"ROOT"`.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// The first user, who set the server up.
    public static let root = UserRole(rawValue: "ROOT")
    /// An administrator.
    public static let admin = UserRole(rawValue: "ADMIN")
    /// A listener.
    public static let member = UserRole(rawValue: "MEMBER")
    /// The name.
    public var description: String { rawValue }
}

/// `User.status`. Open: unknown names are kept.
public struct UserStatus: RawRepresentable, Hashable, Sendable, Codable, CustomStringConvertible {
    /// The name as sent.
    public let rawValue: String
    /// Wraps a name.
    /// - Parameter rawValue: e.g. `"ACTIVE"`.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// May sign in.
    public static let active = UserStatus(rawValue: "ACTIVE")
    /// Awaits an administrator.
    public static let pendingApproval = UserStatus(rawValue: "PENDING_APPROVAL")
    /// Was refused.
    public static let denied = UserStatus(rawValue: "DENIED")
    /// The name.
    public var description: String { rawValue }
}

/// What `AuthServicePublic.register` returns (§3.2).
public enum RegisterResult: Sendable, Equatable {
    /// `RegisterResult.Authenticated`: signed in at once.
    case authenticated(AuthSession)
    /// `RegisterResult.PendingApproval`: the account waits for an administrator.
    case pendingApproval(userId: String)
}

extension RegisterResult: Decodable {
    private enum CodingKeys: String, CodingKey {
        case type, session, userId
    }

    /// Decodes by `type`.
    /// - Throws: `DecodingError`; an unknown `type` surfaces as ``KRPCDecodingError/unknownType(_:)``.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let type = try c.decode(String.self, forKey: .type)
        switch type {
        case "RegisterResult.Authenticated": self = .authenticated(try c.decode(AuthSession.self, forKey: .session))
        case "RegisterResult.PendingApproval": self = .pendingApproval(userId: try c.decode(String.self, forKey: .userId))
        default: throw UnknownTypeMarker.error(type, codingPath: c.codingPath)
        }
    }
}
