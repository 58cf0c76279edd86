/// The model behind one screen. Lives on the main actor, is `@Observable`,
/// and is owned by the ``AppNavigator`` while its route is active.
@MainActor
public protocol ScreenModel: AnyObject {
    /// The screen's state as JSON, for the headless protocol and tests.
    /// Reading it from inside `withObservationTracking` tracks every property
    /// it depends on.
    var snapshot: JSONValue { get }

    /// Carries out a command addressed to this screen (headless `action`s).
    /// - Returns: whether the screen knows the command.
    func handle(_ command: ScreenCommand) -> Bool

    /// Called when the screen goes away: cancel work, drop observers.
    func deactivate()
}

extension ScreenModel {
    public func handle(_ command: ScreenCommand) -> Bool { false }
    public func deactivate() {}
}

/// A command for the active screen: an action name and its JSON arguments.
public struct ScreenCommand: Equatable, Sendable {
    public var action: String
    public var arguments: [String: JSONValue]

    public init(action: String, arguments: [String: JSONValue] = [:]) {
        self.action = action
        self.arguments = arguments
    }
}
