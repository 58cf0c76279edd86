/// The model behind one screen. Lives on the main actor, is `@Observable`,
/// and is owned by the ``AppNavigator`` while its route is active.
///
/// Fronts observe its properties and send it intents; what the headless
/// front prints of it and the commands it takes live in `ListenUpHeadless`.
@MainActor
public protocol ScreenModel: AnyObject {
    /// Called when the screen goes away: cancel work, drop observers.
    func deactivate()
}

extension ScreenModel {
    public func deactivate() {}
}
