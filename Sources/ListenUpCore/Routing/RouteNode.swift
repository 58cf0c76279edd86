/// What a route node gets to build its model.
@MainActor
public struct RouteContext {
    /// The services.
    public let dependencies: Dependencies
    /// The auth state that made this route active.
    public let authState: AuthState
    /// Reports what happened (a verified server, a sign-in, …); the
    /// navigator moves the auth state accordingly.
    public let send: @MainActor @Sendable (AuthEvent) -> Void
    /// Closes this screen if it is an overlay (``AppNavigator/closeOverlay()``).
    public let dismiss: @MainActor @Sendable () -> Void
    /// The signed-in session and its models (nil when signed out and in previews).
    public let signedIn: SignedInSession?
    /// The session's player, or a preview's (nil when signed out).
    public let player: PlayerModel?
    /// The signed-in session's downloads (nil when signed out; previews
    /// that name downloads get a preview model).
    public let downloads: DownloadsModel?
    /// Server setup reached with *Add Server…*: goes back to the saved pair
    /// that was active (nil when there is none to go back to).
    public var returnToSavedServer: (@MainActor @Sendable () -> Void)?

    public init(dependencies: Dependencies, authState: AuthState, send: @escaping @MainActor @Sendable (AuthEvent) -> Void,
                dismiss: @escaping @MainActor @Sendable () -> Void = {}, signedIn: SignedInSession? = nil,
                player: PlayerModel? = nil, downloads: DownloadsModel? = nil) {
        self.dependencies = dependencies
        self.authState = authState
        self.send = send
        self.dismiss = dismiss
        self.signedIn = signedIn
        self.player = player ?? signedIn?.player
        self.downloads = downloads ?? signedIn?.downloads
    }
}

/// One screen, as a plugin: its route, the auth states it serves, how to make
/// its model, and its named preview states.
///
/// Nodes are registered in a ``RouteRegistry``; nothing else lists screens.
public struct RouteNode: Sendable {
    /// A named state of the screen for `--preview ROUTE:STATE`.
    public struct Preview: Sendable {
        public let name: String
        /// The player's preview state shown beside it (the now-playing bar,
        /// Continue listening), if any.
        public let player: String?
        /// The downloads' preview state shown with it, if any.
        public let downloads: String?
        let apply: @MainActor @Sendable (any ScreenModel) -> Void
    }

    /// The screen's route.
    public let route: Route
    /// Whether this screen is the one to show for an auth state.
    public let serves: @Sendable (AuthState) -> Bool
    /// Builds the model. Called each time the route becomes active.
    public let makeModel: @MainActor @Sendable (RouteContext) -> any ScreenModel
    /// The preview states, the first being the default. Made when asked for
    /// (`--preview`, `--list-previews`), not at every launch: making them
    /// instantiates each screen's preview types, a conformance look-up of
    /// the whole binary each (docs/performance.md).
    public var previews: [Preview] { makePreviews() }
    private let makePreviews: @Sendable () -> [Preview]

    /// Declares the node of `screen`: its route, and a model of its type.
    /// - Parameters:
    ///   - screen: the screen's typed key.
    ///   - serves: the auth states it is shown for.
    ///   - model: builds the model from a context.
    ///   - previews: named states; each puts a fresh model in that state.
    public init<Model: ScreenModel>(
        _ screen: ScreenKey<Model>,
        serves: @escaping @Sendable (AuthState) -> Bool,
        model: @escaping @MainActor @Sendable (RouteContext) -> Model,
        previews: @autoclosure @escaping @Sendable () -> [PreviewState<Model>]
    ) where Model: SendableMetatype {
        route = screen.route
        self.serves = serves
        self.makeModel = { model($0) }
        makePreviews = { Self.previews(previews(), of: screen) }
    }

    /// `states` as the node's previews, each applied to a model of `screen`.
    private static func previews<Model: ScreenModel>(_ states: [PreviewState<Model>], of screen: ScreenKey<Model>) -> [Preview] {
        states.map { preview in
            Preview(name: preview.name, player: preview.player, downloads: preview.downloads, apply: { made in
                if let typed = screen.model(made, on: screen.route) { preview.apply(typed) }
            })
        }
    }

    /// The preview called `name`, or nil.
    public func preview(named name: String) -> Preview? {
        previews.first { $0.name == name }
    }
}

/// A named state of a screen whose model is `Model`, for `--preview`.
public struct PreviewState<Model: ScreenModel>: Sendable {
    public let name: String
    /// The ``PlayerModel`` preview state the screen is shown with (a
    /// signed-in screen with a book playing), or nil for no player.
    public let player: String?
    /// The ``DownloadsModel`` preview state shown with it
    /// (``DownloadsModel/previewDownloads(_:)``), or nil for none.
    public let downloads: String?
    public let apply: @MainActor @Sendable (Model) -> Void

    /// - Parameters:
    ///   - name: the `STATE` part of `--preview ROUTE:STATE`.
    ///   - player: the player's preview state to show beside it, if any.
    ///   - downloads: the downloads' preview state to show with it, if any.
    ///   - apply: puts a fresh model into that state.
    public init(_ name: String, player: String? = nil, downloads: String? = nil, _ apply: @escaping @MainActor @Sendable (Model) -> Void) {
        self.name = name
        self.player = player
        self.downloads = downloads
        self.apply = apply
    }
}
