import CAdwaita
import Foundation
import GtkBridge
import ListenUpCore

/// The bar at the bottom of the window on every signed-in screen: cover,
/// title and chapter (a button that opens the player), skip and play/pause
/// buttons, and a thin line of the book's progress, whose tooltip and
/// accessible description say the time left at the current speed ("3 h
/// 12 min left at 1.5×"). Hidden while nothing is loaded and while the
/// player itself is on screen.
@MainActor
final class NowPlayingBar {
    var widget: UnsafeMutablePointer<GtkWidget> { revealer.pointer }
    private let revealer: Revealer
    private let ref: GObjectRef<UnsafeMutablePointer<GtkWidget>>
    private let progress: ProgressBar
    private let cover = CoverView(size: 44)
    private let title: Label, chapter: Label
    let openButton: Button, playButton: Button, backButton: Button, forwardButton: Button
    private var player: PlayerModel?
    private var shownBook: String?
    private var coverTask: Task<Void, Never>?
    private var observation: StateObservation?
    private var connections: [SignalConnection] = []
    private var hiddenByRoute = false
    private var shownTexts: Texts?
    /// The progress line's tooltip as last set.
    private var shownTimeLeft: String?

    /// The tree is `data/ui/now-playing-bar.ui`.
    init(open: @escaping @MainActor () -> Void) {
        let ui = PageTemplates.load("now-playing-bar")
        (revealer, ref) = ui.root("root")
        (progress, title, chapter) = (ui.child("progress"), ui.child("title"), ui.child("chapter"))
        (openButton, playButton, backButton, forwardButton) = (ui.child("open"), ui.child("play"), ui.child("back"), ui.child("forward"))
        gtk_box_prepend(ui.child("info", as: Box.self).pointer.cast(to: GtkBox.self), cover.widget)
        connections.append(openButton.connect(.clicked, open))
        connections.append(playButton.connect(.clicked) { [weak self] in self?.player?.send(.togglePlayPause) })
        connections.append(backButton.connect(.clicked) { [weak self] in self?.player?.send(.skipBack) })
        connections.append(forwardButton.connect(.clicked) { [weak self] in self?.player?.send(.skipForward) })
    }

    /// Follows `player` (nil: signed out).
    func show(_ player: PlayerModel?) {
        guard player !== self.player else { return }
        self.player = player
        observation?.cancel()
        shownBook = nil
        shownTexts = nil
        observation = StateObservation { [weak self] in self?.render() }
    }

    /// The player page is on screen: the bar steps aside.
    func setHiddenByRoute(_ hidden: Bool) {
        hiddenByRoute = hidden
        render()
    }

    /// Whether the bar is shown (tests).
    var isShown: Bool { revealer.revealChild }

    private func render() {
        guard let player, let book = player.nowPlaying, player.status != .idle, player.status != .stopped else {
            revealer.revealChild = false
            return
        }
        revealer.revealChild = !hiddenByRoute
        if book.bookID != shownBook {
            shownBook = book.bookID
            coverTask?.cancel()
            coverTask = PlayerControls.loadCover(of: player, into: cover)
        }
        progress.fraction = player.bookProgress
        renderTimeLeft(player)
        let status: String = switch player.status {
        case .loading, .buffering: tr("Loading…")
        case .error: player.failure?.message ?? ""
        default: player.chapter?.title ?? book.authors
        }
        let (icon, name) = PlayerControls.playPause(player.status)
        let texts = Texts(title: book.title, status: status, icon: icon, playName: name,
                          back: PlayerControls.skipName(back: true, seconds: player.skipBackSeconds),
                          forward: PlayerControls.skipName(back: false, seconds: player.skipForwardSeconds))
        // Most renders are the position moving: the rest is set only when
        // it changes (each set notifies, and tooltips and names reach the
        // accessibility tree).
        guard texts != shownTexts else { return }
        shownTexts = texts
        title.text = texts.title
        chapter.text = texts.status
        playButton.setIcon(texts.icon)
        playButton.setName(texts.playName)
        backButton.setName(texts.back)
        forwardButton.setName(texts.forward)
    }

    /// The time left at the current speed, in minutes: set when it changes
    /// (about once a minute of listening, or with the speed), not on every
    /// position report.
    private func renderTimeLeft(_ player: PlayerModel) {
        let left = player.timeLeftAtRate
        // TRANSLATORS: the now-playing bar's progress line; the time left of the book (“3 h 12 min”) at the speed (“1.5×”).
        let text = left > 0 ? tr("%@ left at %@", BookCell.duration(left), PlayerControls.rate(player.rate)) : tr("Finished")
        guard text != shownTimeLeft else { return }
        shownTimeLeft = text
        progress.tooltip = text
        progress.setAccessibleDescription(text)
    }

    /// What the bar says besides the progress.
    private struct Texts: Equatable {
        var title, status, icon, playName, back, forward: String
    }

    /// The progress line's tooltip and how full it is (tests).
    var timeLeftText: String? { progress.tooltip }
    var progressFraction: Double { progress.fraction }

    func teardown() {
        observation?.cancel()
        coverTask?.cancel()
        connections.removeAll()
    }
}
