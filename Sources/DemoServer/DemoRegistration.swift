import Foundation

extension DemoServer {
    /// Whether the demo server takes registrations, and how
    /// (`listenup-demo-server --registration open|approval|closed`). kRPC:
    /// `ServerInfo.registrationPolicy` `OPEN`, `APPROVAL_QUEUE`, `CLOSED`.
    /// REST v1: `open_registration` is true for open and approval, and, as
    /// on the Go server, every registration waits for approval.
    public enum RegistrationMode: String, Sendable, CaseIterable {
        case open, approval, closed
    }

    /// A registration waiting for an administrator (``DemoServer/pendingRegistrations()``).
    public struct PendingRegistration: Sendable, Equatable {
        /// The pending user's id (what the client watches).
        public var userID: String
        public var email: String
        public var displayName: String

        /// A registration; each parameter sets the property of the same name.
        public init(userID: String, email: String, displayName: String) {
            self.userID = userID
            self.email = email
            self.displayName = displayName
        }
    }
}

/// What an administrator decided about a registration.
enum DemoRegistrationDecision: Sendable, Equatable {
    case approved
    case denied(reason: String?)
}

/// The registrations of both protocols: the mode, the users waiting,
/// those declined, and the open status watches (told of a decision once,
/// then forgotten).
struct DemoRegistrations {
    var mode: DemoServer.RegistrationMode = .closed
    /// Users waiting for approval (not in `users` yet: they cannot sign in).
    var pending: [DemoService.User] = []
    /// Declined user ids and the reason given.
    var declined: [String: String?] = [:]
    /// Every user id ever approved (their status stays approved).
    var approved: Set<String> = []
    /// Open watches by user id.
    var watchers: [String: [UUID: @Sendable (DemoRegistrationDecision) -> Void]] = [:]
    /// Open `observeRegistrationPolicy` watches, told of each change of `mode`.
    var modeWatchers: [UUID: @Sendable (DemoServer.RegistrationMode) -> Void] = [:]

    /// A user's status now: nil for an id the server never issued.
    func status(of userID: String) -> DemoRegistrationDecision?? {
        if pending.contains(where: { $0.id == userID }) { return .some(nil) }
        if approved.contains(userID) { return .approved }
        if let reason = declined[userID] { return .denied(reason: reason) }
        return nil
    }

    /// Whether `email` belongs to a pending registration.
    func isPending(email: String) -> Bool {
        pending.contains { $0.email.caseInsensitiveCompare(email) == .orderedSame }
    }
}

extension DemoService {
    /// Adds a pending user (approval) and returns its id.
    func queueRegistration(email: String, password: String, displayName: String) -> String {
        let words = displayName.split(separator: " ", maxSplits: 1).map(String.init)
        let user = User(id: UUID().uuidString.lowercased(), email: email, password: password, firstName: words.first ?? displayName,
                        lastName: words.count > 1 ? words[1] : "", isRoot: false, createdAt: Date(), lastLoginAt: Date(),
                        displayName: displayName)
        state.withLock { $0.registrations.pending.append(user) }
        return user.id
    }

    /// Whether `email` is taken by a user or a pending registration.
    func isEmailTaken(_ email: String) -> Bool {
        state.withLock { state in
            state.users.contains { $0.email.caseInsensitiveCompare(email) == .orderedSame } || state.registrations.isPending(email: email)
        }
    }

    /// Watches `userID`'s decision: `deliver` runs once, on a decision
    /// (from any thread). Returns the token to stop watching.
    func watchRegistration(_ userID: String, deliver: @escaping @Sendable (DemoRegistrationDecision) -> Void) -> UUID {
        let token = UUID()
        state.withLock { $0.registrations.watchers[userID, default: [:]][token] = deliver }
        return token
    }

    /// Stops the watch `token` of `userID`.
    func unwatchRegistration(_ userID: String, token: UUID) {
        state.withLock { _ = $0.registrations.watchers[userID]?.removeValue(forKey: token) }
    }

    /// Decides `userID`'s registration and tells its open watches.
    /// - Returns: false when no such registration waits.
    func decideRegistration(_ userID: String, _ decision: DemoRegistrationDecision) -> Bool {
        let watchers: [@Sendable (DemoRegistrationDecision) -> Void]? = state.withLock { state in
            guard let index = state.registrations.pending.firstIndex(where: { $0.id == userID }) else { return nil }
            let user = state.registrations.pending.remove(at: index)
            switch decision {
            case .approved:
                state.users.append(user)
                state.registrations.approved.insert(userID)
            case .denied(let reason):
                state.registrations.declined[userID] = .some(reason)
            }
            return Array((state.registrations.watchers.removeValue(forKey: userID) ?? [:]).values)
        }
        guard let watchers else { return false }
        for watcher in watchers { watcher(decision) }
        return true
    }

    /// Creates an active member at once (open registration, kRPC).
    func createMember(email: String, password: String, displayName: String) -> User {
        var random = SplitMix64(seed: UInt64.random(in: 0...UInt64.max))
        let words = displayName.split(separator: " ", maxSplits: 1).map(String.init)
        let now = Date()
        let user = User(id: "user-" + Self.nanoID(&random), email: email, password: password, firstName: words.first ?? displayName,
                        lastName: words.count > 1 ? words[1] : "", isRoot: false, createdAt: now, lastLoginAt: now,
                        displayName: displayName)
        state.withLock {
            $0.users.append(user)
            $0.createStarterShelf(for: user, at: now)
        }
        return user
    }
}

extension DemoService {
    /// Starts telling `deliver` of each change of the registration mode.
    func watchRegistrationMode(_ deliver: @escaping @Sendable (DemoServer.RegistrationMode) -> Void) -> UUID {
        let token = UUID()
        state.withLock { $0.registrations.modeWatchers[token] = deliver }
        return token
    }

    /// Stops the mode watch `token`.
    func unwatchRegistrationMode(_ token: UUID) {
        state.withLock { _ = $0.registrations.modeWatchers.removeValue(forKey: token) }
    }

    /// Sets the registration mode and tells the mode watches when it changed.
    func setRegistrationMode(_ mode: DemoServer.RegistrationMode) {
        let watchers: [@Sendable (DemoServer.RegistrationMode) -> Void] = state.withLock { state in
            guard state.registrations.mode != mode else { return [] }
            state.registrations.mode = mode
            return Array(state.registrations.modeWatchers.values)
        }
        for watcher in watchers { watcher(mode) }
    }
}
