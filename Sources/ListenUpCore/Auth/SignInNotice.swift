import Foundation

/// Why the user is on Sign in again although they had signed in (or, for
/// ``accountApproved``, why they are there now): said plainly above the
/// form, and named in the headless state.
public enum SignInNotice: Equatable, Sendable {
    /// The server refused the saved session (it expired, or was signed out
    /// from another device).
    case sessionEnded
    /// The server at this address now speaks the other generation of the
    /// protocol (upgraded or rolled back): the session belonged to the old
    /// one (`ServerGenerationCheck.swift`).
    case serverUpdated
    /// The account was deleted on the server (kRPC
    /// `SyncControl.UserDeleted{reason?}`, REST v1 `user.deleted
    /// {user_id, reason?}`); `reason` is the server's own words, if any.
    case accountRemoved(reason: String?)
    /// Not an ending: a registration that waited was approved after the
    /// app forgot its password (a restart); Sign in has the email filled.
    case accountApproved
    /// Not an ending either: the user reset their password (every session
    /// of the account was ended by the server); Sign in has the email filled.
    case passwordChanged

    /// The sentence the sign-in page shows.
    public var message: String {
        switch self {
        case .sessionEnded:
            tr("Your session has ended. Sign in again to continue.")
        case .serverUpdated:
            tr("This server was updated. Sign in again.")
        case .accountRemoved(let reason):
            if let reason = Self.ownWords(reason) {
                // The server's reason is its own (untranslated) text.
                tr("Your account was removed from this server: %@", reason)
            } else {
                tr("An administrator removed your account from this server.")
            }
        case .accountApproved:
            tr("Your account was approved. Sign in to continue.")
        case .passwordChanged:
            tr("Your password was changed. Sign in with the new one.")
        }
    }

    /// A machine-readable name (headless `reason`).
    public var code: String {
        switch self {
        case .sessionEnded: "sessionEnded"
        case .serverUpdated: "serverUpdated"
        case .accountRemoved: "accountRemoved"
        case .accountApproved: "accountApproved"
        case .passwordChanged: "passwordChanged"
        }
    }

    /// The reasons both servers send today say what the translated sentence
    /// says (Kotlin: `AdminUserServiceImpl.deleteUser`; Go:
    /// `internal/service/admin.go`); any other text is shown as it came,
    /// trimmed and cut to one short line.
    private static func ownWords(_ reason: String?) -> String? {
        guard let reason = reason?.trimmingCharacters(in: .whitespacesAndNewlines), !reason.isEmpty else { return nil }
        let known = ["Your account was removed by an administrator.", "Account deleted by administrator"]
        guard !known.contains(reason) else { return nil }
        let line = reason.prefix { !$0.isNewline }
        return line.count > 200 ? String(line.prefix(200)) + "…" : String(line)
    }
}
