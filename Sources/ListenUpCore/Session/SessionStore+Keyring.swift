import Foundation
import Keyring
import Logging

extension SessionStore {
    /// Sessions in the Secret Service (one item per server, the session as
    /// JSON), falling back to `fallback` when no keyring is reachable. The
    /// choice is made at the first call and kept; the fallback is announced
    /// once in the log.
    public static func keyring(_ keyring: Keyring = Keyring(), fallback: SessionStore, logger: Logger) -> SessionStore {
        let backend = SessionBackendChoice(keyring: keyring, logger: logger)
        return SessionStore(
            load: { server in
                guard await backend.usesKeyring() else { return await fallback.load(server) }
                do {
                    guard let json = try await keyring.lookup(account: server.absoluteString) else { return nil }
                    return try JSONDecoder().decode(StoredSession.self, from: Data(json.utf8))
                } catch {
                    logger.warning("Saved session unreadable in the keyring; signing in again will be needed")
                    return nil
                }
            },
            save: { session in
                guard await backend.usesKeyring() else { return try await fallback.save(session) }
                let json = String(decoding: try JSONEncoder().encode(session), as: UTF8.self)
                try await keyring.store(json, account: session.serverURL.absoluteString,
                                        label: "ListenUp session for \(session.serverURL.host ?? session.serverURL.absoluteString)")
            },
            delete: { server in
                guard await backend.usesKeyring() else { return await fallback.delete(server) }
                try? await keyring.clear(account: server.absoluteString)
                // A session saved by an earlier run without a keyring goes too.
                await fallback.delete(server)
            }
        )
    }
}

/// Decides once whether the Secret Service answers.
private actor SessionBackendChoice {
    private let keyring: Keyring
    private let logger: Logger
    private var decided: Bool?

    init(keyring: Keyring, logger: Logger) {
        self.keyring = keyring
        self.logger = logger
    }

    func usesKeyring() async -> Bool {
        if let decided { return decided }
        do {
            _ = try await keyring.lookup(account: "io.github.listenup.Desktop.probe")
            decided = true
            logger.debug("Sessions are kept in the Secret Service")
        } catch {
            decided = false
            logger.warning("No keyring reachable; keeping the session in a private file instead",
                           metadata: ["reason": "\(error)"])
        }
        return decided ?? false
    }
}
