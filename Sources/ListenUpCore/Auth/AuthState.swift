import Foundation

/// Where the user stands with their server; the navigator follows it.
///
/// Mirrors the states of ListenUp's own clients. Each state carries what
/// the screen it leads to needs (the verified server, the signed-in
/// session and its connection), so data flows forward through the state:
/// settings and the secret store are written for the next launch and read
/// only at launch.
public enum AuthState: Equatable, Sendable {
    /// Saved state not read yet.
    case initializing
    /// No server chosen.
    case needsServer
    /// A server address is being verified.
    case checkingServer(ServerAddress)
    /// The server has no admin yet (`setup_required`).
    case needsAdminSetup(KnownServer)
    /// The server is known; nobody is signed in.
    case needsLogin(KnownServer)
    /// Signed in.
    case authenticated(Session)
    /// The saved session ended (the server refused it, was updated, or
    /// removed the account); the user must sign in again, told why.
    case sessionLapsed(KnownServer, SignInNotice)
    /// An invite is being looked up and claimed (*Use an Invite…* on server
    /// setup or sign in, or an invite link the app was asked to open).
    case acceptingInvite(InviteStart)
    /// The user is creating an account on the server (Registration/).
    case creatingAccount(KnownServer)
    /// A registration waits for an administrator (its password, when still
    /// known, is held in memory only: ``PendingRegistration``).
    case awaitingApproval(PendingRegistration)
    /// An administrator declined the registration (the server's reason, if any).
    case registrationDeclined(KnownServer, message: String?)
    /// A registration was approved while the password was no longer known
    /// (after a restart), or signing in with it failed (`signInFailure`,
    /// said on the page): Sign in, with its email filled.
    case accountApproved(KnownServer, email: String, signInFailure: ServerError?)
    /// The user is resetting a forgotten password (PasswordReset/); `email`
    /// is what Sign in had typed, to start the form with.
    case resettingPassword(KnownServer, email: String)
    /// A password reset succeeded (the server ended every session of the
    /// account): Sign in, with its email filled and a notice.
    case passwordChanged(KnownServer, email: String)
}

extension AuthState {
    /// The signed-in session, if any.
    var session: Session? {
        if case .authenticated(let session) = self { session } else { nil }
    }

    /// The server the app talks to in this state (being checked, verified,
    /// or signed in to), if any.
    public var serverURL: URL? {
        switch self {
        case .initializing, .needsServer: nil
        case .checkingServer(let address): address.url
        case .needsAdminSetup(let server), .needsLogin(let server), .sessionLapsed(let server, _): server.url
        case .authenticated(let session): session.serverURL
        case .acceptingInvite(let start): start.knownServer?.url
        case .creatingAccount(let server), .registrationDeclined(let server, _), .accountApproved(let server, _, _): server.url
        case .resettingPassword(let server, _), .passwordChanged(let server, _): server.url
        case .awaitingApproval(let pending): pending.serverURL
        }
    }

    /// The state's name, for logs (never carries secrets).
    public var name: String {
        switch self {
        case .initializing: "initializing"
        case .needsServer: "needsServer"
        case .checkingServer: "checkingServer"
        case .needsAdminSetup: "needsAdminSetup"
        case .needsLogin: "needsLogin"
        case .authenticated: "authenticated"
        case .sessionLapsed: "sessionLapsed"
        case .acceptingInvite: "acceptingInvite"
        case .creatingAccount: "creatingAccount"
        case .awaitingApproval: "awaitingApproval"
        case .registrationDeclined: "registrationDeclined"
        case .accountApproved: "accountApproved"
        case .resettingPassword: "resettingPassword"
        case .passwordChanged: "passwordChanged"
        }
    }
}

/// A server the app has verified (or, at launch, restored with its
/// session): what Create admin and Sign in need to reach it.
public struct KnownServer: Equatable, Sendable {
    /// The base URL that answered.
    public var url: URL
    /// Which protocol it speaks (REST v1 unless verified otherwise).
    public var generation: ServerGeneration

    /// A server at `url` that speaks `generation`.
    public init(url: URL, generation: ServerGeneration = .restV1) {
        self.url = url
        self.generation = generation
    }

    /// The server `verified` answered as.
    public init(_ verified: VerifiedServer) {
        url = verified.url
        generation = verified.generation
    }
}

/// A signed-in user's session, as the screens need it: who, where, and the
/// connection that talks to the server for them (it holds the tokens; this
/// value never prints one).
public struct Session: Equatable, Sendable {
    public var serverURL: URL
    public var userID: String
    public var displayName: String
    /// Which protocol the server speaks (for the screens after signing out).
    public var generation: ServerGeneration
    /// The signed-in connection to the server (``ServerConnection``).
    public let connection: any ServerConnection

    public init(serverURL: URL, userID: String, displayName: String, connection: any ServerConnection,
                generation: ServerGeneration = .restV1) {
        self.serverURL = serverURL
        self.userID = userID
        self.displayName = displayName
        self.generation = generation
        self.connection = connection
    }

    /// The session `stored` on `connection` (a sign-in that just succeeded,
    /// or a saved session restored at launch) with a server of `generation`.
    public init(_ stored: StoredSession, connection: any ServerConnection, generation: ServerGeneration = .restV1) {
        self.init(serverURL: stored.serverURL, userID: stored.userID, displayName: stored.displayName, connection: connection,
                  generation: generation)
    }

    /// The server, for the screens that follow signing out.
    public var server: KnownServer { KnownServer(url: serverURL, generation: generation) }

    public static func == (lhs: Session, rhs: Session) -> Bool {
        lhs.serverURL == rhs.serverURL && lhs.userID == rhs.userID && lhs.displayName == rhs.displayName
            && lhs.generation == rhs.generation && lhs.connection === rhs.connection
    }
}

extension Session: CustomStringConvertible {
    public var description: String { "Session(server: \(serverURL.absoluteString), user: \(userID))" }
}
