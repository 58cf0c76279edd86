import Foundation
import ListenUpAPI
import ListenUpCore

/// Invites over REST v1 (addendum §7 "Invites"; the Go server's
/// `internal/api/invite_handlers.go` and `internal/service/invite.go`).
extension APIClient {
    /// `GET /api/v1/invites/{code}`. The Go server gives no reason for an
    /// invalid invite (``InviteRefusal/unusable``); 404 is an unknown code.
    /// An inviter it cannot name comes as the English word `Unknown`
    /// (`GetInviteDetails`), shown as today's server names one it cannot:
    /// "An administrator".
    public func lookupInvite(code: String) async throws(ServerError) -> InvitePreview {
        do {
            let details = try await call(.inviteDetails(code: code))
            let inviter = details.invitedBy.map { $0.trimmingCharacters(in: .whitespaces) }.flatMap { $0.isEmpty || $0 == "Unknown" ? nil : $0 }
            return InvitePreview(displayName: details.name, email: details.email, invitedByName: inviter ?? tr("An administrator"),
                                 serverName: details.serverName, problem: details.valid ? nil : .unusable)
        } catch .server(status: 404, _) {
            throw .invite(.notFound)
        }
    }

    /// `POST /api/v1/invites/{code}/claim`: the account takes the invite's
    /// name (REST v1 takes none with the claim, so `displayName` is not sent).
    public func claimInvite(code: String, password: String, displayName: String?) async throws(ServerError) -> StoredSession {
        do {
            let auth = try await call(.claimInvite(code: code, ClaimInviteRequest(password: password, deviceInfo: deviceInfo)))
            return await adopt(auth, email: auth.user.email)
        } catch .server(status: 404, _) {
            throw .invite(.notFound)
        } catch .server(status: 409, let message) {
            throw Self.inviteConflict(message)
        }
    }

    /// The Go server's 409 texts: `invite has already been claimed`,
    /// `invite has expired`, and an email taken meanwhile.
    static func inviteConflict(_ message: String) -> ServerError {
        let text = message.lowercased()
        if text.contains("claimed") { return .invite(.alreadyClaimed) }
        if text.contains("expired") { return .invite(.expired) }
        if text.contains("email") { return .invite(.emailInUse) }
        return .server(status: 409, message: message)
    }
}
