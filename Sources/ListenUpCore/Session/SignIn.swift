import Foundation

extension Dependencies {
    /// A saved session resumed on a new connection to its server (at
    /// launch: the session read from the secret store), over the protocol
    /// of `generation` (saved with the server: no second probe).
    public func resume(_ stored: StoredSession, generation: ServerGeneration = .restV1) -> Session {
        let server = KnownServer(url: stored.serverURL, generation: generation)
        return Session(stored, connection: connect(to: server, session: stored), generation: generation)
    }

    /// Signs in to `server` on a new connection with `attempt` (Sign in, or
    /// Create admin), and hands back the session with that connection, so
    /// the library goes on with it (nothing is read back from the secret
    /// store in this run).
    /// - Returns: the session, or why the server or the network refused.
    func signIn(to server: KnownServer,
                with attempt: @escaping @Sendable (any ServerConnection) async throws(ServerError) -> StoredSession)
        async -> Result<Session, ServerError> {
        let connection = connect(to: server)
        do throws(ServerError) {
            return .success(Session(try await attempt(connection), connection: connection, generation: server.generation))
        } catch {
            return .failure(error)
        }
    }
}
