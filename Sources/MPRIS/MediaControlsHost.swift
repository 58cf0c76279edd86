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
    private var follower: ModelFollower<PlayerModel>?

    public init(navigator: AppNavigator, raise: (@MainActor () -> Void)?, quit: @escaping @MainActor () -> Void, logger: Logger) {
        self.navigator = navigator
        self.raise = raise
        self.quit = quit
        self.logger = logger
        let follower = ModelFollower({ [weak navigator] in navigator?.player }, replaced: { [weak self] player in
            self?.show(player)
        })
        self.follower = follower
        follower.start()
    }

    private func show(_ player: PlayerModel?) {
        controls?.stop()
        controls = player.map { MediaControls(player: $0, raise: raise, quit: quit, logger: logger) }
    }

    /// Leaves the bus.
    public func stop() {
        follower?.cancel()
        controls?.stop()
        controls = nil
    }
}
