import Foundation

/// In-process test controls for password reset (kRPC mode; the REST mode,
/// as the Go server, has no password reset).
extension DemoServer {
    /// The reset requests waiting for an administrator, soonest to expire first.
    public func pendingPasswordResets() -> [PendingPasswordReset] {
        service.pendingPasswordResets()
    }

    /// Approves the reset `ticketID`, as an administrator would.
    /// - Returns: the code to give the user (8 characters, shown as
    ///   `ABCD-2345`), or nil when no such request waits.
    public func approvePasswordReset(ticketID: String) -> String? {
        let code = service.decidePasswordReset(ticketID, approve: true).code
        return code.map { String($0.prefix(4)) + "-" + String($0.dropFirst(4)) }
    }

    /// Denies the reset `ticketID`: its watch says `DENIED` at the next poll.
    /// - Returns: false when no such request waits.
    @discardableResult
    public func denyPasswordReset(ticketID: String) -> Bool {
        service.decidePasswordReset(ticketID, approve: false).decided
    }
}
