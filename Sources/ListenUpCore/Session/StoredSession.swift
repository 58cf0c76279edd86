import Foundation

/// The signed-in session as kept in the secret store: tokens included, so it
/// never goes into settings, logs or headless output.
public struct StoredSession: Codable, Equatable, Sendable {
    public var serverURL: URL
    public var accessToken: String
    public var refreshToken: String
    public var sessionID: String
    public var userID: String
    public var displayName: String
    public var email: String
    /// When the access token stops working, by the server's `expires_in`.
    public var accessExpiresAt: Date

    public init(serverURL: URL, accessToken: String, refreshToken: String, sessionID: String,
                userID: String, displayName: String, email: String, accessExpiresAt: Date) {
        self.serverURL = serverURL
        self.accessToken = accessToken
        self.refreshToken = refreshToken
        self.sessionID = sessionID
        self.userID = userID
        self.displayName = displayName
        self.email = email
        self.accessExpiresAt = accessExpiresAt
    }
}

extension StoredSession: CustomStringConvertible, CustomDebugStringConvertible {
    /// Never prints a token, whatever logs or interpolates this value.
    public var description: String { "StoredSession(server: \(serverURL.absoluteString), user: \(userID))" }
    public var debugDescription: String { description }
}

/// Where sessions are kept, one per server. A struct of closures: ``live``
/// goes to the Secret Service (or its 0600 file fallback), tests use
/// ``inMemory()``.
public struct SessionStore: Sendable {
    public var load: @Sendable (_ server: URL) async -> StoredSession?
    public var save: @Sendable (_ session: StoredSession) async throws -> Void
    public var delete: @Sendable (_ server: URL) async -> Void

    public init(load: @escaping @Sendable (_ server: URL) async -> StoredSession?,
                save: @escaping @Sendable (_ session: StoredSession) async throws -> Void,
                delete: @escaping @Sendable (_ server: URL) async -> Void) {
        self.load = load
        self.save = save
        self.delete = delete
    }

    /// Sessions in memory only.
    public static func inMemory(_ initial: [StoredSession] = []) -> SessionStore {
        let box = LockedValue(Dictionary(initial.map { ($0.serverURL.absoluteString, $0) }, uniquingKeysWith: { $1 }))
        return SessionStore(
            load: { server in box.value[server.absoluteString] },
            save: { session in box.withLock { $0[session.serverURL.absoluteString] = session } },
            delete: { server in _ = box.withLock { $0.removeValue(forKey: server.absoluteString) } }
        )
    }
}
