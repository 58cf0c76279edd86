import Foundation
import Logging

/// Whether a server takes new accounts from its sign-in page, and how
/// (issue 28, item 1).
///
/// kRPC: `ServerInfo.registrationPolicy` (`OPEN`, `APPROVAL_QUEUE`,
/// `CLOSED`; `api/dto/auth/RegistrationPolicy.kt`). REST v1: the Go
/// server's `open_registration` in `GET /api/v1/instance`, where true always
/// means approval (`internal/service/auth.go` creates every registered user
/// pending); false is closed.
public enum RegistrationMode: String, Equatable, Sendable, CaseIterable {
    /// A new account is signed in at once.
    case open
    /// A new account waits for an administrator's approval.
    case approval
    /// No new accounts (the Create Account entry is hidden).
    case closed

    /// Whether Sign in offers *Create Account…*.
    public var allowsSignUp: Bool { self != .closed }
}

/// What a registration led to.
public enum RegistrationOutcome: Equatable, Sendable {
    /// The account exists and is signed in (kRPC `RegisterResult.Authenticated`);
    /// the session is saved for the next launch, as a sign-in's is.
    case signedIn(StoredSession)
    /// The account waits for an administrator (kRPC
    /// `RegisterResult.PendingApproval{userId}`, REST v1 `{user_id}`).
    case pendingApproval(userID: String)
}

/// One answer of the registration status watch.
public enum RegistrationStatus: Equatable, Sendable {
    /// Still waiting for an administrator.
    case pending
    /// Approved: the account can sign in.
    case approved
    /// Declined, with the server's reason when it gave one (shown as is).
    case declined(message: String?)

    /// Whether the watch ends with this answer.
    public var isTerminal: Bool { self != .pending }
}

/// A password held in memory for one purpose (signing in once a pending
/// account is approved). It never prints, is never encoded and is never
/// saved: `description` and `debugDescription` say only that one is held.
public struct HeldPassword: Equatable, Sendable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The password itself.
    public let value: String

    /// Holds `value`.
    public init(_ value: String) {
        self.value = value
    }

    public var description: String { "<password>" }
    public var debugDescription: String { "<password>" }
    public var customMirror: Mirror { Mirror(self, children: []) }
}

/// A registration waiting for an administrator's approval: what the
/// *Waiting for Approval* page needs, and what is saved so that the app
/// reopens on it (``AppSettings/pendingRegistration``).
///
/// The password (to sign in at once when the approval comes while the app
/// runs) is held in memory only: it is not encoded, so a restored pending
/// registration has none and its approval leads to Sign in with the email
/// filled.
public struct PendingRegistration: Equatable, Sendable, Codable {
    /// The server the account was registered on.
    public var serverURL: URL
    /// Its protocol.
    public var generation: ServerGeneration
    /// The server's id of the pending account (the watch's only handle).
    public var userID: String
    /// The email the account was registered with.
    public var email: String
    /// The password typed, while the app runs (never encoded).
    public var password: HeldPassword?

    /// - Parameters:
    ///   - server: the server the account was registered on.
    ///   - userID: the pending account's id.
    ///   - email: its email.
    ///   - password: the password typed (memory only), if still known.
    public init(server: KnownServer, userID: String, email: String, password: HeldPassword? = nil) {
        serverURL = server.url
        generation = server.generation
        self.userID = userID
        self.email = email
        self.password = password
    }

    /// The server, as the other screens take it.
    public var server: KnownServer { KnownServer(url: serverURL, generation: generation) }

    private enum CodingKeys: String, CodingKey {
        case serverURL, generation, userID, email
    }

    /// Reads a saved pending registration (it has no password).
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        serverURL = try c.decode(URL.self, forKey: .serverURL)
        generation = (try? c.decode(ServerGeneration.self, forKey: .generation)) ?? .restV1
        userID = try c.decode(String.self, forKey: .userID)
        email = try c.decode(String.self, forKey: .email)
        password = nil
    }

    /// Writes everything but the password.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(serverURL, forKey: .serverURL)
        try c.encode(generation, forKey: .generation)
        try c.encode(userID, forKey: .userID)
        try c.encode(email, forKey: .email)
    }
}

extension Dependencies {
    /// Saves (or, with nil, forgets) the pending registration for the next
    /// launch; a failure to save is logged, not shown (the waiting goes on).
    func savePendingRegistration(_ pending: PendingRegistration?) {
        var settings = self.settings.load()
        var saved = pending
        saved?.password = nil
        guard settings.pendingRegistration != saved else { return }
        settings.pendingRegistration = saved
        do {
            try self.settings.save(settings)
        } catch {
            logger.warning("Could not save the pending registration", metadata: ["error": "\(error)"])
        }
    }
}
