import Foundation
import KRPCSession
import ListenUpCore
import ListenUpKRPC

/// Resetting a forgotten password over kRPC (addendum §6.3; upstream
/// `api/AuthService.kt`, `api/dto/auth/PasswordReset.kt`,
/// `server/.../services/PasswordResetService.kt`), all on the public socket.
extension KRPCServerConnection {
    /// `requestPasswordReset(email, deviceClaim)`: always a ticket.
    /// - Throws: rate limited (5 a minute per address), the network's errors.
    public func requestPasswordReset(email: String, deviceClaim: String) async throws(ServerError) -> ListenUpCore.PasswordResetTicket {
        let ticket = try await call(.requestPasswordReset, RequestPasswordResetArguments(email: email, deviceClaim: deviceClaim),
                                    returning: ListenUpKRPC.PasswordResetTicket.self, on: .public)
        guard !ticket.ticketId.isEmpty else { throw .protocolMismatch("requestPasswordReset answered without a ticketId") }
        return ListenUpCore.PasswordResetTicket(ticketID: ticket.ticketId, expiresAt: KRPCMapping.date(ticket.expiresAt))
    }

    /// `observePasswordResetStatus(ticketId)`: every poll's status (repeats
    /// included; the model drops them), ending after a terminal one. A word
    /// this app does not know is skipped.
    public func passwordResetStatus(ticketID: String) async throws(ServerError) -> AsyncThrowingStream<PasswordResetStatus, any Error> {
        try await publicFlow(.observePasswordResetStatus, arguments: ObservePasswordResetStatusArguments(ticketId: ticketID),
                             of: PasswordResetStatusEvent.self, map: { KRPCMapping.passwordResetStatus($0) }, isLast: \.isTerminal)
    }

    /// `completePasswordReset(ticketId, claimSecret, code, newPassword)`.
    /// The password's length is checked here first (the server's policy
    /// would refuse it as `WeakPassword`).
    /// - Throws: ``ServerError/passwordReset(_:)`` for the reset's refusals,
    ///   400 for a weak password, rate limited.
    public func completePasswordReset(ticketID: String, claimSecret: String, code: String, newPassword: String) async throws(ServerError) {
        guard AccountFormRules.passwordLengths.contains(newPassword.count) else {
            throw .server(status: 400, message: tr("Choose a password of 8 to 1024 characters."))
        }
        _ = try await call(.completePasswordReset, CompletePasswordResetArguments(ticketId: ticketID, claimSecret: claimSecret, code: code,
                                                                                  newPassword: newPassword),
                           returning: KotlinUnit.self, on: .public)
    }
}

extension KRPCMapping {
    /// A status event's word as the seam's status; nil for a word this app does not know.
    static func passwordResetStatus(_ event: PasswordResetStatusEvent) -> PasswordResetStatus? {
        switch event.status {
        case PasswordResetStatusEvent.pending: .pending
        case PasswordResetStatusEvent.approved: .approved
        case PasswordResetStatusEvent.denied: .denied
        case PasswordResetStatusEvent.consumed: .consumed
        case PasswordResetStatusEvent.expired: .expired
        default: nil
        }
    }
}
