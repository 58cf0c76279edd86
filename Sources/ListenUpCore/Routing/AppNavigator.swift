import Logging
import Observation

/// Follows the auth state and keeps the active screen: its route and model.
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

    @ObservationIgnored private let registry: RouteRegistry
    @ObservationIgnored private let dependencies: Dependencies

    public init(registry: RouteRegistry, dependencies: Dependencies) {
        self.registry = registry
        self.dependencies = dependencies
        resolve(reason: "init")
    }

    /// Reads the saved server (settings) and its session (secret store),
    /// then moves to the state they imply: no server → server setup; a
    /// server and a session → the library straight away (the session is
    /// validated by its first call); a server alone → checked again.
    /// - Parameter override: a server to use instead of the saved one
    ///   (`listenup --server URL`); it is checked like a saved one.
    public func start(server override: ServerAddress? = nil) {
        let saved = override?.url.absoluteString ?? dependencies.settings.load().serverURL
        guard let saved, case .success(let server) = override.map({ .success($0) }) ?? ServerAddress.parse(saved) else {
            send(.restored(server: nil, session: nil))
            return
        }
        let sessions = dependencies.sessions
        Task {
            let stored = await sessions.load(server.url)
            self.send(.restored(server: server, session: stored?.session))
        }
    }

    /// Moves to `state`. If a different screen serves it, the old model is
    /// deactivated and a new one made; if the same screen serves it, the model
    /// stays (it observes the auth state itself if it cares).
    public func update(_ state: AuthState) {
        authState = state
        resolve(reason: "auth state changed")
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
        activate(node)
        if let preview, let activeModel { preview.apply(activeModel) }
        return true
    }

    /// The route that serves `state` in this registry, if any.
    public func route(for state: AuthState) -> Route? {
        registry.node(serving: state)?.route
    }

    private func resolve(reason: String) {
        guard let node = registry.node(serving: authState) else {
            dependencies.logger.error("No screen serves auth state", metadata: ["state": "\(authState.name)"])
            if activeRoute != .loading || activeModel != nil {
                activeModel?.deactivate()
                activeModel = nil
                activeRoute = .loading
            }
            return
        }
        if node.route == activeRoute, activeModel != nil { return }
        activate(node)
        dependencies.logger.debug("Route", metadata: ["route": "\(node.route.rawValue)", "reason": "\(reason)"])
    }

    private func activate(_ node: RouteNode) {
        activeModel?.deactivate()
        let context = RouteContext(dependencies: dependencies, authState: authState) { [weak self] event in
            self?.send(event)
        }
        activeModel = node.makeModel(context)
        activeRoute = node.route
    }
}

extension AuthState {
    /// The state's name, for logs (never carries secrets).
    public var name: String {
        switch self {
        case .initializing: "initializing"
        case .needsServer: "needsServer"
        case .checkingServer: "checkingServer"
        case .needsAdminSetup: "needsAdminSetup"
        case .needsLogin: "needsLogin"
        case .authenticated: "authenticated"
        case .sessionLapsed: "sessionLapsed"
        }
    }
}
