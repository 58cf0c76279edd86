import Foundation

/// What `GET /api/v1/status` reports; supplied by the app.
public struct DesktopStatus: Sendable, Equatable {
    /// The screen the app shows (a route name, e.g. `library`).
    public var activeRoute: String
    /// The ListenUp server in use, if any.
    public var serverURL: String?
    /// The signed-in user's display name, if anyone is signed in.
    public var userDisplayName: String?

    /// A status report.
    public init(activeRoute: String, serverURL: String? = nil, userDisplayName: String? = nil) {
        self.activeRoute = activeRoute
        self.serverURL = serverURL
        self.userDisplayName = userDisplayName
    }
}
