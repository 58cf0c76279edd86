import Foundation
import ListenUpCore
import Logging

/// Keeps the media controls on the session's player: made when a session
/// starts (the navigator's player appears), left when it ends.
@MainActor
public final class MediaControlsHost {
    private let navigator: AppNavigator
    private let raise: (@MainActor () -> Void)?
    private let quit: @MainActor () -> Void
    private let logger: Logger
    private var controls: MediaControls?
    private var shown: ObjectIdentifier?
    private var observation: StateObservation?

    public init(navigator: AppNavigator, raise: (@MainActor () -> Void)?, quit: @escaping @MainActor () -> Void, logger: Logger) {
        self.navigator = navigator
        self.raise = raise
        self.quit = quit
        self.logger = logger
        observation = StateObservation { [weak self] in self?.follow() }
    }

    private func follow() {
        let player = navigator.player
        let identity = player.map(ObjectIdentifier.init)
        guard identity != shown else { return }
        shown = identity
        controls?.stop()
        controls = player.map { MediaControls(player: $0, raise: raise, quit: quit, logger: logger) }
    }

    /// Leaves the bus.
    public func stop() {
        observation?.cancel()
        controls?.stop()
        controls = nil
    }
}
