import Foundation

/// `GET /api/v1/instance` `data` (contract §7.1).
public struct InstanceResponse: Codable, Equatable, Sendable {
    /// `lib-` + 21-character nanoid: the instance id (also the mDNS TXT `id`).
    public var id: String
    public var name: String
    /// Always `""` on real servers.
    public var version: String
    public var localURL: String
    public var remoteURL: String?
    public var openRegistration: Bool
    public var createdAt: Date
    public var updatedAt: Date
    /// True while no root user exists.
    public var setupRequired: Bool

    enum CodingKeys: String, CodingKey {
        case id, name, version
        case localURL = "local_url"
        case remoteURL = "remote_url"
        case openRegistration = "open_registration"
        case createdAt = "created_at"
        case updatedAt = "updated_at"
        case setupRequired = "setup_required"
    }

    public init(id: String, name: String, version: String = "", localURL: String = "", remoteURL: String? = nil,
                openRegistration: Bool = false, createdAt: Date, updatedAt: Date, setupRequired: Bool) {
        self.id = id
        self.name = name
        self.version = version
        self.localURL = localURL
        self.remoteURL = remoteURL
        self.openRegistration = openRegistration
        self.createdAt = createdAt
        self.updatedAt = updatedAt
        self.setupRequired = setupRequired
    }
}
