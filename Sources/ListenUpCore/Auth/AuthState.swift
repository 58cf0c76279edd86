import Foundation

/// Where the user stands with their server; the navigator follows it.
///
/// Mirrors the states of ListenUp's own clients.
public enum AuthState: Equatable, Sendable {
    /// Saved state not read yet.
    case initializing
    /// No server chosen.
    case needsServer
    /// A server address is being verified.
    case checkingServer(ServerAddress)
    /// The server has no admin yet (`setup_required`).
    case needsAdminSetup
    /// The server is known; nobody is signed in.
    case needsLogin
    /// Signed in.
    case authenticated(Session)
    /// The saved session was refused by the server; the user must sign in again.
    case sessionLapsed
}

/// A signed-in user's session, as far as routing needs to know it.
/// (Tokens live in the secret store, never in this value.)
public struct Session: Equatable, Sendable, Codable {
    public var serverURL: URL
    public var userID: String
    public var displayName: String

    public init(serverURL: URL, userID: String, displayName: String) {
        self.serverURL = serverURL
        self.userID = userID
        self.displayName = displayName
    }
}
