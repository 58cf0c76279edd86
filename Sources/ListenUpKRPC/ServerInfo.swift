/// `InstanceService.getServerInfo()` (§3.1): what the server is and whether
/// it needs setting up.
///
/// A server that answers this with `apiVersion == "v1"` over kRPC is a
/// ListenUp v0.9-generation server.
public struct ServerInfo: Codable, Sendable, Equatable {
    /// The admin-set name ("ListenUp" until changed).
    public var name: String
    /// The server version, e.g. `0.9.0`.
    public var version: String
    /// The contract generation, `v1`.
    public var apiVersion: String
    /// True while the server has no users: offer `setupRoot`.
    public var setupRequired: Bool
    /// Who may register.
    public var registrationPolicy: RegistrationPolicy
    /// The public URL, when configured (default nil).
    public var remoteUrl: String?
    /// Whether push notifications are on (default false).
    public var pushEnabled: Bool
    /// Whether a root password reset is armed (default false).
    public var rootResetArmed: Bool
    /// Stable id of the instance (also in its mDNS record).
    public var instanceId: String

    /// Creates server info; each parameter sets the property of the same name.
    public init(name: String, version: String, apiVersion: String, setupRequired: Bool,
                registrationPolicy: RegistrationPolicy, remoteUrl: String? = nil, pushEnabled: Bool = false,
                rootResetArmed: Bool = false, instanceId: String) {
        self.name = name
        self.version = version
        self.apiVersion = apiVersion
        self.setupRequired = setupRequired
        self.registrationPolicy = registrationPolicy
        self.remoteUrl = remoteUrl
        self.pushEnabled = pushEnabled
        self.rootResetArmed = rootResetArmed
        self.instanceId = instanceId
    }

    private enum CodingKeys: String, CodingKey {
        case name, version, apiVersion, setupRequired, registrationPolicy, remoteUrl, pushEnabled, rootResetArmed, instanceId
    }

    /// Decodes server info, filling the Kotlin defaults of omitted fields.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(name: try c.decode(String.self, forKey: .name),
                  version: try c.decode(String.self, forKey: .version),
                  apiVersion: try c.decode(String.self, forKey: .apiVersion),
                  setupRequired: try c.decode(Bool.self, forKey: .setupRequired),
                  registrationPolicy: try c.decode(RegistrationPolicy.self, forKey: .registrationPolicy),
                  remoteUrl: try c.decodeIfPresent(String.self, forKey: .remoteUrl),
                  pushEnabled: try c.decode(.pushEnabled, default: false),
                  rootResetArmed: try c.decode(.rootResetArmed, default: false),
                  instanceId: try c.decode(String.self, forKey: .instanceId))
    }
}

/// `ServerInfo.registrationPolicy`. Open: unknown names are kept.
public struct RegistrationPolicy: RawRepresentable, Hashable, Sendable, Codable, CustomStringConvertible {
    /// The name as sent.
    public let rawValue: String

    /// Wraps a name.
    /// - Parameter rawValue: e.g. `"OPEN"`.
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// Anyone may register and sign in at once.
    public static let open = RegistrationPolicy(rawValue: "OPEN")
    /// Registrations wait for an administrator.
    public static let approvalQueue = RegistrationPolicy(rawValue: "APPROVAL_QUEUE")
    /// No registration.
    public static let closed = RegistrationPolicy(rawValue: "CLOSED")

    /// The name.
    public var description: String { rawValue }
}

extension KeyedDecodingContainer {
    /// The value at `key`, or `value` when the key is absent or `null`: a
    /// Kotlin default the server omitted (`encodeDefaults = false`, §1.4).
    func decode<T: Decodable>(_ key: Key, default value: T) throws -> T {
        try decodeIfPresent(T.self, forKey: key) ?? value
    }
}
