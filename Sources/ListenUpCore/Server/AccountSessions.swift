import Foundation

/// One place the account is signed in: the seam's own view of a server
/// session (today's server: `AuthServiceAuthed.listSessions`, addendum §6.5).
public struct AccountSession: Sendable, Equatable, Identifiable {
    public var id: String
    /// What the device called itself at sign-in (its name), or its client
    /// ("ListenUp GTK"); nil when it said neither.
    public var label: String?
    /// "Linux", "Android", "iOS", … when the device said.
    public var platform: String?
    public var createdAt: Date
    public var lastUsedAt: Date
    /// This device's own session.
    public var isCurrent: Bool

    public init(id: String, label: String?, platform: String?, createdAt: Date, lastUsedAt: Date, isCurrent: Bool) {
        self.id = id
        self.label = label
        self.platform = platform
        self.createdAt = createdAt
        self.lastUsedAt = lastUsedAt
        self.isCurrent = isCurrent
    }
}

extension ServerConnection {
    /// A server that lists no sessions (the Go server has no such call).
    public func accountSessions() async throws(ServerError) -> [AccountSession]? { nil }

    /// A server that lists no sessions ends none.
    public func endAccountSession(id: String) async throws(ServerError) {
        throw .protocolMismatch("this server does not list its sessions")
    }
}
