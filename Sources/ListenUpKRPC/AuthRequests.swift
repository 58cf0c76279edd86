/// Who the client is (`DeviceInfo`, §3.2). Every field is optional and at
/// most 128 characters (check with ``validate()``).
///
/// Encodes every key, nil ones as `null`.
public struct DeviceInfo: Codable, Sendable, Equatable {
    /// e.g. `desktop`.
    public var deviceType: String?
    /// e.g. `Linux`.
    public var platform: String?
    /// e.g. the distribution's version.
    public var platformVersion: String?
    /// e.g. `ListenUp GTK`.
    public var clientName: String?
    /// The app's version.
    public var clientVersion: String?
    /// The machine's name.
    public var deviceName: String?
    /// The machine's model.
    public var deviceModel: String?

    /// Creates device info; each parameter sets the property of the same name.
    public init(deviceType: String? = nil, platform: String? = nil, platformVersion: String? = nil,
                clientName: String? = nil, clientVersion: String? = nil, deviceName: String? = nil,
                deviceModel: String? = nil) {
        self.deviceType = deviceType
        self.platform = platform
        self.platformVersion = platformVersion
        self.clientName = clientName
        self.clientVersion = clientVersion
        self.deviceName = deviceName
        self.deviceModel = deviceModel
    }

    enum CodingKeys: String, CodingKey, CaseIterable {
        case deviceType, platform, platformVersion, clientName, clientVersion, deviceName, deviceModel
    }

    /// The fields by wire name, in declaration order (for validation).
    var namedFields: [(name: String, value: String?)] {
        [("deviceType", deviceType), ("platform", platform), ("platformVersion", platformVersion),
         ("clientName", clientName), ("clientVersion", clientVersion), ("deviceName", deviceName),
         ("deviceModel", deviceModel)]
    }

    /// Writes every key, `null` for nil.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(deviceType, forKey: .deviceType)
        try c.encode(platform, forKey: .platform)
        try c.encode(platformVersion, forKey: .platformVersion)
        try c.encode(clientName, forKey: .clientName)
        try c.encode(clientVersion, forKey: .clientVersion)
        try c.encode(deviceName, forKey: .deviceName)
        try c.encode(deviceModel, forKey: .deviceModel)
    }
}

/// `AuthServicePublic.login(request)`'s argument (§3.2). Check it with
/// ``validate()`` first: the server's `init{require}` answers a bad password
/// length with a CallException, not a typed error.
///
/// Encodes every key, nil ones as `null`.
public struct LoginRequest: Codable, Sendable, Equatable {
    /// The account's email.
    public var email: String
    /// 8…1024 characters (UTF-16 code units, as Kotlin counts).
    public var password: String
    /// A label for the session list, e.g. "Alice's desktop".
    public var sessionLabel: String?
    /// Who the client is.
    public var deviceInfo: DeviceInfo?
    /// The IANA time zone, stored as the user's home zone (Kotlin default `"UTC"`).
    public var timezone: String

    /// Creates a login request; each parameter sets the property of the same name.
    public init(email: String, password: String, sessionLabel: String? = nil, deviceInfo: DeviceInfo? = nil,
                timezone: String = "UTC") {
        self.email = email
        self.password = password
        self.sessionLabel = sessionLabel
        self.deviceInfo = deviceInfo
        self.timezone = timezone
    }

    enum CodingKeys: String, CodingKey {
        case email, password, sessionLabel, deviceInfo, timezone
    }

    /// Decodes a request, filling `timezone`'s default.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(email: try c.decode(String.self, forKey: .email), password: try c.decode(String.self, forKey: .password),
                  sessionLabel: try c.decodeIfPresent(String.self, forKey: .sessionLabel),
                  deviceInfo: try c.decodeIfPresent(DeviceInfo.self, forKey: .deviceInfo),
                  timezone: try c.decode(.timezone, default: "UTC"))
    }

    /// Writes every key, `null` for nil.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(email, forKey: .email)
        try c.encode(password, forKey: .password)
        try c.encode(sessionLabel, forKey: .sessionLabel)
        try c.encode(deviceInfo, forKey: .deviceInfo)
        try c.encode(timezone, forKey: .timezone)
    }
}

/// The argument of `AuthServicePublic.setupRoot(request)` and
/// `register(request)` (§3.2). Check it with ``validate()`` first.
///
/// Encodes every key, nil ones as `null`.
public struct RegisterRequest: Codable, Sendable, Equatable {
    /// The account's email.
    public var email: String
    /// 8…1024 characters.
    public var password: String
    /// Not blank.
    public var displayName: String
    /// A label for the session list.
    public var sessionLabel: String?
    /// Who the client is.
    public var deviceInfo: DeviceInfo?

    /// Creates a registration; each parameter sets the property of the same name.
    public init(email: String, password: String, displayName: String, sessionLabel: String? = nil,
                deviceInfo: DeviceInfo? = nil) {
        self.email = email
        self.password = password
        self.displayName = displayName
        self.sessionLabel = sessionLabel
        self.deviceInfo = deviceInfo
    }

    enum CodingKeys: String, CodingKey {
        case email, password, displayName, sessionLabel, deviceInfo
    }

    /// Writes every key, `null` for nil.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(email, forKey: .email)
        try c.encode(password, forKey: .password)
        try c.encode(displayName, forKey: .displayName)
        try c.encode(sessionLabel, forKey: .sessionLabel)
        try c.encode(deviceInfo, forKey: .deviceInfo)
    }
}

/// `AuthServicePublic.refreshSession(request)`'s argument (§3.2). Every
/// refresh rotates the token: keep only the newest pair.
public struct RefreshRequest: Codable, Sendable, Equatable {
    /// The current refresh token.
    public var refreshToken: String

    /// Creates a refresh request.
    /// - Parameter refreshToken: the current refresh token.
    public init(refreshToken: String) {
        self.refreshToken = refreshToken
    }
}
