import Foundation

/// What a connection with no server behind it answers (the offline
/// connection of previews and unit tests): every registration call fails
/// as unreachable, as its sign-in does. The live connections (in
/// `ListenUpLive`, one per protocol) implement them.
extension ServerConnection {
    public func registrationMode() async throws(ServerError) -> RegistrationMode {
        throw .transport(.unreachable("offline"))
    }

    /// ``registrationMode()`` once: a server that tells of no change.
    public func registrationModes() async throws(ServerError) -> AsyncThrowingStream<RegistrationMode, any Error> {
        let mode = try await registrationMode()
        return AsyncThrowingStream { continuation in
            continuation.yield(mode)
            continuation.finish()
        }
    }

    public func register(displayName: String, email: String, password: String) async throws(ServerError) -> RegistrationOutcome {
        throw .transport(.unreachable("offline"))
    }

    public func registrationStatus(userID: String) async throws(ServerError) -> AsyncThrowingStream<RegistrationStatus, any Error> {
        throw .transport(.unreachable("offline"))
    }
}

/// The texts the registration refusals share across protocols.
public enum RegistrationMessages {
    /// The server takes no new accounts (kRPC `AuthError.RegistrationDisabled`).
    public static var closed: String { tr("This server doesn't take new accounts. Ask its administrator for an invite.") }
}
