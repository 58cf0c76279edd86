import JSONToolkit
import ListenUpCore

extension HeadlessPresenter {
    /// `claimInvite` on server setup or sign in opens the invite screen
    /// first; the screen then takes the command (`InviteModel+Headless.swift`).
    /// Signed in, it is refused: an invite makes a new account, so
    /// `signOut` comes first (as the window's dialog asks).
    /// - Returns: false when the command was refused.
    func openInvite() -> Bool {
        if case .authenticated = navigator.authState {
            emitError(code: "signedIn", message: "Sign out first (logout): an invite creates a new account.")
            return false
        }
        guard [.serverSetup, .login, .adminSetup].contains(navigator.activeRoute) else { return true }
        navigator.send(.inviteOpened(link: nil))
        return true
    }
}

extension HeadlessCommand {
    /// `claimInvite`'s fields: the link, the password, and optionally the
    /// account's name (today's server) and the email the invite must be for.
    public struct InviteFields: Equatable, Sendable {
        public var link: String
        public var email: String?
        public var password: String
        public var displayName: String?

        public init(link: String, email: String? = nil, password: String, displayName: String? = nil) {
            self.link = link
            self.email = email
            self.password = password
            self.displayName = displayName
        }

        /// The members of its line besides `action`.
        var arguments: [String: JSONValue] {
            var members: [String: JSONValue] = ["link": .string(link), "password": .string(password)]
            if let email { members["email"] = .string(email) }
            if let displayName { members["displayName"] = .string(displayName) }
            return members
        }
    }

    /// `claimInvite`'s fields: `link` and `password` strings are required.
    static func inviteFields(_ arguments: [String: JSONValue]) -> InviteFields? {
        guard let link = arguments["link"]?.stringValue, let password = arguments["password"]?.stringValue else { return nil }
        return InviteFields(link: link, email: arguments["email"]?.stringValue, password: password,
                            displayName: arguments["displayName"]?.stringValue)
    }
}
