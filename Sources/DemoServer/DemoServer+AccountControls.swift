import Foundation
import JSONToolkit
import ListenUpAPI
import ListenUpKRPC

extension DemoServer {
    /// An administrator deletes the account signed up with `email`, as both
    /// servers do it: first the event to that user's open streams (kRPC
    /// `SyncControl.UserDeleted{reason}` on `observeEvents`,
    /// `AdminUserServiceImpl.deleteUser`; REST v1 `user.deleted {user_id,
    /// reason}`, `internal/service/admin.go`), then every session of the
    /// account ends and it can no longer sign in.
    ///
    /// The REST flavour's event streams are not per user: every open stream
    /// gets the event (tests run one user).
    /// - Returns: false when no such user exists.
    @discardableResult
    public func removeAccount(email: String, reason: String? = "Your account was removed by an administrator.") -> Bool {
        let userID = service.state.withLock { state in
            state.users.first { $0.email.caseInsensitiveCompare(email) == .orderedSame }?.id
        }
        guard let userID else { return false }
        if let krpc {
            // `reason` has a default of null in the contract: omitted when nil (§1.4).
            var control = JSONWriter.object()
            control.string("type", "SyncControl.UserDeleted")
            control.stringIfPresent("reason", reason)
            krpc.publishControl(DemoKRPCWrap.frame(domain: SyncDomain.control.rawValue, revision: nil, json: control.finished()), to: userID)
            krpc.tokens.revoke(userID: userID)
        } else {
            service.events.broadcast("user.deleted", UserDeletedPayload(userID: userID, reason: reason))
        }
        service.state.withLock { state in
            state.users.removeAll { $0.id == userID }
            state.sessions = state.sessions.filter { $0.value.userID != userID }
            state.accessTokens = state.accessTokens.filter { $0.value.userID != userID }
            // Their public profile goes too (a tombstone with the full row).
            state.refreshPublicProfiles(now: Date())
        }
        return true
    }
}
