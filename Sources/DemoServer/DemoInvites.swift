import Foundation

/// One invite an admin made (both servers keep the same facts: Kotlin
/// `sq/Invites.sq`, Go `internal/domain/invite.go`): for whom, with which
/// role, by whom, until when, and whether someone claimed it.
struct DemoInvite: Sendable {
    var code: String
    var email: String
    var displayName: String
    /// `MEMBER` or `ADMIN` (`UserRole`).
    var role: String
    /// The inviter's name as shown; nil: the server's fallback.
    var invitedBy: String?
    var expiresAt: Date
    var claimedAt: Date?

    /// Whether it can no longer be claimed, and why (claimed first, as both servers check).
    func problem(at now: Date) -> DemoServer.InviteState? {
        if claimedAt != nil { return .claimed }
        if expiresAt < now { return .expired }
        return nil
    }

    /// 16 random bytes, base64url without padding (22 characters), as both
    /// servers mint them (`srv/auth/InviteCodeGenerator.kt`, Go `generateInviteCode`).
    static func newCode() -> String {
        var generator = SystemRandomNumberGenerator()
        let bytes = Data((0..<16).map { _ in UInt8.random(in: 0...255, using: &generator) })
        return bytes.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }
}

extension DemoServer {
    /// The state a test invite is made in.
    public enum InviteState: String, Sendable {
        case pending, expired, claimed
    }

    /// Makes an invite (as an admin would in the server's UI) and returns its
    /// code: for `email`, proposing `displayName`, with `role` (`MEMBER` or
    /// `ADMIN`), sent by `invitedBy` (nil: the server's fallback name), valid
    /// for 7 days unless made `expired` or `claimed` already.
    /// - Returns: the code; links are `<url>/join/<code>` (REST) or the apps'
    ///   `https://link.listenup.audio/o?t=invite&server=…&code=…` (kRPC).
    @discardableResult
    public func createInvite(email: String, displayName: String, role: String = "MEMBER", invitedBy: String? = nil,
                             state: InviteState = .pending) -> String {
        let now = Date()
        let invite = DemoInvite(code: DemoInvite.newCode(), email: email, displayName: displayName, role: role, invitedBy: invitedBy,
                                expiresAt: state == .expired ? now.addingTimeInterval(-60) : now.addingTimeInterval(7 * 86_400),
                                claimedAt: state == .claimed ? now : nil)
        service.state.withLock { $0.invites.append(invite) }
        return invite.code
    }

    /// Makes invite `code` expire now (a claim after this is refused).
    public func expireInvite(code: String) {
        service.state.withLock { state in
            guard let index = state.invites.firstIndex(where: { $0.code == code }) else { return }
            state.invites[index].expiresAt = Date().addingTimeInterval(-1)
        }
    }

    /// Whether invite `code` was claimed.
    public func isInviteClaimed(code: String) -> Bool {
        service.state.withLock { $0.invites.first { $0.code == code }?.claimedAt != nil }
    }
}

extension DemoService.State {
    /// Claims `code` for a new account (the checks both servers make, in
    /// their order: unknown, claimed, expired; then the password, then the
    /// email): the user made, or why not.
    mutating func claimInvite(code: String, password: String, displayName: String?, at now: Date)
        -> Result<DemoService.User, DemoInviteRefusal> {
        guard let index = invites.firstIndex(where: { $0.code == code }) else { return .failure(.notFound) }
        let invite = invites[index]
        if let problem = invite.problem(at: now) { return .failure(problem == .claimed ? .claimed : .expired) }
        if password.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty { return .failure(.weakPassword("BLANK")) }
        if password.count < 8 { return .failure(.weakPassword("TOO_SHORT")) }
        if password.count > 1024 { return .failure(.weakPassword("TOO_LONG")) }
        if users.contains(where: { $0.email.caseInsensitiveCompare(invite.email) == .orderedSame }) { return .failure(.emailInUse) }
        let name = displayName.flatMap { $0.trimmingCharacters(in: .whitespaces).isEmpty ? nil : $0 } ?? invite.displayName
        let words = name.split(separator: " ", maxSplits: 1).map(String.init)
        var random = SplitMix64(seed: UInt64.random(in: 0...UInt64.max))
        let user = DemoService.User(id: "user-" + DemoService.nanoID(&random), email: invite.email, password: password,
                                    firstName: words.first ?? name, lastName: words.count > 1 ? words[1] : "", isRoot: false,
                                    createdAt: now, lastLoginAt: now, displayName: name, isAdmin: invite.role == "ADMIN")
        users.append(user)
        invites[index].claimedAt = now
        return .success(user)
    }

    /// The inviter's name as the server shows it.
    func inviterName(_ invite: DemoInvite, fallback: String) -> String {
        invite.invitedBy ?? fallback
    }
}

/// Why a claim was refused.
enum DemoInviteRefusal: Error, Equatable {
    case notFound, claimed, expired, emailInUse
    /// `WeakPasswordReason`.
    case weakPassword(String)
}
