import CAdwaita
import ListenUpCore

/// A GTK page realising one route node's model.
@MainActor
public protocol RoutePage: AnyObject {
    /// The page's root widget, placed in the window's content area.
    var widget: UnsafeMutablePointer<GtkWidget> { get }
    /// Called when the page leaves the window: stop observing, drop handlers.
    func teardown()
    /// Puts keyboard focus where the user starts on this page.
    func focusDefault()
    /// Whether the page shows its real content yet (the library: its cached
    /// books). Start-up measurements wait for it.
    var isContentReady: Bool { get }
}

extension RoutePage {
    public func focusDefault() {}
    public var isContentReady: Bool { true }
}

/// Makes pages for models: the GTK half of the route registry.
public struct PageRegistry: Sendable {
    /// Makes a page if the model is the one the factory knows.
    public typealias Factory = @MainActor @Sendable (any ScreenModel) -> (any RoutePage)?

    private var factories: [Route: Factory] = [:]

    public init(_ entries: [(Route, Factory)]) {
        for (route, factory) in entries { factories[route] = factory }
    }

    /// The page for `route`'s `model`, or nil if no page is registered for it.
    @MainActor
    public func page(for route: Route, model: any ScreenModel) -> (any RoutePage)? {
        factories[route]?(model)
    }

    /// Whether a page is registered for `route`.
    public func hasPage(for route: Route) -> Bool { factories[route] != nil }

    /// The app's pages. Adding a screen adds one line here.
    public static let standard = PageRegistry([
        (.loading, { ($0 as? LoadingModel).map(LoadingPage.init) }),
        (.serverSetup, { ($0 as? ServerSetupModel).map { ServerSetupPage(model: $0) } }),
        (.adminSetup, { ($0 as? AdminSetupModel).map(AdminSetupPage.init) }),
        (.login, { ($0 as? LoginModel).map(LoginPage.init) }),
        (.library, { ($0 as? LibraryModel).map(LibraryPage.init) }),
        (.pairing, { ($0 as? PairingModel).map(PairingPage.init) }),
    ])
}
