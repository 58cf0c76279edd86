/// Something that happened to the user's standing with their server. The
/// auth state only moves through these; ``AuthState/applying(_:)`` says where
/// each one leads from each state.
public enum AuthEvent: Equatable, Sendable {
    /// Launch: saved settings (and a saved session, if any) were read; the
    /// session comes with its connection.
    case restored(server: ServerAddress?, session: Session?)
    /// The user picked or typed a server and pressed Connect.
    case serverChosen(ServerAddress)
    /// The server answered as a ListenUp server the app speaks to.
    case serverVerified(VerifiedServer)
    /// The server could not be verified; the user must choose again.
    case serverCheckFailed
    /// Setup or sign-in succeeded.
    case signedIn(Session)
    /// The server says an admin already exists (setup answered 409).
    case adminAlreadyExists
    /// The session ended on the server's side: a refused refresh
    /// (``SignInNotice/sessionEnded``) or the account deleted
    /// (``SignInNotice/accountRemoved(reason:)``).
    case sessionRefused(SignInNotice)
    /// The user signed out.
    case signedOut
    /// The user wants another server.
    case changeServer
    /// The signed-in server now speaks another generation (it was upgraded
    /// or rolled back at the same address; checked again after it refused
    /// the saved generation's calls): the session belonged to the old one.
    case serverChangedGeneration(VerifiedServer)
    /// The user chose *Use an Invite…* (no link yet), or the app was asked
    /// to open an invite link.
    case inviteOpened(link: String?)
    /// The user left the invite page.
    case inviteClosed
}

extension AuthState {
    /// The state `event` leads to from this one, or nil when the event makes
    /// no sense here (it is then ignored and logged).
    ///
    /// ```
    /// initializing ─restored→ needsServer | checkingServer | authenticated
    /// needsServer ─serverChosen→ checkingServer
    /// checkingServer ─serverVerified→ needsAdminSetup | needsLogin (the server)
    ///                ─serverCheckFailed→ needsServer
    ///                ─serverChosen→ checkingServer (another address)
    /// needsAdminSetup ─signedIn→ authenticated   ─adminAlreadyExists→ needsLogin (same server)
    /// needsLogin | sessionLapsed ─signedIn→ authenticated
    /// authenticated ─sessionRefused→ sessionLapsed (with its notice)   ─signedOut→ needsLogin (the session's server)
    /// needsAdminSetup | needsLogin | sessionLapsed ─changeServer→ needsServer
    /// authenticated ─serverChangedGeneration→ needsAdminSetup | sessionLapsed (the server as it is now, "updated")
    /// needsServer | checkingServer | needsAdminSetup | needsLogin | sessionLapsed ─inviteOpened→ acceptingInvite (the server known then)
    /// acceptingInvite ─signedIn→ authenticated   ─inviteClosed→ needsLogin (the server known) | needsServer
    /// ```
    /// Each state carries what its screen needs: the server verified, or
    /// the session (with its connection) signed in.
    public func applying(_ event: AuthEvent) -> AuthState? {
        switch (self, event) {
        case (.initializing, .restored(let server, let session)):
            if let session, server != nil { return .authenticated(session) }
            if let server { return .checkingServer(server) }
            return .needsServer
        case (.needsServer, .serverChosen(let address)), (.checkingServer, .serverChosen(let address)):
            return .checkingServer(address)
        case (.checkingServer, .serverVerified(let server)):
            return server.setupRequired ? .needsAdminSetup(KnownServer(server)) : .needsLogin(KnownServer(server))
        case (.checkingServer, .serverCheckFailed):
            return .needsServer
        case (.needsAdminSetup, .signedIn(let session)), (.needsLogin, .signedIn(let session)), (.sessionLapsed, .signedIn(let session)):
            return .authenticated(session)
        case (.needsAdminSetup(let server), .adminAlreadyExists):
            return .needsLogin(server)
        case (.authenticated(let session), .sessionRefused(let notice)):
            return .sessionLapsed(session.server, notice)
        case (.authenticated(let session), .signedOut):
            return .needsLogin(session.server)
        case (.needsAdminSetup, .changeServer), (.needsLogin, .changeServer), (.sessionLapsed, .changeServer):
            return .needsServer
        case (.authenticated, .serverChangedGeneration(let server)):
            return server.setupRequired ? .needsAdminSetup(KnownServer(server)) : .sessionLapsed(KnownServer(server), .serverUpdated)
        case (.needsServer, .inviteOpened(let link)), (.checkingServer, .inviteOpened(let link)):
            return .acceptingInvite(InviteStart(link: link))
        case (.needsAdminSetup(let server), .inviteOpened(let link)), (.needsLogin(let server), .inviteOpened(let link)),
             (.sessionLapsed(let server, _), .inviteOpened(let link)):
            return .acceptingInvite(InviteStart(link: link, knownServer: server))
        case (.acceptingInvite, .signedIn(let session)):
            return .authenticated(session)
        case (.acceptingInvite(let start), .inviteClosed):
            return start.knownServer.map(AuthState.needsLogin) ?? .needsServer
        default:
            return nil
        }
    }
}

extension AuthEvent {
    /// The event's name, for logs (never carries secrets).
    public var name: String {
        switch self {
        case .restored: "restored"
        case .serverChosen: "serverChosen"
        case .serverVerified: "serverVerified"
        case .serverCheckFailed: "serverCheckFailed"
        case .signedIn: "signedIn"
        case .adminAlreadyExists: "adminAlreadyExists"
        case .sessionRefused: "sessionRefused"
        case .signedOut: "signedOut"
        case .changeServer: "changeServer"
        case .serverChangedGeneration: "serverChangedGeneration"
        case .inviteOpened: "inviteOpened"
        case .inviteClosed: "inviteClosed"
        }
    }
}
