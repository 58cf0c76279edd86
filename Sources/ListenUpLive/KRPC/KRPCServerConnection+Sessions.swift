import Foundation
import ListenUpCore
import ListenUpKRPC

/// The account's sessions over kRPC (addendum §6.5):
/// `AuthServiceAuthed.listSessions()` and `revokeSession(sessionId)`.
/// Upstream: `api/AuthService.kt`, `srv/auth/AuthServiceImpl.kt`.
extension KRPCServerConnection {
    public func accountSessions() async throws(ServerError) -> [AccountSession]? {
        try await call(.listSessions, NoArguments(), returning: [SessionSummary].self).map(KRPCMapping.accountSession)
    }

    public func endAccountSession(id: String) async throws(ServerError) {
        _ = try await call(.revokeSession, RevokeSessionArguments(sessionId: id), returning: KotlinUnit.self)
    }
}

extension KRPCMapping {
    /// A session as the seam's: the label it was given, or the device's
    /// name, or its client; the platform as the device said.
    static func accountSession(_ summary: SessionSummary) -> AccountSession {
        let device = summary.deviceInfo
        let label = [summary.label, device?.deviceName, device?.clientName].lazy.compactMap { $0 }
            .first { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
        return AccountSession(id: summary.id, label: label, platform: device?.platform.flatMap { $0.isEmpty ? nil : $0 },
                              createdAt: date(summary.createdAt), lastUsedAt: date(summary.lastUsedAt), isCurrent: summary.current)
    }
}
