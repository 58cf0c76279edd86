import Logging
import Observation
import PairingProtocol

/// Follows the auth state and keeps the active screen: its route and model.
///
/// Two layers: the *base* screen follows the auth state; an *overlay* screen
/// (pairing) is opened by the user from anywhere with ``open(_:)`` and closed
/// with ``closeOverlay()``. While an overlay is open it is the active screen,
/// and the base keeps following the auth state underneath (its model lives on,
/// or is replaced if the auth state now needs another screen); closing the
/// overlay shows the base again.
///
/// Main actor only. It never asks the UI anything: presenters observe
/// ``activeRoute`` and ``activeModel`` and realise them (GTK pages, or JSON
/// lines in headless mode).
@MainActor @Observable
public final class AppNavigator {
    /// The current auth state.
    public private(set) var authState: AuthState = .initializing
    /// The route on screen.
    public private(set) var activeRoute: Route = .loading
    /// The model of the route on screen; nil only when no node serves the state.
    public private(set) var activeModel: (any ScreenModel)?
    /// The overlay on screen (e.g. ``Route/pairing``), if any.
    public private(set) var overlayRoute: Route?
    /// The signed-in session and its models: made when a session starts,
    /// ended when it ends (``SignedInSession``).
    public private(set) var signedIn: SignedInSession?
    /// The signed-in session's player (or a preview's). Every signed-in
    /// screen shows it (the now-playing bar); the desktop's media controls,
    /// the paired devices and the headless front drive it.
    public var player: PlayerModel? { previewPlayer ?? signedIn?.player }
    /// The signed-in session's downloads (or a preview's).
    public var downloads: DownloadsModel? { previewDownloads ?? signedIn?.downloads }
    /// The signed-in session's account preferences (or a preview player's).
    public var accountPreferences: AccountPreferencesSync? { player?.accountPreferences }
    /// What a preview shows instead of a session's models.
    private var previewPlayer: PlayerModel?
    private var previewDownloads: DownloadsModel?

    /// The screen that serves the auth state (under the overlay, if one is open).
    @ObservationIgnored private var baseRoute: Route = .loading
    @ObservationIgnored private var baseModel: (any ScreenModel)?
    @ObservationIgnored private var overlayModel: (any ScreenModel)?
    /// An invite link to open once signed out (``signOutAndOpen(invite:)``).
    @ObservationIgnored var inviteAfterSignOut: String?
    /// The saved (server, account) pairs (AppNavigator+Servers.swift).
    public internal(set) var savedServers: [SavedServer] = []
    /// The saved pair in use (signed in, or being restored or signed in to).
    public internal(set) var activeServerID: String?
    /// Counts restores, so that only the latest one is applied.
    @ObservationIgnored var restores = 0

    @ObservationIgnored private let registry: RouteRegistry
    @ObservationIgnored let dependencies: Dependencies

    public init(registry: RouteRegistry, dependencies: Dependencies) {
        self.registry = registry
        self.dependencies = dependencies
        resolve(reason: "init")
        dependencies.playerRemote.follow { [weak self] in self?.player }
    }

    /// The app's settings (the window's size, the appearance…).
    public var settings: SettingsClient { dependencies.settings }

    /// The pairing machinery (the preferences list the paired devices).
    var pairingClient: PairingClient { dependencies.pairing }

    /// Signs out of the library, from wherever the user asks (the primary
    /// menu, the preferences): only the library holds a signed-in session.
    public func signOut() {
        if overlayRoute != nil { closeOverlay() }
        activeModel(.library)?.send(.signOut)
    }

    /// Reads the saved server (settings) and its session (secret store),
    /// then moves to the state they imply: no server → server setup; a
    /// server and a session → the library straight away (the session is
    /// validated by its first call); a server alone → checked again, or,
    /// when a registration on it waits for approval (settings), its
    /// waiting page.
    /// - Parameter override: a server to use instead of the saved one
    ///   (`listenup --server URL`); it is checked like a saved one.
    ///
    /// The session and the library it leads to are read off the main actor,
    /// at once: at launch GTK holds the main thread while it builds the
    /// window, and the reads are usually done by the time it lets go.
    public func start(server override: ServerAddress? = nil) {
        resumePairing()
        restore(server: override)
    }

    /// Restores the saved server's session, as ``start(server:)`` does
    /// (also after a switch to another saved server, from `initializing`).
    /// Only the latest restore is applied.
    func restore(server override: ServerAddress? = nil) {
        restores += 1
        let token = restores
        let settings = dependencies.settings.load()
        if savedServers != settings.savedServers { savedServers = settings.savedServers }
        let active = override == nil ? settings.serverURL : override?.url.absoluteString
        if activeServerID != active { activeServerID = active }
        let saved = override?.url.absoluteString ?? settings.serverURL
        guard let saved, case .success(let server) = override.map({ .success($0) }) ?? ServerAddress.parse(saved) else {
            send(.restored(server: nil, session: nil))
            return
        }
        let dependencies = dependencies
        let sort = LibrarySort(savedIn: settings)
        // The protocol saved with the server (no probe at launch); another
        // address given on the command line is REST v1 unless it is that server.
        let generation = server.url.absoluteString == settings.serverURL ? settings.serverGeneration : .restV1
        let restoring = Task.detached(priority: .userInitiated) { () -> Session? in
            guard let stored = await dependencies.sessions.load(server.url) else { return nil }
            let session = dependencies.resume(stored, generation: generation)
            dependencies.libraryReadAhead.start(for: session, sort: sort, firstScreen: dependencies.libraryFirstScreen,
                                                logger: dependencies.logger, open: dependencies.openLibrary)
            return session
        }
        let pending = settings.pendingRegistration.flatMap { $0.serverURL == server.url ? $0 : nil }
        Task {
            let session = await restoring.value
            guard token == self.restores else { return }
            // A registration waiting for approval reopens its page.
            if session == nil, let pending {
                self.send(.restoredPendingRegistration(pending))
            } else {
                self.send(.restored(server: server, session: session))
            }
        }
    }

    /// Paired devices reach this desktop from launch: the discovery server
    /// starts once start-up is over, when devices are paired.
    private func resumePairing() {
        let pairing = dependencies.pairing
        Task.detached(priority: .utility) {
            try? await Task.sleep(for: .seconds(1))
            await pairing.resume()
        }
    }

    /// Moves to `state`. If a different screen serves it, the old model is
    /// deactivated and a new one made; if the same screen serves it, the model
    /// stays (it observes the auth state itself if it cares).
    public func update(_ state: AuthState) {
        authState = state
        followSession()
        followSavedServers()
        resolve(reason: "auth state changed")
        if let link = inviteAfterSignOut, state.session == nil {
            inviteAfterSignOut = nil
            send(.inviteOpened(link: link))
        }
    }

    /// Keeps ``signedIn`` in step with the auth state: a new session gets
    /// its models; leaving it ends the old one (the player's last span is
    /// queued first). A screen that showed the old session's models is
    /// made anew.
    private func followSession() {
        let session = authState.session
        if let signedIn, signedIn.session.connection !== session?.connection || session == nil {
            self.signedIn = nil
            if baseModel === signedIn.library {
                baseModel = nil
                baseRoute = .loading
            }
            signedIn.leave()
            Task { await signedIn.end() }
        }
        if signedIn == nil, let session {
            rememberSignedIn(session)
            signedIn = SignedInSession(session: session, dependencies: dependencies, send: { [weak self] event in
                self?.send(event)
            })
        }
    }

    /// Saves where the player is and sends what is queued (at quit),
    /// waiting at most `grace`.
    public func shutdown(grace: Duration = .seconds(2)) async {
        if let signedIn {
            await signedIn.end(grace: grace)
        } else {
            await previewDownloads?.shutdown()
            await previewPlayer?.shutdown(grace: grace)
        }
    }

    /// Applies `event` to the auth state (see ``AuthState/applying(_:)``).
    /// An event that makes no sense in the current state is logged and ignored.
    public func send(_ event: AuthEvent) {
        guard let next = authState.applying(event) else {
            dependencies.logger.warning("Auth event ignored", metadata: ["state": "\(authState.name)", "event": "\(event.name)"])
            return
        }
        update(next)
    }

    /// Shows `route` in a named preview state, regardless of auth state.
    /// - Returns: false if the route or the preview state is unknown.
    @discardableResult
    public func preview(_ route: Route, state: String?) -> Bool {
        guard let node = registry.node(for: route) else { return false }
        let preview = state.map { node.preview(named: $0) } ?? node.previews.first
        guard state == nil || preview != nil else { return false }
        if let downloadsState = preview?.downloads {
            previewDownloads = DownloadsModel.preview(downloadsState, dependencies: dependencies)
        }
        if let playerState = preview?.player {
            let previewPlayer = PlayerModel(dependencies: dependencies, session: nil, downloads: downloads)
            PlayerModel.previews.first { $0.name == playerState }?.apply(previewPlayer)
            // Previews show the account's preferences as today's server keeps them.
            previewPlayer.accountPreferences = AccountPreferencesSync(dependencies: dependencies, session: nil, player: previewPlayer,
                                                                      keptOnServer: true)
            self.previewPlayer = previewPlayer
        }
        activate(node)
        if let preview, let activeModel { preview.apply(activeModel) }
        return true
    }

    /// Opens `route` as an overlay over whatever the auth state shows (the
    /// user's "Pair a Device…"). Opening the overlay already open does nothing.
    /// - Returns: false if no node is registered for `route`.
    @discardableResult
    public func open(_ route: Route) -> Bool {
        guard let node = registry.node(for: route) else { return false }
        if overlayRoute == route, overlayModel != nil { return true }
        overlayModel?.deactivate()
        overlayModel = node.makeModel(context())
        overlayRoute = route
        publish()
        dependencies.logger.debug("Route", metadata: ["route": "\(route.rawValue)", "reason": "overlay opened"])
        return true
    }

    /// Closes the overlay, if any, and shows the screen of the current auth state.
    public func closeOverlay() {
        guard overlayRoute != nil else { return }
        overlayModel?.deactivate()
        overlayModel = nil
        overlayRoute = nil
        resolve(reason: "overlay closed")
        publish()
    }

    /// The route that serves `state` in this registry, if any.
    public func route(for state: AuthState) -> Route? {
        registry.node(serving: state)?.route
    }

    private func resolve(reason: String) {
        guard let node = registry.node(serving: authState) else {
            dependencies.logger.error("No screen serves auth state", metadata: ["state": "\(authState.name)"])
            if baseRoute != .loading || baseModel != nil {
                baseModel?.deactivate()
                baseModel = nil
                baseRoute = .loading
                publish()
            }
            return
        }
        if node.route == baseRoute, baseModel != nil { return }
        activate(node)
        dependencies.logger.debug("Route", metadata: ["route": "\(node.route.rawValue)", "reason": "\(reason)"])
    }

    private func activate(_ node: RouteNode) {
        baseModel?.deactivate()
        baseModel = node.makeModel(context())
        baseRoute = node.route
        publish()
    }

    private func context() -> RouteContext {
        var context = RouteContext(dependencies: dependencies, authState: authState, send: { [weak self] event in
            self?.send(event)
        }, dismiss: { [weak self] in
            self?.closeOverlay()
        }, signedIn: signedIn, player: previewPlayer, downloads: previewDownloads)
        if authState == .needsServer, let id = activeServerID, savedServers.contains(where: { $0.id == id }) {
            context.returnToSavedServer = { [weak self] in self?.switchServer(id: id) }
        }
        return context
    }

    /// Sets the observed active route and model from the two layers (only
    /// when they change, so observers are not woken for nothing).
    private func publish() {
        let route = overlayRoute ?? baseRoute
        let model = overlayRoute != nil ? overlayModel : baseModel
        if activeRoute != route { activeRoute = route }
        if activeModel.map(ObjectIdentifier.init) != model.map(ObjectIdentifier.init) { activeModel = model }
        dependencies.pairingStatus.value = DesktopStatus(
            activeRoute: route.rawValue, serverURL: authState.serverURL?.absoluteString,
            userDisplayName: authState.session?.displayName)
    }
}
