import Foundation

/// `GET /api/v1/invites/{code}` (public; the Go server's
/// `internal/api/invite_handlers.go`, addendum §7 "Invites"): what the
/// join page shows before the invite is claimed.
public struct InviteDetailsResponse: Codable, Equatable, Sendable {
    /// The invitee's name.
    public var name: String
    public var email: String
    public var serverName: String
    /// The inviter's name (`omitempty`).
    public var invitedBy: String?
    /// False for a claimed, expired or deleted invite (no reason given).
    public var valid: Bool

    enum CodingKeys: String, CodingKey {
        case name, email, valid
        case serverName = "server_name"
        case invitedBy = "invited_by"
    }

    public init(name: String, email: String, serverName: String, invitedBy: String?, valid: Bool) {
        self.name = name
        self.email = email
        self.serverName = serverName
        self.invitedBy = invitedBy
        self.valid = valid
    }
}

/// `POST /api/v1/invites/{code}/claim`'s body: the new account's password
/// (8…1024) and this device. The account's name and email are the invite's.
/// Holds the password: never log it.
public struct ClaimInviteRequest: Codable, Equatable, Sendable {
    public var password: String
    public var deviceInfo: DeviceInfo?

    enum CodingKeys: String, CodingKey {
        case password
        case deviceInfo = "device_info"
    }

    public init(password: String, deviceInfo: DeviceInfo?) {
        self.password = password
        self.deviceInfo = deviceInfo
    }
}

extension Endpoint where Response == InviteDetailsResponse {
    /// `GET /api/v1/invites/{code}` (no auth); 404 for an unknown code.
    public static func inviteDetails(code: String) -> Endpoint {
        Endpoint(method: .get, path: "/api/v1/invites/" + segment(code), requiresAuth: false)
    }
}

extension Endpoint where Response == AuthResponse {
    /// `POST /api/v1/invites/{code}/claim` (no auth): makes the account and
    /// signs in (the login answer, R§7.4). 404 unknown, 409 used or expired.
    public static func claimInvite(code: String, _ request: ClaimInviteRequest) -> Endpoint {
        Endpoint(method: .post, path: "/api/v1/invites/" + segment(code) + "/claim", body: json(request), requiresAuth: false)
    }
}
