import Foundation
import Logging

/// A saved server can change generation at the same address: a Go server
/// (REST v1) upgraded to today's Kotlin one (kRPC), or rolled back. The app
/// saved the generation it verified (no probe at launch), so the first it
/// hears of the change is the old protocol's calls failing as no ListenUp
/// server would make them fail: REST paths answering 404, a WebSocket
/// upgrade refused, answers that are not the contract's. Then it checks the
/// server again; only if the check finds the other generation does the
/// session (which belongs to the old one) go, and the user signs in anew.
enum ServerGenerationCheck {
    /// Whether `error` is how a server of the other generation answers.
    /// Never a network failure (offline is offline) or a refused session.
    static func suggestsAnotherGeneration(_ error: ServerError) -> Bool {
        switch error {
        case .server(let status, _): [400, 404, 405, 426].contains(status)
        case .protocolMismatch: true
        default: false
        }
    }

    /// Checks `session`'s server again; when it now speaks another
    /// generation, saves it for the next launch, forgets the session and
    /// returns the server as it is now.
    static func run(for session: Session, dependencies: Dependencies) async -> VerifiedServer? {
        guard case .success(let address) = ServerAddress.parse(session.serverURL.absoluteString) else { return nil }
        guard case .success(let server) = await dependencies.verifier.verify(address), server.generation != session.generation
        else { return nil }
        dependencies.logger.info("The server now speaks another generation; signing in again",
                                 metadata: ["was": "\(session.generation.rawValue)", "now": "\(server.generation.rawValue)"])
        dependencies.settings.remember(server, logger: dependencies.logger)
        await dependencies.sessions.delete(session.serverURL)
        return server
    }
}

extension SettingsClient {
    /// Saves `server` as the one to connect to at the next launch, and in
    /// the saved servers (its entry updated if it has one).
    func remember(_ server: VerifiedServer, logger: Logger) {
        var settings = load()
        settings.rememberServer(SavedServer(url: server.url, generation: server.generation, instanceID: server.instanceID))
        settings.serverURL = server.url.absoluteString
        settings.instanceID = server.instanceID
        settings.serverGeneration = server.generation
        do {
            try save(settings)
        } catch {
            logger.warning("Could not save the server for the next launch", metadata: ["reason": "\(error)"])
        }
    }
}
