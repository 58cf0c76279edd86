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
    /// A dialog the page shows as a window of its own (the pairing
    /// confirmation), if one is up: `--screenshot` saves it beside the window.
    var dialog: UnsafeMutablePointer<GtkWidget>? { get }
}

extension RoutePage {
    public func focusDefault() {}
    public var isContentReady: Bool { true }
    public var dialog: UnsafeMutablePointer<GtkWidget>? { nil }
}

/// Makes pages for models: the GTK half of the route registry.
public struct PageRegistry: Sendable {
    /// Makes the page of one screen from its model.
    public struct Entry: Sendable {
        let route: Route
        let make: @MainActor @Sendable (any ScreenModel) -> (any RoutePage)?

        /// The page of `screen`, made from its model.
        public static func page<Model>(_ screen: ScreenKey<Model>,
                                       _ make: @escaping @MainActor @Sendable (Model) -> any RoutePage) -> Entry {
            Entry(route: screen.route) { model in screen.model(model, on: screen.route).map(make) }
        }
    }

    private var factories: [Route: Entry] = [:]

    public init(_ entries: [Entry]) {
        for entry in entries { factories[entry.route] = entry }
    }

    /// The page for `route`'s `model`, or nil if no page is registered for it.
    @MainActor
    public func page(for route: Route, model: any ScreenModel) -> (any RoutePage)? {
        factories[route]?.make(model)
    }

    /// Whether a page is registered for `route`.
    public func hasPage(for route: Route) -> Bool { factories[route] != nil }

    /// The app's pages. Adding a screen adds one line here.
    public static let standard = PageRegistry([
        .page(.loading) { LoadingPage(model: $0) },
        .page(.serverSetup) { ServerSetupPage(model: $0) },
        .page(.adminSetup) { AdminSetupPage(model: $0) },
        .page(.login) { LoginPage(model: $0) },
        .page(.invite) { InvitePage(model: $0) },
        .page(.createAccount) { CreateAccountPage(model: $0) },
        .page(.resetPassword) { ResetPasswordPage(model: $0) },
        .page(.awaitingApproval) { AwaitingApprovalPage(model: $0) },
        .page(.registrationDeclined) { RegistrationDeclinedPage(model: $0) },
        .page(.library) { LibraryPage(model: $0) },
        .page(.pairing) { PairingPage(model: $0) },
        .page(.player) { PlayerPage(model: $0) },
    ])
}
