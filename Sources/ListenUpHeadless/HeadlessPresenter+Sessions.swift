import Foundation
import JSONToolkit
import ListenUpCore

/// The headless form of Preferences → Devices (signed in only):
///
/// - `{"action":"sessions"}` reads where the account is signed in and prints
///   `{"event":"sessions","sessions":[{"id","label","platform","lastUsedAt","current"}…]}`
///   (newest use first; `label` and `platform` may be null, `lastUsedAt`
///   is RFC 3339);
/// - `{"action":"revokeSession","id"}` signs that device out, then prints
///   the list again; this device's own id is refused (`logout` is for it);
/// - `{"action":"signOutOthers"}` signs out every other device, then
///   prints the list again.
///
/// A server that lists no sessions (REST v1) answers `unsupported`; one
/// that fails answers with the connection's code, the list unchanged.
extension HeadlessPresenter {
    static func sessionsLine(_ sessions: [AccountSession]) -> JSONValue {
        ["event": "sessions", "sessions": .array(sessions.map { session in
            ["id": .string(session.id), "label": .optional(session.label), "platform": .optional(session.platform),
             "lastUsedAt": .string(rfc3339(session.lastUsedAt)), "current": .bool(session.isCurrent)]
        })]
    }

    func handleAccountSessions(_ command: HeadlessCommand) {
        guard let model = navigator.signedIn?.accountSessions else {
            emitError(code: "notSignedIn", message: "Sign in to see where you are signed in.")
            return
        }
        switch command {
        case .revokeSession(let id):
            if model.sessions?.first(where: { $0.id == id })?.isCurrent == true {
                emitError(code: "badCommand", message: "That is this device's session: use “logout” to sign out here.")
                return
            }
            model.end(id)
        case .signOutOthers:
            model.endOthers()
        default:
            model.refresh()
        }
        Task { [weak self, weak model] in
            await model?.settle()
            guard let self, let model else { return }
            if !model.isSupported {
                self.emitError(code: "unsupported", message: "This server does not list where you are signed in.")
            } else if let failure = model.failure {
                self.emitError(code: failure.code, message: failure.userMessage)
            } else {
                self.emit(Self.sessionsLine(model.sessions ?? []))
            }
        }
    }
}
