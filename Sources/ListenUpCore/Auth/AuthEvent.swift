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
    /// The user asked to create an account (Sign in's *Create Account…*).
    case createAccount
    /// The account was registered and waits for an administrator.
    case registrationPending(PendingRegistration)
    /// The pending account was approved, and the password is not known
    /// any more, or signing in with it failed (`signInFailure`): Sign in
    /// with `email` filled.
    case registrationApproved(email: String, signInFailure: ServerError?)
    /// The pending account was declined, with the server's reason if any.
    case registrationDeclined(message: String?)
    /// Back to Sign in from Create Account, Waiting for Approval (which
    /// forgets the registration) or Declined.
    case backToSignIn
    /// Launch: no saved session, and a registration of the saved server
    /// waits for approval (saved in settings, without its password).
    case restoredPendingRegistration(PendingRegistration)
    /// The user chose Sign in's *Forgot Password?* (with the email typed there).
    case forgotPassword(email: String)
    /// A password reset succeeded for `email`: Sign in with it filled.
    case passwordResetCompleted(email: String)
    /// The user switched to another saved server, or removed the active
    /// one: the current session ends (it stays saved) and the next one is
    /// restored as at launch.
    case leavingServer
    /// The user chose *Add Server…*: server setup, the current session
    /// kept in the secret store.
    case addingServer
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
    /// needsLogin | sessionLapsed | accountApproved ─createAccount→ creatingAccount
    /// creatingAccount ─signedIn→ authenticated   ─registrationPending→ awaitingApproval
    /// awaitingApproval ─signedIn→ authenticated   ─registrationApproved→ accountApproved (Sign in, email filled)
    ///                  ─registrationDeclined→ registrationDeclined
    /// creatingAccount | awaitingApproval | registrationDeclined ─backToSignIn→ needsLogin
    /// accountApproved ─signedIn→ authenticated
    /// creatingAccount | registrationDeclined | accountApproved ─changeServer→ needsServer
    /// initializing ─restoredPendingRegistration→ awaitingApproval
    /// needsLogin | sessionLapsed | accountApproved | passwordChanged ─forgotPassword→ resettingPassword
    /// resettingPassword ─passwordResetCompleted→ passwordChanged (Sign in, email filled)   ─backToSignIn→ needsLogin
    /// passwordChanged ─signedIn→ authenticated   ─createAccount→ creatingAccount   ─changeServer→ needsServer
    /// any state ─leavingServer→ initializing (a saved server is restored next)   ─addingServer→ needsServer
    /// ```
    /// Each state carries what its screen needs: the server verified, or
    /// the session (with its connection) signed in.
    public func applying(_ event: AuthEvent) -> AuthState? {
        switch (self, event) {
        case (_, .leavingServer): return .initializing
        case (_, .addingServer): return .needsServer
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
            return applyingRegistration(event) ?? applyingPasswordReset(event)
        }
    }

    /// Where the password-reset events lead (the table's last rows).
    private func applyingPasswordReset(_ event: AuthEvent) -> AuthState? {
        switch (self, event) {
        case (.needsLogin(let server), .forgotPassword(let email)), (.sessionLapsed(let server, _), .forgotPassword(let email)),
             (.accountApproved(let server, _, _), .forgotPassword(let email)), (.passwordChanged(let server, _), .forgotPassword(let email)):
            return .resettingPassword(server, email: email)
        case (.resettingPassword(let server, _), .passwordResetCompleted(let email)):
            return .passwordChanged(server, email: email)
        case (.resettingPassword(let server, _), .backToSignIn):
            return .needsLogin(server)
        case (.passwordChanged, .signedIn(let session)):
            return .authenticated(session)
        case (.passwordChanged(let server, _), .createAccount):
            return .creatingAccount(server)
        case (.passwordChanged, .changeServer):
            return .needsServer
        default:
            return nil
        }
    }

    /// Where the registration events lead (the table's last rows).
    private func applyingRegistration(_ event: AuthEvent) -> AuthState? {
        switch (self, event) {
        case (.needsLogin(let server), .createAccount), (.sessionLapsed(let server, _), .createAccount),
             (.accountApproved(let server, _, _), .createAccount):
            return .creatingAccount(server)
        case (.creatingAccount, .registrationPending(let pending)):
            return .awaitingApproval(pending)
        case (.creatingAccount, .signedIn(let session)), (.awaitingApproval, .signedIn(let session)), (.accountApproved, .signedIn(let session)):
            return .authenticated(session)
        case (.awaitingApproval(let pending), .registrationApproved(let email, let failure)):
            return .accountApproved(pending.server, email: email, signInFailure: failure)
        case (.awaitingApproval(let pending), .registrationDeclined(let message)):
            return .registrationDeclined(pending.server, message: message)
        case (.creatingAccount(let server), .backToSignIn), (.registrationDeclined(let server, _), .backToSignIn):
            return .needsLogin(server)
        case (.awaitingApproval(let pending), .backToSignIn):
            return .needsLogin(pending.server)
        case (.creatingAccount, .changeServer), (.registrationDeclined, .changeServer), (.accountApproved, .changeServer):
            return .needsServer
        case (.initializing, .restoredPendingRegistration(let pending)):
            return .awaitingApproval(pending)
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
        case .createAccount: "createAccount"
        case .registrationPending: "registrationPending"
        case .registrationApproved: "registrationApproved"
        case .registrationDeclined: "registrationDeclined"
        case .backToSignIn: "backToSignIn"
        case .restoredPendingRegistration: "restoredPendingRegistration"
        case .forgotPassword: "forgotPassword"
        case .passwordResetCompleted: "passwordResetCompleted"
        case .leavingServer: "leavingServer"
        case .addingServer: "addingServer"
        }
    }
}
