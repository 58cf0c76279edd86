import JSONToolkit
import ListenUpCore

/// A screen as the headless front shows it: its state as one JSON object
/// (the `state` lines) and the commands it takes (the `action`s).
@MainActor
protocol HeadlessScreen: ScreenModel {
    /// The screen's state. Reading it from inside `withObservationTracking`
    /// tracks every property it depends on. Never holds a password or a token.
    var snapshot: JSONValue { get }

    /// Carries out a command addressed to this screen (its arguments are
    /// checked already: ``HeadlessCommand``).
    /// - Returns: whether the screen takes the command now.
    func handle(_ command: HeadlessCommand) -> Bool
}

extension HeadlessScreen {
    func handle(_ command: HeadlessCommand) -> Bool { false }
}

extension [String: JSONValue] {
    /// Marks a snapshot failed: `status` `failed`, with the failure's
    /// machine-readable `code` and its `message` for people.
    mutating func recordFailure(code: String, message: String) {
        self["status"] = "failed"
        self["code"] = .string(code)
        self["message"] = .string(message)
    }
}

/// The headless half of the route registry: how each screen's model is
/// printed and commanded, reached through its ``ScreenKey`` (no casts).
/// Adding a screen adds one line here.
struct HeadlessScreens {
    struct Entry {
        let route: Route
        let snapshot: @MainActor (any ScreenModel) -> JSONValue?
        let handle: @MainActor (any ScreenModel, HeadlessCommand) -> Bool

        static func screen<Model: HeadlessScreen>(_ screen: ScreenKey<Model>) -> Entry {
            Entry(route: screen.route,
                  snapshot: { screen.model($0, on: screen.route)?.snapshot },
                  handle: { model, command in screen.model(model, on: screen.route)?.handle(command) ?? false })
        }
    }

    private var entries: [Route: Entry] = [:]

    init(_ list: [Entry]) {
        for entry in list { entries[entry.route] = entry }
    }

    /// The state of `route`'s `model` (nil for a screen with no headless form).
    @MainActor
    func snapshot(of model: any ScreenModel, on route: Route) -> JSONValue? {
        entries[route]?.snapshot(model)
    }

    /// Hands `command` to `route`'s `model`; false when it does not know it.
    @MainActor
    func handle(_ command: HeadlessCommand, by model: any ScreenModel, on route: Route) -> Bool {
        entries[route]?.handle(model, command) ?? false
    }

    static let standard = HeadlessScreens([
        .screen(.loading),
        .screen(.serverSetup),
        .screen(.adminSetup),
        .screen(.login),
        .screen(.invite),
        .screen(.createAccount),
        .screen(.awaitingApproval),
        .screen(.registrationDeclined),
        .screen(.resetPassword),
        .screen(.library),
        .screen(.pairing),
        .screen(.player),
    ])
}
