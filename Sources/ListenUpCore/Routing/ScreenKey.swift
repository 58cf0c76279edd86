/// A screen's route together with its model's type: the typed handle a
/// route node is declared with, and the one fronts reach a screen's model
/// through (a page for it, a toast when the library goes offline, pairing
/// lines in headless mode), so that no front casts a model itself.
///
/// Each screen declares its key once, beside its model
/// (`ScreenKey<LibraryModel>.library`); its ``RouteNode`` is built from the
/// key, so a route's model always has the key's type.
public struct ScreenKey<Model: ScreenModel>: Sendable, Hashable {
    /// The screen's route.
    public let route: Route

    /// - Parameter route: the route the screen is shown for.
    public init(_ route: Route) {
        self.route = route
    }

    /// `model` as this screen's model, when `route` is this screen's route
    /// (nil for another screen, or none).
    /// - Parameters:
    ///   - model: the navigator's active model (``AppNavigator/activeModel``).
    ///   - route: the route it was made for (``AppNavigator/activeRoute``).
    @MainActor
    public func model(_ model: (any ScreenModel)?, on route: Route) -> Model? {
        guard route == self.route else { return nil }
        return model as? Model
    }
}

extension AppNavigator {
    /// The active screen's model, if the active screen is `screen`.
    public func activeModel<Model>(_ screen: ScreenKey<Model>) -> Model? {
        screen.model(activeModel, on: activeRoute)
    }
}
