import Foundation
import ListenUpCore
import ListenUpKRPC

/// Invites over kRPC (addendum §6.4): `InviteServicePublic.lookupInvite(code)`
/// and `claimInvite(code, password, displayName, deviceInfo)` on the public
/// socket. Upstream: `api/InviteServicePublic.kt`, `srv/api/InviteServiceImpl.kt`.
extension KRPCServerConnection {
    /// The invite's preview; an unknown code is ``ServerError/invite(_:)`` `.notFound`.
    public func lookupInvite(code: String) async throws(ServerError) -> ListenUpCore.InvitePreview {
        let preview = try await call(.lookupInvite, LookupInviteArguments(code: code), returning: ListenUpKRPC.InvitePreview.self,
                                     on: .public)
        return KRPCMapping.invitePreview(preview)
    }

    /// Claims the invite: the server makes an ACTIVE account with the
    /// invite's email and role and signs in as it; the session is kept here
    /// and in the secret store.
    public func claimInvite(code: String, password: String, displayName: String?) async throws(ServerError) -> StoredSession {
        let arguments = ClaimInviteArguments(code: code, password: password, displayName: displayName, deviceInfo: krpcDeviceInfo)
        let auth = try await call(.claimInvite, arguments, returning: AuthSession.self, on: .public)
        return await adopt(auth)
    }
}

extension KRPCMapping {
    /// A preview as the seam's: `valid:false` with its reason read back.
    static func invitePreview(_ preview: ListenUpKRPC.InvitePreview) -> ListenUpCore.InvitePreview {
        ListenUpCore.InvitePreview(displayName: preview.displayName, email: preview.email, invitedByName: preview.invitedByName,
                                   serverName: preview.serverName,
                                   problem: preview.valid ? nil : InviteRefusal(invalidReason: preview.invalidReason ?? ""))
    }
}
