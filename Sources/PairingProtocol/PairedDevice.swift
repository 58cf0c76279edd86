import Foundation

/// A companion that completed pairing.
public struct PairedDevice: Codable, Sendable, Equatable, Identifiable {
    /// A random id (base64url), stable for the device's life.
    public var id: String
    /// `client_name` it sent.
    public var name: String
    /// `client_model` it sent.
    public var model: String
    /// When the pairing was accepted.
    public var pairedAt: Date
    /// The last authenticated request.
    public var lastSeen: Date
    /// When its token stops working.
    public var expiresAt: Date
    /// Hex SHA-256 of its bearer token (the token itself is never stored).
    package var tokenHash: String

    /// A device as shown (previews, tests); it carries no token, so it authenticates nothing.
    public init(id: String, name: String, model: String, pairedAt: Date, lastSeen: Date, expiresAt: Date) {
        self.init(id: id, name: name, model: model, pairedAt: pairedAt, lastSeen: lastSeen, expiresAt: expiresAt, tokenHash: "")
    }

    package init(id: String, name: String, model: String, pairedAt: Date, lastSeen: Date, expiresAt: Date, tokenHash: String) {
        self.id = id
        self.name = name
        self.model = model
        self.pairedAt = pairedAt
        self.lastSeen = lastSeen
        self.expiresAt = expiresAt
        self.tokenHash = tokenHash
    }
}
