import Foundation
import ListenUpCore

/// Password reset is not offered by this server: the Go server's REST v1
/// has no reset of a forgotten password (addendum §7, row Password reset:
/// none), so each call says so without asking it. Sign in does not offer
/// *Forgot Password?* on such a server (``KnownServer/offersPasswordReset``).
extension APIClient {
    /// Not offered by this server.
    /// - Throws: 403 with ``PasswordResetMessages/unavailable``.
    public func requestPasswordReset(email: String, deviceClaim: String) async throws(ServerError) -> PasswordResetTicket {
        throw .server(status: 403, message: PasswordResetMessages.unavailable)
    }

    /// Not offered by this server.
    /// - Throws: 403 with ``PasswordResetMessages/unavailable``.
    public func passwordResetStatus(ticketID: String) async throws(ServerError) -> AsyncThrowingStream<PasswordResetStatus, any Error> {
        throw .server(status: 403, message: PasswordResetMessages.unavailable)
    }

    /// Not offered by this server.
    /// - Throws: 403 with ``PasswordResetMessages/unavailable``.
    public func completePasswordReset(ticketID: String, claimSecret: String, code: String, newPassword: String) async throws(ServerError) {
        throw .server(status: 403, message: PasswordResetMessages.unavailable)
    }
}
