import Foundation

extension DemoServer {
    /// A password reset waiting for an administrator (``DemoServer/pendingPasswordResets()``).
    public struct PendingPasswordReset: Sendable, Equatable {
        /// The request's ticket id (what the client watches).
        public var ticketID: String
        /// The account's id and email.
        public var userID: String
        public var email: String
        /// When it expires (15 minutes after it was asked for).
        public var expiresAt: Date

        /// A reset; each parameter sets the property of the same name.
        public init(ticketID: String, userID: String, email: String, expiresAt: Date) {
            self.ticketID = ticketID
            self.userID = userID
            self.email = email
            self.expiresAt = expiresAt
        }
    }
}

/// A reset request's status (upstream `PasswordResetStatus`).
enum DemoPasswordResetStatus: String, Sendable {
    case pending = "PENDING", approved = "APPROVED", denied = "DENIED", consumed = "CONSUMED", expired = "EXPIRED"
}

/// One reset request, as upstream's `password_reset_requests` row keeps it
/// (`server/.../services/PasswordResetService.kt`, `PasswordResetRequests.sq`).
/// The demo keeps the claim and code as sent, not their keyed hashes.
struct DemoPasswordReset: Sendable {
    var id: String
    var userID: String
    var email: String
    var claim: String
    var status: DemoPasswordResetStatus
    /// The code, once approved (normalized: 8 characters, no dash).
    var code: String?
    /// Wrong completions so far.
    var attempts = 0
    var expiresAt: Date
}

/// Every password reset of the kRPC demo: live requests, and the tickets
/// issued for emails with no account (never stored upstream; here kept only
/// so their watch can say `EXPIRED` after 15 minutes, as upstream's signed
/// ticket does).
struct DemoPasswordResets {
    /// A request lives 15 minutes (upstream `PasswordResetService.TTL`).
    static let lifetime: TimeInterval = 15 * 60
    /// Five wrong codes end a request (upstream `MAX_ATTEMPTS`).
    static let maxAttempts = 5
    /// The code's alphabet (Crockford base 32: no I, L, O, U; `ResetCodeGenerator.kt`).
    static let alphabet = Array("0123456789ABCDEFGHJKMNPQRSTVWXYZ")

    var requests: [String: DemoPasswordReset] = [:]
    var unpersisted: [String: Date] = [:]

    /// The status of `ticketID` at `now`, and its expiry: an unknown ticket
    /// looks pending until it expires (it is never an error).
    mutating func status(of ticketID: String, now: Date) -> (status: DemoPasswordResetStatus, expiresAt: Date) {
        if var request = requests[ticketID] {
            if [.pending, .approved].contains(request.status), now >= request.expiresAt {
                request.status = .expired
                requests[ticketID] = request
            }
            return (request.status, request.expiresAt)
        }
        let expiresAt = unpersisted[ticketID] ?? now.addingTimeInterval(Self.lifetime)
        unpersisted[ticketID] = expiresAt
        return (now >= expiresAt ? .expired : .pending, expiresAt)
    }

    /// A new code: 8 characters of ``alphabet``.
    static func newCode() -> String {
        var generator = SystemRandomNumberGenerator()
        return String((0..<8).map { _ in alphabet[Int.random(in: 0..<alphabet.count, using: &generator)] })
    }

    /// `code` as the server reads input: upper-cased, letters and digits only.
    static func normalize(_ code: String) -> String {
        String(code.uppercased().unicodeScalars.filter { ("A"..."Z").contains($0) || ("0"..."9").contains($0) }.map(Character.init))
    }
}

/// Why a completion was refused, in the server's order.
enum DemoPasswordResetRefusal: Error, Equatable {
    case notFound, exhausted, notApproved
    case wrong(remaining: Int)
}

extension DemoService {
    /// Opens a reset for `email`: a ticket whatever the email; a stored
    /// request (expiring the user's earlier live ones) only for an account.
    func requestPasswordReset(email: String, claim: String) -> (ticketID: String, expiresAt: Date) {
        let now = Date()
        let ticketID = UUID().uuidString.lowercased()
        let expiresAt = now.addingTimeInterval(DemoPasswordResets.lifetime)
        state.withLock { state in
            guard let user = state.users.first(where: { $0.email.caseInsensitiveCompare(email) == .orderedSame }) else {
                state.passwordResets.unpersisted[ticketID] = expiresAt
                return
            }
            for (id, request) in state.passwordResets.requests where request.userID == user.id && [.pending, .approved].contains(request.status) {
                state.passwordResets.requests[id]?.status = .expired
            }
            state.passwordResets.requests[ticketID] = DemoPasswordReset(id: ticketID, userID: user.id, email: user.email, claim: claim,
                                                                         status: .pending, expiresAt: expiresAt)
        }
        return (ticketID, expiresAt)
    }

    /// The status of `ticketID` now.
    func passwordResetStatus(_ ticketID: String) -> (status: DemoPasswordResetStatus, expiresAt: Date) {
        state.withLock { $0.passwordResets.status(of: ticketID, now: Date()) }
    }

    /// Completes a reset in upstream's order (the password policy was
    /// checked by the caller): unknown, expired or consumed → not found;
    /// five failures → exhausted; pending or denied → not approved; wrong
    /// claim or code → wrong (one attempt used). Success sets the password.
    /// - Returns: the user whose password changed, or the refusal.
    func completePasswordReset(ticketID: String, claim: String, code: String, newPassword: String) -> Result<String, DemoPasswordResetRefusal> {
        state.withLock { state in
            let now = Date()
            _ = state.passwordResets.status(of: ticketID, now: now)
            guard let request = state.passwordResets.requests[ticketID], ![.consumed, .expired].contains(request.status) else {
                return .failure(.notFound)
            }
            if request.attempts >= DemoPasswordResets.maxAttempts { return .failure(.exhausted) }
            guard request.status == .approved, let expected = request.code else { return .failure(.notApproved) }
            guard request.claim == claim, DemoPasswordResets.normalize(code) == expected else {
                state.passwordResets.requests[ticketID]?.attempts += 1
                return .failure(.wrong(remaining: max(0, DemoPasswordResets.maxAttempts - request.attempts - 1)))
            }
            guard let index = state.users.firstIndex(where: { $0.id == request.userID }) else { return .failure(.notFound) }
            state.users[index].password = newPassword
            state.passwordResets.requests[ticketID]?.status = .consumed
            state.sessions = state.sessions.filter { $0.value.userID != request.userID }
            return .success(request.userID)
        }
    }

    /// The live requests waiting for a decision, oldest expiry first.
    func pendingPasswordResets() -> [DemoServer.PendingPasswordReset] {
        state.withLock { state in
            let now = Date()
            return state.passwordResets.requests.values.filter { $0.status == .pending && $0.expiresAt > now }
                .sorted { $0.expiresAt < $1.expiresAt }
                .map { DemoServer.PendingPasswordReset(ticketID: $0.id, userID: $0.userID, email: $0.email, expiresAt: $0.expiresAt) }
        }
    }

    /// Approves or denies a pending request.
    /// - Returns: whether a request waited, and the code (normalized) when approved.
    func decidePasswordReset(_ ticketID: String, approve: Bool) -> (decided: Bool, code: String?) {
        state.withLock { state in
            _ = state.passwordResets.status(of: ticketID, now: Date())
            guard state.passwordResets.requests[ticketID]?.status == .pending else { return (false, nil) }
            guard approve else {
                state.passwordResets.requests[ticketID]?.status = .denied
                return (true, nil)
            }
            let code = DemoPasswordResets.newCode()
            state.passwordResets.requests[ticketID]?.status = .approved
            state.passwordResets.requests[ticketID]?.code = code
            return (true, code)
        }
    }
}
