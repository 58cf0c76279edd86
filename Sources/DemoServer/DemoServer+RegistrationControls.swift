import Foundation

/// In-process test controls for registration, both protocols.
extension DemoServer {
    /// The registrations waiting for an administrator, oldest first.
    public func pendingRegistrations() -> [PendingRegistration] {
        service.state.withLock { state in
            state.registrations.pending.map { PendingRegistration(userID: $0.id, email: $0.email, displayName: $0.shownName) }
        }
    }

    /// Approves `userID`'s registration: the account can sign in, and open
    /// status watches (kRPC Flow, REST stream) hear `approved` at once.
    /// - Returns: false when no such registration waits.
    @discardableResult
    public func approveRegistration(userID: String) -> Bool {
        service.decideRegistration(userID, .approved)
    }

    /// Declines `userID`'s registration with `reason` (kRPC sends it as the
    /// event's `message`; the Go server's stream has none).
    /// - Returns: false when no such registration waits.
    @discardableResult
    public func denyRegistration(userID: String, reason: String? = nil) -> Bool {
        service.decideRegistration(userID, .denied(reason: reason))
    }

    /// Changes the registration mode while running; open kRPC policy
    /// watches hear the change at once (the same mode again sends nothing).
    public func setRegistration(_ mode: RegistrationMode) {
        service.setRegistrationMode(mode)
    }
}
