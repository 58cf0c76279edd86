import Foundation

/// Who the client is (`device_info`). Login needs `device_type` and
/// `platform`; every other key is optional and omitted when nil.
public struct DeviceInfo: Codable, Equatable, Sendable {
    /// mobile | tablet | desktop | web | tv
    public var deviceType: String?
    /// iOS | Android | Windows | macOS | Linux | Web
    public var platform: String?
    public var platformVersion: String?
    public var clientName: String?
    public var clientVersion: String?
    public var clientBuild: String?
    public var deviceName: String?
    public var deviceModel: String?
    public var browserName: String?
    public var browserVersion: String?

    enum CodingKeys: String, CodingKey {
        case deviceType = "device_type"
        case platform
        case platformVersion = "platform_version"
        case clientName = "client_name"
        case clientVersion = "client_version"
        case clientBuild = "client_build"
        case deviceName = "device_name"
        case deviceModel = "device_model"
        case browserName = "browser_name"
        case browserVersion = "browser_version"
    }

    public init(deviceType: String? = nil, platform: String? = nil, platformVersion: String? = nil, clientName: String? = nil,
                clientVersion: String? = nil, clientBuild: String? = nil, deviceName: String? = nil, deviceModel: String? = nil,
                browserName: String? = nil, browserVersion: String? = nil) {
        self.deviceType = deviceType
        self.platform = platform
        self.platformVersion = platformVersion
        self.clientName = clientName
        self.clientVersion = clientVersion
        self.clientBuild = clientBuild
        self.deviceName = deviceName
        self.deviceModel = deviceModel
        self.browserName = browserName
        self.browserVersion = browserVersion
    }

    /// Whether login would accept it (`device_type` and `platform` set).
    public var isValidForLogin: Bool {
        !(deviceType ?? "").isEmpty && !(platform ?? "").isEmpty
    }
}

/// `POST /api/v1/auth/setup` body. No `device_info` (the server answers 422).
public struct SetupRequest: Codable, Equatable, Sendable {
    public var email: String
    public var password: String
    public var firstName: String
    public var lastName: String

    enum CodingKeys: String, CodingKey {
        case email, password
        case firstName = "first_name"
        case lastName = "last_name"
    }

    public init(email: String, password: String, firstName: String, lastName: String) {
        self.email = email
        self.password = password
        self.firstName = firstName
        self.lastName = lastName
    }
}

/// `POST /api/v1/auth/login` body.
public struct LoginRequest: Codable, Equatable, Sendable {
    public var email: String
    public var password: String
    public var deviceInfo: DeviceInfo?

    enum CodingKeys: String, CodingKey {
        case email, password
        case deviceInfo = "device_info"
    }

    public init(email: String, password: String, deviceInfo: DeviceInfo?) {
        self.email = email
        self.password = password
        self.deviceInfo = deviceInfo
    }
}

/// `POST /api/v1/auth/refresh` body.
public struct RefreshRequest: Codable, Equatable, Sendable {
    public var refreshToken: String
    public var deviceInfo: DeviceInfo?

    enum CodingKeys: String, CodingKey {
        case refreshToken = "refresh_token"
        case deviceInfo = "device_info"
    }

    public init(refreshToken: String, deviceInfo: DeviceInfo? = nil) {
        self.refreshToken = refreshToken
        self.deviceInfo = deviceInfo
    }
}

/// `POST /api/v1/auth/logout` body.
public struct LogoutRequest: Codable, Equatable, Sendable {
    public var sessionID: String

    enum CodingKeys: String, CodingKey {
        case sessionID = "session_id"
    }

    public init(sessionID: String) {
        self.sessionID = sessionID
    }
}

/// `{"message":"…"}` answers (logout and others).
public struct MessageResponse: Codable, Equatable, Sendable {
    public var message: String

    public init(message: String) {
        self.message = message
    }
}

/// Setup, login and refresh answer (contract §7.4).
public struct AuthResponse: Codable, Equatable, Sendable {
    public var accessToken: String
    public var refreshToken: String
    public var sessionID: String
    public var tokenType: String
    /// Access-token lifetime in seconds.
    public var expiresIn: Int
    public var user: UserResponse

    enum CodingKeys: String, CodingKey {
        case accessToken = "access_token"
        case refreshToken = "refresh_token"
        case sessionID = "session_id"
        case tokenType = "token_type"
        case expiresIn = "expires_in"
        case user
    }

    public init(accessToken: String, refreshToken: String, sessionID: String, tokenType: String = "Bearer", expiresIn: Int, user: UserResponse) {
        self.accessToken = accessToken
        self.refreshToken = refreshToken
        self.sessionID = sessionID
        self.tokenType = tokenType
        self.expiresIn = expiresIn
        self.user = user
    }
}

/// A user (contract §7.4).
public struct UserResponse: Codable, Equatable, Sendable {
    public var id: String
    public var email: String
    public var displayName: String
    public var firstName: String
    public var lastName: String
    public var isRoot: Bool
    public var createdAt: Date
    public var updatedAt: Date
    public var lastLoginAt: Date
    /// `auto` | `image`
    public var avatarType: String
    public var avatarValue: String?
    /// `#RRGGBB`
    public var avatarColor: String

    enum CodingKeys: String, CodingKey {
        case id, email
        case displayName = "display_name"
        case firstName = "first_name"
        case lastName = "last_name"
        case isRoot = "is_root"
        case createdAt = "created_at"
        case updatedAt = "updated_at"
        case lastLoginAt = "last_login_at"
        case avatarType = "avatar_type"
        case avatarValue = "avatar_value"
        case avatarColor = "avatar_color"
    }

    public init(id: String, email: String, displayName: String, firstName: String, lastName: String, isRoot: Bool,
                createdAt: Date, updatedAt: Date, lastLoginAt: Date, avatarType: String = "auto", avatarValue: String? = nil,
                avatarColor: String) {
        self.id = id
        self.email = email
        self.displayName = displayName
        self.firstName = firstName
        self.lastName = lastName
        self.isRoot = isRoot
        self.createdAt = createdAt
        self.updatedAt = updatedAt
        self.lastLoginAt = lastLoginAt
        self.avatarType = avatarType
        self.avatarValue = avatarValue
        self.avatarColor = avatarColor
    }
}

/// Server messages the client recognises and the demo server sends (contract §5–§7).
public enum APIMessage {
    public static let invalidCredentials = "invalid email or password"
    public static let rateLimited = "Too many authentication attempts. Please try again later."
    public static let authenticationRequired = "Authentication required"
    public static let invalidRefreshToken = "invalid or expired refresh token"
    public static let alreadyConfigured = "server is already configured"
    public static let deviceInfoRequired = "device_info is required (device_type and platform)"
    public static let validationFailed = "validation failed"
    public static let loggedOut = "Logged out successfully"
    public static let unexpected = "unexpected error occurred"
    public static let bodyRequired = "request body is required"
    public static let notFound = "resource not found"
}
