import Foundation

/// `POST /api/v1/auth/register` body (Go `internal/api/auth_handlers.go`):
/// the same four keys as setup's, every one sent. The Go server always
/// creates a pending user.
public typealias RegistrationRequest = SetupRequest

extension SetupRequest {
    /// A display name split as the Go server keeps names: the first word,
    /// then the rest (empty for a one-word name).
    public static func split(displayName: String) -> (first: String, last: String) {
        let words = displayName.split(whereSeparator: \.isWhitespace)
        guard let first = words.first else { return ("", "") }
        return (String(first), words.dropFirst().joined(separator: " "))
    }
}

/// `POST /api/v1/auth/register` `data`: the pending user's id and the server's note.
public struct RegistrationResponse: Codable, Equatable, Sendable {
    public var userID: String
    public var message: String?

    enum CodingKeys: String, CodingKey {
        case userID = "user_id"
        case message
    }

    public init(userID: String, message: String? = nil) {
        self.userID = userID
        self.message = message
    }
}

/// `GET /api/v1/auth/registration-status/{user_id}` `data`: `status` is the
/// user's status (`pending`, `active`), or `denied` when there is no such
/// user (a declined one is deleted).
public struct RegistrationStatusResponse: Codable, Equatable, Sendable {
    public var userID: String
    public var status: String
    public var approved: Bool

    enum CodingKeys: String, CodingKey {
        case userID = "user_id"
        case status, approved
    }

    public init(userID: String, status: String, approved: Bool) {
        self.userID = userID
        self.status = status
        self.approved = approved
    }
}

/// The `data` of the registration stream's `connected` and `status` events
/// (Go `internal/sse/registration_handler.go`): `status` is `pending`
/// (connected), then `approved` or `denied`.
public struct RegistrationStreamEvent: Codable, Equatable, Sendable {
    public var status: String
    public var message: String?
    public var timestamp: String?

    public init(status: String, message: String? = nil, timestamp: String? = nil) {
        self.status = status
        self.message = message
        self.timestamp = timestamp
    }
}

extension Endpoint where Response == RegistrationResponse {
    /// `POST /api/v1/auth/register` (public, rate-limited).
    public static func register(_ request: RegistrationRequest) -> Endpoint {
        Endpoint(method: .post, path: "/api/v1/auth/register", body: json(request), requiresAuth: false)
    }
}

extension Endpoint where Response == RegistrationStatusResponse {
    /// `GET /api/v1/auth/registration-status/{user_id}` (public).
    public static func registrationStatus(userID: String) -> Endpoint {
        Endpoint(method: .get, path: "/api/v1/auth/registration-status/" + segment(userID), requiresAuth: false)
    }
}

/// The registration stream's path (server-sent events, public).
public enum RegistrationStreamPath {
    /// `/api/v1/auth/registration-status/{user_id}/stream`.
    public static func path(userID: String) -> String {
        "/api/v1/auth/registration-status/" + Endpoint<RegistrationStatusResponse>.segment(userID) + "/stream"
    }
}
