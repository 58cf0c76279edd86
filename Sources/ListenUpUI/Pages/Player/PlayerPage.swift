import CAdwaita
import Foundation
import GtkBridge
import ListenUpCore

/// The player: the book playing, large, with a chapter-relative seek bar,
/// the transport controls, speed, sleep timer, volume, the recent
/// positions and the chapters.
/// Opened from the now-playing bar; it shows the session's one player.
/// The widget tree is `data/ui/player-page.ui`.
@MainActor
final class PlayerPage: RoutePage {
    let model: PlayerModel
    let root: Box
    private let ref: GObjectRef<UnsafeMutablePointer<GtkWidget>>
    var widget: UnsafeMutablePointer<GtkWidget> { root.pointer }
    private let ui: Template
    private let stack: Stack
    private let cover = CoverView(size: 220)
    private let title: Label, authors: Label, chapterTitle: Label, elapsed: Label, remaining: Label, bookLine: Label
    private let spinner: Spinner
    private let failureBox: Box, failure: Label
    let seek: Scale, volume: Scale, speedSpin: SpinButton
    let playButton: Button, backButton: Button, forwardButton: Button, previousButton: Button, nextButton: Button
    let speedButton: MenuButton, sleepButton: MenuButton, recentButton: MenuButton
    /// The rows of Recent Positions (PlayerPage+RecentPositions.swift), and
    /// the places and texts they last showed.
    let recentList: ListBox
    var shownRecent: [PlayerModel.RecentPosition] = []
    var shownRecentRows: [[String]] = []
    private let sleepLabel: Label
    let bookControls: PlayerBookControls
    let chapters: ListBox
    let retry = ListenUpButton(title: tr("Try Again"))
    /// The chapter list as last shown (PlayerPage+Chapters.swift).
    var chapterRows: [UnsafeMutablePointer<GtkWidget>] = []
    var shownChapters: [PlaybackTimeline.Chapter] = []
    private var shownBook: String?
    /// The play, back and forward buttons' icon and names as last set.
    private var shownNames: [String] = []
    private var coverTask: Task<Void, Never>?
    private var observation: StateObservation?
    var connections: [SignalConnection] = []
    /// Set while rendering: value changes then come from the model, not the user.
    var applying = false
    var pendingSeek: Task<Void, Never>?

    init(model: PlayerModel) {
        self.model = model
        ui = PageTemplates.load("player-page")
        (root, ref) = ui.root("root")
        (stack, title, authors, chapterTitle) = (ui.child("stack"), ui.child("title"), ui.child("authors"), ui.child("chapter-title"))
        (elapsed, remaining, bookLine, spinner) = (ui.child("elapsed"), ui.child("remaining"), ui.child("book-line"), ui.child("spinner"))
        (failureBox, failure, seek, volume) = (ui.child("failure-box"), ui.child("failure"), ui.child("seek"), ui.child("volume"))
        (playButton, backButton, forwardButton) = (ui.child("play"), ui.child("back"), ui.child("forward"))
        (previousButton, nextButton, chapters) = (ui.child("previous"), ui.child("next"), ui.child("chapters"))
        (speedButton, speedSpin, sleepButton, sleepLabel) = (ui.child("speed"), ui.child("speed-spin"), ui.child("sleep"), ui.child("sleep-label"))
        (recentButton, recentList) = (ui.child("recent"), ui.child("recent-list"))
        bookControls = PlayerBookControls(model: model, template: ui)

        let book: Box = ui.child("book")
        gtk_box_prepend(book.pointer.cast(to: GtkBox.self), cover.widget)
        gtk_widget_set_margin_bottom(cover.widget, 8)
        cover.widget.addClasses(StyleClass("player-cover"))
        gtk_widget_set_halign(retry.widget, GTK_ALIGN_CENTER)
        failureBox.append(retry.widget)
        backButton.setName(PlayerControls.skipName(back: true, seconds: model.skipBackSeconds))
        forwardButton.setName(PlayerControls.skipName(back: false, seconds: model.skipForwardSeconds))
        // The idle page's inner scrolled window can take focus; give it a name to announce.
        ui.child("idle", as: Widget.self).firstDescendant(ofType: gtk_scrolled_window_get_type())?.setAccessibleLabel(tr("Player"))
        connectTransport()
        connectSpeed(presets: ui.child("presets"))
        connectSleep(choices: ui.child("sleep-choices"))
        connectRecentPositions()
        observation = StateObservation { [weak self] in self?.render() }
    }

    private func render() {
        applying = true
        defer { applying = false }
        guard let book = model.nowPlaying else {
            stack.visibleChildName = "idle"
            return
        }
        stack.visibleChildName = "book"
        if book.bookID != shownBook {
            shownBook = book.bookID
            coverTask?.cancel()
            coverTask = PlayerControls.loadCover(of: model, into: cover)
        }
        title.text = book.title
        authors.show(book.authors)
        chapterTitle.text = model.chapter?.title ?? ""
        spinner.run(model.status == .loading || model.status == .buffering)

        let length = max(1, model.chapterDuration)
        seek.setRange(0...Double(length))
        seek.value = Double(model.chapterElapsed)
        elapsed.text = PlayerControls.time(model.chapterElapsed)
        remaining.text = "−" + PlayerControls.time(length - model.chapterElapsed)
        // TRANSLATORS: under the seek bar: how much of the book is done, and the time left at the current speed.
        let line = tr("%@ % of the book · %@ left at %@", Localization.number(Int(model.bookProgress * 100)),
                      PlayerControls.time(model.timeLeftAtRate), PlayerControls.rate(model.rate))
        // TRANSLATORS: under the seek bar of a finished book; %@ is the rest of the line.
        bookLine.text = model.finished ? tr("Finished · %@", line) : line
        renderNames()
        nextButton.isSensitive = (model.chapterIndex ?? 0) + 1 < book.chapters.count

        speedButton.label = PlayerControls.rate(model.rate)
        if abs(speedSpin.value - model.rate) > 0.001 { speedSpin.value = model.rate }
        sleepLabel.text = PlayerControls.sleep(model.sleepTimer, remaining: model.sleepRemaining) ?? tr("Sleep Timer")
        sleepButton.setClass(StyleClass("active"), model.sleepTimer != nil)
        volume.value = model.volume
        bookControls.render()
        renderRecentPositions()

        failureBox.isVisible = model.status == .error
        failure.text = model.failure?.message ?? ""
        failureBox.setAccessibleLabel(model.failure?.message ?? "")
        renderChapters(book.chapters)
    }

    /// The play/pause icon and the three transport names, set only when they
    /// change: every tooltip set asks the X server where the pointer is, and
    /// the position moves every second.
    private func renderNames() {
        let (icon, name) = PlayerControls.playPause(model.status)
        let names = [icon, name, PlayerControls.skipName(back: true, seconds: model.skipBackSeconds),
                     PlayerControls.skipName(back: false, seconds: model.skipForwardSeconds)]
        guard names != shownNames else { return }
        shownNames = names
        playButton.setIcon(icon)
        playButton.setName(name)
        backButton.setName(names[2])
        forwardButton.setName(names[3])
    }

    func teardown() {
        observation?.cancel()
        observation = nil
        coverTask?.cancel()
        pendingSeek?.cancel()
        bookControls.teardown()
        connections.removeAll()
    }

    /// The Recent Positions popover while it is open (a preview's screenshot).
    var dialog: UnsafeMutablePointer<GtkWidget>? { recentPopover }

    func focusDefault() {
        playButton.grabFocus()
    }
}
