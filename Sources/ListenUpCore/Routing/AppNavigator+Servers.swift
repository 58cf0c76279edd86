import Foundation
import Logging

/// Several saved (server, account) pairs: each keeps its session in the
/// secret store (one item per server URL) and its own library cache,
/// covers, downloads and listening store. One is active at a time.
extension AppNavigator {
    /// Switches to the saved pair `id`: the current session ends (the
    /// player's last span is queued and playback stops; the session stays
    /// saved), `id` becomes the active server in settings, and its session
    /// is restored as at launch: its library straight away (from the cache
    /// when offline), or its Sign in when none is saved.
    /// - Returns: false when no saved pair is `id`.
    @discardableResult
    public func switchServer(id: String) -> Bool {
        var settings = dependencies.settings.load()
        guard let server = settings.savedServer(id: id) else { return false }
        if id == activeServerID, authState.session != nil { return true }
        if overlayRoute != nil { closeOverlay() }
        settings.servers = settings.savedServers
        settings.makeActive(server)
        save(settings)
        dependencies.logger.info("Switching server", metadata: ["server": "\(id)"])
        send(.leavingServer)
        restore()
        return true
    }

    /// *Add Server…*: server setup, the current session left signed in
    /// (its secret store item stays; nothing is said to its server). A
    /// switch goes back to any saved pair.
    public func addServer() {
        if overlayRoute != nil { closeOverlay() }
        var settings = dependencies.settings.load()
        if settings.servers.isEmpty, !settings.savedServers.isEmpty {
            settings.servers = settings.savedServers
            save(settings)
        }
        send(.addingServer)
    }

    /// Removes the saved pair `id`: signs it out on its server (best
    /// effort, a few seconds at most), deletes its secret store item, its
    /// library cache, covers, downloads and listening store, and takes it
    /// off the list. Removing the active pair first ends its session, then
    /// switches to the next saved pair, or to server setup.
    /// - Returns: false when no saved pair is `id`.
    @discardableResult
    public func removeServer(id: String) async -> Bool {
        guard let server = dependencies.settings.load().savedServer(id: id) else { return false }
        let active = id == activeServerID
        let dependencies = dependencies
        dependencies.logger.info("Removing server", metadata: ["server": "\(id)", "active": "\(active)"])
        var connection: (any ServerConnection)?
        if active {
            let current = signedIn
            if overlayRoute != nil { closeOverlay() }
            send(.leavingServer)
            if let current {
                await current.end()
                connection = current.session.connection
            }
        }
        let stored = await dependencies.sessions.load(server.url)
        if connection == nil, let stored {
            connection = dependencies.connect(to: KnownServer(url: server.url, generation: server.generation), session: stored)
        }
        if let connection {
            await Self.bestEffort(within: .seconds(5)) { await connection.logout() }
        }
        await dependencies.sessions.delete(server.url)
        if let userID = server.userID ?? stored?.userID {
            await dependencies.forgetAccount(server.url, userID)
        }
        var settings = dependencies.settings.load()
        settings.servers = settings.savedServers
        settings.forgetServer(id: id)
        save(settings)
        if savedServers != settings.savedServers { savedServers = settings.savedServers }
        if active {
            restore()
        }
        return true
    }

    /// A session started (signed in, or restored): its pair is saved (or
    /// updated) and active.
    func rememberSignedIn(_ session: Session) {
        var settings = dependencies.settings.load()
        let before = settings
        settings.rememberServer(SavedServer(url: session.serverURL, generation: session.generation, userID: session.userID,
                                            userDisplayName: session.displayName))
        if settings != before { save(settings) }
        if savedServers != settings.savedServers { savedServers = settings.savedServers }
        if activeServerID != session.serverURL.absoluteString { activeServerID = session.serverURL.absoluteString }
    }

    /// After each auth state change: the list as settings have it (setup
    /// adds a server once verified), and the pair the state is about, if
    /// saved, as the active one (server setup and loading keep the last).
    func followSavedServers() {
        guard authState != .initializing else { return }
        let saved = dependencies.settings.load().savedServers
        if savedServers != saved { savedServers = saved }
        if let id = authState.serverURL?.absoluteString, id != activeServerID, saved.contains(where: { $0.id == id }) {
            activeServerID = id
        }
    }

    private func save(_ settings: AppSettings) {
        do {
            try dependencies.settings.save(settings)
        } catch {
            dependencies.logger.warning("Could not save the servers", metadata: ["reason": "\(error)"])
        }
    }

    /// Runs `work`, waiting for it at most `limit` (it goes on alone after that).
    static func bestEffort(within limit: Duration, _ work: @escaping @Sendable () async -> Void) async {
        let (done, finish) = AsyncStream<Void>.makeStream()
        Task { await work(); finish.finish() }
        let timer = Task { try? await Task.sleep(for: limit); finish.finish() }
        for await _ in done {}
        timer.cancel()
    }
}
