import CAdwaita
import GtkBridge
import ListenUpCore
import Logging

/// The app with its window closed while a book plays
/// (``BackgroundPolicy``): the application decides at each close whether
/// to hide the window instead of destroying it, and this keeps the time
/// while it is hidden. Nothing playing for the idle grace quits the app;
/// playing again (the media keys, a paired phone) stops the count. While
/// hidden, the Background portal is asked to let the app run and told the
/// book and chapter.
@MainActor
final class BackgroundPlayback {
    private let navigator: AppNavigator
    private let grace: Duration
    private let portal: BackgroundPortal?
    private let logger: Logger
    private let quit: @MainActor () -> Void
    private var observation: StateObservation?
    private var idleQuit: MainLoopSource?
    /// The window is hidden and the app runs for the player.
    private(set) var isActive = false

    /// - Parameters:
    ///   - grace: how long nothing may play with no window before `quit`.
    ///   - portal: the Background portal, nil where there is no session bus.
    ///   - quit: ends the app (the player saves and sends on the way out).
    init(navigator: AppNavigator, grace: Duration, portal: BackgroundPortal?, logger: Logger, quit: @escaping @MainActor () -> Void) {
        self.navigator = navigator
        self.grace = grace
        self.portal = portal
        self.logger = logger
        self.quit = quit
    }

    /// Whether closing the window now should leave the app running.
    var keepsRunningOnClose: Bool {
        BackgroundPolicy.keepsRunningWhenClosed(setting: navigator.settings.load().keepsPlayingWhenClosed, player: navigator.player)
    }

    /// The window was hidden: follow the player until it comes back.
    func begin() {
        guard !isActive else { return }
        isActive = true
        logger.info("Window closed while playing: playing on in the background")
        portal?.requestBackground(reason: tr("Keeps playing your audiobook with the window closed"))
        observation = StateObservation { [weak self] in self?.follow() }
    }

    /// The window is back.
    func end() {
        guard isActive else { return }
        isActive = false
        observation?.cancel()
        observation = nil
        idleQuit?.cancel()
        idleQuit = nil
    }

    /// Whether the idle count runs (tests).
    var isCountingDown: Bool { idleQuit?.isActive == true }

    private func follow() {
        let player = navigator.player
        guard player?.isPlayingOrStarting == true, let player, let book = player.nowPlaying else {
            startCountdown()
            return
        }
        idleQuit?.cancel()
        idleQuit = nil
        portal?.setStatus(BackgroundPolicy.statusLine(title: book.title, chapter: player.chapter?.title))
    }

    private func startCountdown() {
        guard idleQuit == nil else { return }
        idleQuit = MainContext.timeout(after: grace) { [weak self] in
            guard let self, self.isActive else { return }
            self.logger.info("Nothing played with the window closed: quitting")
            self.quit()
        }
    }
}
