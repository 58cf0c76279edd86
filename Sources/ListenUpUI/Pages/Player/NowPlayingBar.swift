import CAdwaita
import Foundation
import GtkBridge
import ListenUpCore

/// The bar at the bottom of the window on every signed-in screen: cover,
/// title and chapter (a button that opens the player), skip and play/pause
/// buttons, and a thin line of the chapter's progress. Hidden while
/// nothing is loaded and while the player itself is on screen.
@MainActor
final class NowPlayingBar {
    let widget: UnsafeMutablePointer<GtkWidget>
    private let revealer: UnsafeMutablePointer<GtkWidget>
    private let progress: OpaquePointer
    private let cover = CoverView(size: 44)
    private let title: OpaquePointer
    private let chapter: OpaquePointer
    let openButton: UnsafeMutablePointer<GtkWidget>
    let playButton: UnsafeMutablePointer<GtkWidget>
    let backButton: UnsafeMutablePointer<GtkWidget>
    let forwardButton: UnsafeMutablePointer<GtkWidget>
    private var player: PlayerModel?
    private var shownBook: String?
    private var coverTask: Task<Void, Never>?
    private var observation: StateObservation?
    private var connections: [SignalConnection] = []
    private var hiddenByRoute = false
    private var shownTexts: Texts?

    init(open: @escaping @MainActor () -> Void) {
        revealer = newObject(gtk_revealer_new())
        gtk_revealer_set_transition_type(revealer.opaque, GTK_REVEALER_TRANSITION_TYPE_SLIDE_UP)
        widget = revealer
        let bar = newObject(gtk_box_new(GTK_ORIENTATION_VERTICAL, 0))
        bar.addClasses(StyleClass("now-playing"), .glass, .glassRegular)
        progress = OpaquePointer(newObject(gtk_progress_bar_new()))
        progress.addClasses(StyleClass("osd"), StyleClass("now-playing-progress"))
        progress.widget.setAccessibleLabel(tr("Chapter Progress"))

        let row = newObject(gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 10))
        gtk_widget_set_margin_start(row, 10)
        gtk_widget_set_margin_end(row, 10)
        gtk_widget_set_margin_top(row, 6)
        gtk_widget_set_margin_bottom(row, 6)
        openButton = newObject(gtk_button_new())
        openButton.addClasses(.flat, StyleClass("now-playing-open"))
        gtk_widget_set_hexpand(openButton, 1)
        openButton.setAccessibleLabel(tr("Open Player"))
        gtk_widget_set_tooltip_text(openButton, tr("Open Player"))
        let info = newObject(gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 10))
        let texts = newObject(gtk_box_new(GTK_ORIENTATION_VERTICAL, 0))
        gtk_widget_set_valign(texts, GTK_ALIGN_CENTER)
        title = OpaquePointer(newObject(gtk_label_new(nil)))
        title.addClasses(.heading)
        chapter = OpaquePointer(newObject(gtk_label_new(nil)))
        chapter.addClasses(.caption, .dimLabel)
        for label in [title, chapter] {
            gtk_label_set_xalign(label, 0)
            gtk_label_set_ellipsize(label, PANGO_ELLIPSIZE_END)
            gtk_box_append(texts.cast(to: GtkBox.self), label.widget)
        }
        gtk_box_append(info.cast(to: GtkBox.self), cover.widget)
        gtk_box_append(info.cast(to: GtkBox.self), texts)
        gtk_button_set_child(openButton.cast(to: GtkButton.self), info)

        backButton = PlayerControls.skipButton(back: true, seconds: nil)
        playButton = PlayerControls.iconButton("media-playback-start-symbolic", tr("Play"), large: true)
        forwardButton = PlayerControls.skipButton(back: false, seconds: nil)
        for child in [openButton, backButton, playButton, forwardButton] { gtk_box_append(row.cast(to: GtkBox.self), child) }
        gtk_box_append(bar.cast(to: GtkBox.self), progress.widget)
        gtk_box_append(bar.cast(to: GtkBox.self), row)
        gtk_revealer_set_child(revealer.opaque, bar)
        bar.setAccessibleLabel(tr("Now Playing"))

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
    var isShown: Bool { gtk_revealer_get_reveal_child(revealer.opaque) != 0 }

    private func render() {
        guard let player, let book = player.nowPlaying, player.status != .idle, player.status != .stopped else {
            gtk_revealer_set_reveal_child(revealer.opaque, 0)
            return
        }
        gtk_revealer_set_reveal_child(revealer.opaque, hiddenByRoute ? 0 : 1)
        if book.bookID != shownBook {
            shownBook = book.bookID
            coverTask?.cancel()
            coverTask = PlayerControls.loadCover(of: player, into: cover)
        }
        let duration = max(1, player.chapterDuration)
        gtk_progress_bar_set_fraction(progress, Double(player.chapterElapsed) / Double(duration))
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
        gtk_label_set_label(title, texts.title)
        gtk_label_set_label(chapter, texts.status)
        gtk_button_set_icon_name(playButton.cast(to: GtkButton.self), texts.icon)
        gtk_widget_set_tooltip_text(playButton, texts.playName)
        playButton.setAccessibleLabel(texts.playName)
        backButton.setAccessibleLabel(texts.back)
        gtk_widget_set_tooltip_text(backButton, texts.back)
        forwardButton.setAccessibleLabel(texts.forward)
        gtk_widget_set_tooltip_text(forwardButton, texts.forward)
    }

    /// What the bar says besides the progress.
    private struct Texts: Equatable {
        var title, status, icon, playName, back, forward: String
    }

    func teardown() {
        observation?.cancel()
        coverTask?.cancel()
        connections.removeAll()
    }
}
