/// A screen of the app, by the name the headless protocol and `--preview` use.
public enum Route: String, CaseIterable, Sendable, Codable {
    /// Start-up, while the saved state is read or a session is validated.
    case loading
    /// Choose and verify a ListenUp server.
    case serverSetup
    /// Create the first (root) account on a fresh server.
    case adminSetup
    /// Sign in to a configured server.
    case login
    /// Use an invite: look it up, then make the account.
    case invite
    /// Create an account on a server whose registration is open or queued.
    case createAccount
    /// A registration waits for an administrator's approval.
    case awaitingApproval
    /// A registration was declined.
    case registrationDeclined
    /// Reset a forgotten password: ask, wait for an administrator, enter their code.
    case resetPassword
    /// The signed-in user's books.
    case library
    /// Show a QR code for a companion device.
    case pairing
    /// The player: the book playing, its chapters and controls.
    case player
}
