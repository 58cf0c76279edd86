import Foundation
import ListenUpCore
import Keyring
import Logging

extension SessionStore {
    /// Sessions in the Secret Service (one item per server, the session as
    /// JSON), falling back to `fallback` when no keyring answers, or when
    /// one answers but refuses to store (a session bus with no Secret
    /// Service behind it, a keyring that cannot be unlocked). The choice is
    /// made at the first call, and changed once if a store fails; the
    /// fallback is announced once in the log.
    ///
    /// Loading asks the keyring first, then the fallback: a session saved
    /// to the file because the keyring refused is found at the next launch.
    public static func keyring(_ keyring: Keyring = Keyring(), fallback: SessionStore, logger: Logger) -> SessionStore {
        let backend = SessionBackendChoice(keyring: keyring, logger: logger)
        return SessionStore(
            load: { server in
                guard await backend.usesKeyring() else { return await fallback.load(server) }
                do {
                    if let json = try await keyring.lookup(account: server.absoluteString) {
                        return try JSONDecoder().decode(StoredSession.self, from: Data(json.utf8))
                    }
                } catch {
                    logger.warning("Saved session unreadable in the keyring; signing in again will be needed")
                    return nil
                }
                return await fallback.load(server)
            },
            save: { session in
                if await backend.usesKeyring() {
                    do {
                        let json = String(decoding: try JSONEncoder().encode(session), as: UTF8.self)
                        try await keyring.store(json, account: session.serverURL.absoluteString,
                                                label: "ListenUp session for \(session.serverURL.host ?? session.serverURL.absoluteString)")
                        return
                    } catch {
                        await backend.fallBack(reason: "\(error)")
                    }
                }
                try await fallback.save(session)
            },
            delete: { server in
                if await backend.usesKeyring() { try? await keyring.clear(account: server.absoluteString) }
                // A session saved without a keyring (this run or an earlier one) goes too.
                await fallback.delete(server)
            }
        )
    }
}

/// Decides whether the Secret Service is used: once at the first call, and
/// once more if it then refuses to store.
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

    /// The keyring refused to store: use the file from now on.
    func fallBack(reason: String) {
        guard decided != false else { return }
        decided = false
        logger.warning("The keyring refused to store the session; keeping it in a private file instead",
                       metadata: ["reason": "\(reason)"])
    }
}
