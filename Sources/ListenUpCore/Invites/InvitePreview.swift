import Foundation

/// What a server says about an invite before it is claimed: who is invited,
/// by whom, to which server, and whether it can still be used (the seam's
/// view of kRPC `InvitePreview`, addendum §6.4, and REST v1
/// `GET /api/v1/invites/{code}`, §7).
public struct InvitePreview: Equatable, Sendable {
    /// The name the invite proposes for the new account.
    public var displayName: String
    /// The account's email (fixed by the invite).
    public var email: String
    /// Who sent the invite ("An administrator" when the server does not say).
    public var invitedByName: String
    /// The server's name.
    public var serverName: String
    /// Why the invite cannot be used; nil when it can.
    public var problem: InviteRefusal?

    /// Creates a preview; each parameter sets the property of the same name.
    public init(displayName: String, email: String, invitedByName: String, serverName: String, problem: InviteRefusal? = nil) {
        self.displayName = displayName
        self.email = email
        self.invitedByName = invitedByName
        self.serverName = serverName
        self.problem = problem
    }

    /// Whether the invite can be claimed.
    public var isValid: Bool { problem == nil }
}

/// Why a server refused an invite (``ServerError/invite(_:)``), or why its
/// preview says it cannot be used.
public enum InviteRefusal: String, Equatable, Sendable, CaseIterable {
    /// No invite has this code (or it was revoked).
    case notFound
    /// The invite is past its date.
    case expired
    /// Someone already made an account with it.
    case alreadyClaimed
    /// An account with the invite's email exists already.
    case emailInUse
    /// The server says it cannot be used and gives no reason the app knows
    /// (the Go server's `valid: false`; a Kotlin `invalidReason` of another text).
    case unusable

    /// The kRPC preview's `invalidReason` read back: the server sends the
    /// English message of its `InviteError` (`InviteServiceImpl.lookupInvite`).
    public init(invalidReason: String) {
        switch invalidReason {
        case "This invite has already been used.": self = .alreadyClaimed
        case "This invite has expired.": self = .expired
        default: self = .unusable
        }
    }

    /// Machine-readable code (headless `code`).
    public var code: String {
        switch self {
        case .notFound: "inviteNotFound"
        case .expired: "inviteExpired"
        case .alreadyClaimed: "inviteClaimed"
        case .emailInUse: "emailInUse"
        case .unusable: "inviteUnusable"
        }
    }

    /// What to tell the user.
    public var userMessage: String {
        switch self {
        case .notFound: tr("This invite doesn't exist on the server. It may have been withdrawn; ask for a new one.")
        case .expired: tr("This invite has expired. Ask whoever invited you for a new one.")
        case .alreadyClaimed: tr("This invite has already been used. Sign in with the account it made, or ask for a new invite.")
        case .emailInUse: tr("An account with this invite's email exists already. Sign in instead.")
        case .unusable: tr("This invite can no longer be used. Ask whoever invited you for a new one.")
        }
    }
}

extension ServerConnection {
    /// A server that takes no invites.
    public func lookupInvite(code: String) async throws(ServerError) -> InvitePreview {
        throw .protocolMismatch("this server takes no invites")
    }

    /// A server that takes no invites.
    public func claimInvite(code: String, password: String, displayName: String?) async throws(ServerError) -> StoredSession {
        throw .protocolMismatch("this server takes no invites")
    }
}
