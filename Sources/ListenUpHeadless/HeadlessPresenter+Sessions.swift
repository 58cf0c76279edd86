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
/// Once asked for, the list is followed (read again every
/// ``AccountSessionsModel/followInterval``) and printed again whenever the
/// devices on it change (one signed in or out elsewhere).
extension HeadlessPresenter {
    /// A date as the headless lines write it: RFC 3339, whole seconds.
    static func rfc3339(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.string(from: date)
    }

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
        sessionsRequests += 1
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
            guard let self else { return }
            self.sessionsRequests -= 1
            guard let model else { return }
            if !model.isSupported {
                self.emitError(code: "unsupported", message: "This server does not list where you are signed in.")
            } else if let failure = model.failure {
                self.emitError(code: failure.code, message: failure.userMessage)
            } else {
                if self.sessionsPrinted == nil { model.follow(readingNow: false) }
                self.sessionsPrinted = (model.sessions ?? []).map(\.id)
                self.emit(Self.sessionsLine(model.sessions ?? []))
            }
        }
    }

    /// A followed list was read again: printed when its devices changed
    /// (not while a request of the user's is under way: that one answers).
    func accountSessionsChanged(_ model: AccountSessionsModel) {
        // The model's state is read first, whatever the presenter's: the
        // observation follows what this reads.
        let (listed, busy) = (model.sessions, model.isBusy)
        guard let printed = sessionsPrinted, sessionsRequests == 0, !busy,
              let sessions = listed, sessions.map(\.id) != printed else { return }
        sessionsPrinted = sessions.map(\.id)
        emit(Self.sessionsLine(sessions))
    }
}
