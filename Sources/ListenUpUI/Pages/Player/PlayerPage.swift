import CAdwaita
import Foundation
import GtkBridge
import ListenUpCore

/// The player: the book playing, large, with a chapter-relative seek bar,
/// the transport controls, speed, sleep timer, volume and the chapters.
/// Opened from the now-playing bar; it shows the session's one player.
@MainActor
final class PlayerPage: RoutePage {
    let widget: UnsafeMutablePointer<GtkWidget>
    private let ref: GObjectRef<UnsafeMutablePointer<GtkWidget>>
    let model: PlayerModel
    private let stack: UnsafeMutablePointer<GtkWidget>
    private let cover = CoverView(size: 220)
    private let title: OpaquePointer
    private let authors: OpaquePointer
    private let chapterTitle: OpaquePointer
    private let spinner: OpaquePointer
    let seek: UnsafeMutablePointer<GtkWidget>
    private let elapsed: OpaquePointer
    private let remaining: OpaquePointer
    private let bookLine: OpaquePointer
    private let failure: OpaquePointer
    private let failureBox: UnsafeMutablePointer<GtkWidget>
    let playButton: UnsafeMutablePointer<GtkWidget>
    let backButton: UnsafeMutablePointer<GtkWidget>
    let forwardButton: UnsafeMutablePointer<GtkWidget>
    let previousButton: UnsafeMutablePointer<GtkWidget>
    let nextButton: UnsafeMutablePointer<GtkWidget>
    let speedButton: UnsafeMutablePointer<GtkWidget>
    let speedSpin: UnsafeMutablePointer<GtkWidget>
    let sleepButton: UnsafeMutablePointer<GtkWidget>
    private let sleepLabel: OpaquePointer
    let volume: UnsafeMutablePointer<GtkWidget>
    let bookControls: PlayerBookControls
    let chapters: OpaquePointer
    private let retry: ListenUpButton
    /// The chapter list as last shown (PlayerPage+Chapters.swift).
    var chapterRows: [UnsafeMutablePointer<GtkWidget>] = []
    var shownChapters: [PlaybackTimeline.Chapter] = []
    private var shownBook: String?
    /// The play, back and forward buttons' icon and names as last set.
    private var shownNames: [String] = []
    private var coverTask: Task<Void, Never>?
    private var observation: StateObservation?
    private var connections: [SignalConnection] = []
    private var applying = false
    private var pendingSeek: Task<Void, Never>?
    /// The sleep choices by button (nil: off).
    private var sleepChoices: [(UnsafeMutablePointer<GtkWidget>, PlayerModel.SleepTimer?)] = []

    init(model: PlayerModel) {
        self.model = model
        widget = newObject(gtk_box_new(GTK_ORIENTATION_VERTICAL, 0))
        ref = GObjectRef(borrowing: widget)
        widget.addClasses(.backdrop, StyleClass("player-page"))

        // Idle: nothing to show.
        let idle = newObject(adw_status_page_new())
        adw_status_page_set_icon_name(idle.opaque, "audio-headphones-symbolic")
        adw_status_page_set_title(idle.opaque, tr("Nothing Playing"))
        adw_status_page_set_description(idle.opaque, tr("Choose a book in the library and press Play."))
        // Its inner scrolled window can take focus; give it a name to announce.
        idle.firstDescendant(ofType: gtk_scrolled_window_get_type())?.setAccessibleLabel(tr("Player"))

        // The book.
        let page = newObject(gtk_box_new(GTK_ORIENTATION_VERTICAL, 10))
        gtk_widget_set_margin_top(page, 18)
        gtk_widget_set_margin_bottom(page, 24)
        gtk_widget_set_margin_start(page, 18)
        gtk_widget_set_margin_end(page, 18)
        let box = page.cast(to: GtkBox.self)
        gtk_widget_set_margin_bottom(cover.widget, 8)
        cover.widget.addClasses(StyleClass("player-cover"))
        gtk_box_append(box, cover.widget)

        func label(_ classes: StyleClass..., wrap: Bool = true) -> OpaquePointer {
            let label = OpaquePointer(newObject(gtk_label_new(nil)))
            for style in classes { label.addClasses(style) }
            gtk_label_set_justify(label, GTK_JUSTIFY_CENTER)
            if wrap {
                gtk_label_set_wrap(label, 1)
                gtk_label_set_wrap_mode(label, PANGO_WRAP_WORD_CHAR)
            }
            return label
        }
        title = label(StyleClass("title-2"))
        authors = label(.dimLabel)
        let chapterLine = newObject(gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 8))
        gtk_widget_set_halign(chapterLine, GTK_ALIGN_CENTER)
        chapterTitle = label(.heading)
        spinner = OpaquePointer(newObject(gtk_spinner_new()))
        spinner.widget.setAccessibleLabel(tr("Loading"))
        gtk_box_append(chapterLine.cast(to: GtkBox.self), spinner.widget)
        gtk_box_append(chapterLine.cast(to: GtkBox.self), chapterTitle.widget)
        gtk_box_append(box, title.widget)
        gtk_box_append(box, authors.widget)
        gtk_box_append(box, chapterLine)
        // (The failure box, made below, goes here: under the title, in sight.)

        // The chapter-relative seek bar, with elapsed and remaining time.
        seek = newObject(gtk_scale_new_with_range(GTK_ORIENTATION_HORIZONTAL, 0, 1, 1))
        gtk_scale_set_draw_value(seek.cast(to: GtkScale.self), 0)
        seek.addClasses(StyleClass("player-seek"))
        seek.setAccessibleLabel(tr("Position in Chapter"))
        let times = newObject(gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 0))
        elapsed = label(.caption, StyleClass("numeric"), wrap: false)
        remaining = label(.caption, StyleClass("numeric"), wrap: false)
        gtk_widget_set_hexpand(elapsed.widget, 1)
        gtk_widget_set_halign(elapsed.widget, GTK_ALIGN_START)
        gtk_widget_set_halign(remaining.widget, GTK_ALIGN_END)
        gtk_box_append(times.cast(to: GtkBox.self), elapsed.widget)
        gtk_box_append(times.cast(to: GtkBox.self), remaining.widget)
        gtk_box_append(box, seek)
        gtk_box_append(box, times)
        bookLine = label(.caption, .dimLabel)
        gtk_box_append(box, bookLine.widget)

        // Transport.
        previousButton = PlayerControls.iconButton("media-skip-backward-symbolic", tr("Previous Chapter"))
        backButton = PlayerControls.skipButton(back: true, seconds: model.skipBackSeconds)
        playButton = PlayerControls.iconButton("media-playback-start-symbolic", tr("Play"), large: true)
        forwardButton = PlayerControls.skipButton(back: false, seconds: model.skipForwardSeconds)
        nextButton = PlayerControls.iconButton("media-skip-forward-symbolic", tr("Next Chapter"))
        let transport = newObject(gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 14))
        gtk_widget_set_halign(transport, GTK_ALIGN_CENTER)
        gtk_widget_set_margin_top(transport, 6)
        for button in [previousButton, backButton, playButton, forwardButton, nextButton] {
            gtk_box_append(transport.cast(to: GtkBox.self), button)
        }
        gtk_box_append(box, transport)

        // Speed, sleep timer, volume.
        let extras = newObject(gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 10))
        gtk_widget_set_halign(extras, GTK_ALIGN_CENTER)
        speedButton = newObject(gtk_menu_button_new())
        speedButton.addClasses(StyleClass("player-menu"))
        gtk_widget_set_tooltip_text(speedButton, tr("Playback Speed"))
        speedButton.setAccessibleLabel(tr("Playback Speed"))
        let speedPopover = newObject(gtk_popover_new())
        let speedBox = newObject(gtk_box_new(GTK_ORIENTATION_VERTICAL, 8))
        speedSpin = newObject(gtk_spin_button_new_with_range(0.5, 3.0, 0.05))
        gtk_spin_button_set_digits(speedSpin.opaque, 2)
        speedSpin.setAccessibleLabel(tr("Playback Speed"))
        gtk_box_append(speedBox.cast(to: GtkBox.self), speedSpin)
        let presets = newObject(gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 4))
        presets.addClasses(StyleClass("linked"))
        var presetButtons: [(UnsafeMutablePointer<GtkWidget>, Double)] = []
        for preset in [1.0, 1.25, 1.5, 2.0] {
            let button = newObject(gtk_button_new_with_label(PlayerControls.rate(preset)))
            button.setAccessibleLabel(PlayerControls.rate(preset))
            gtk_box_append(presets.cast(to: GtkBox.self), button)
            presetButtons.append((button, preset))
        }
        gtk_box_append(speedBox.cast(to: GtkBox.self), presets)
        gtk_popover_set_child(speedPopover.cast(to: GtkPopover.self), speedBox)
        gtk_menu_button_set_popover(speedButton.opaque, speedPopover)

        sleepButton = newObject(gtk_menu_button_new())
        sleepButton.addClasses(StyleClass("player-menu"))
        gtk_widget_set_tooltip_text(sleepButton, tr("Sleep Timer"))
        sleepButton.setAccessibleLabel(tr("Sleep Timer"))
        let sleepContent = newObject(gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 6))
        gtk_box_append(sleepContent.cast(to: GtkBox.self), newObject(gtk_image_new_from_icon_name("weather-clear-night-symbolic")))
        sleepLabel = OpaquePointer(newObject(gtk_label_new(tr("Sleep Timer"))))
        gtk_box_append(sleepContent.cast(to: GtkBox.self), sleepLabel.widget)
        gtk_menu_button_set_child(sleepButton.opaque, sleepContent)
        let sleepPopover = newObject(gtk_popover_new())
        let sleepBox = newObject(gtk_box_new(GTK_ORIENTATION_VERTICAL, 2))
        let choices: [(String, PlayerModel.SleepTimer?)] = [(tr("Off"), nil)]
            // TRANSLATORS: a sleep timer choice; %@ is a number of minutes.
            + [5, 10, 15, 30, 45, 60].map { (tr("%@ Minutes", Localization.number($0)), .minutes($0)) }
            + [(tr("End of Chapter"), .endOfChapter)]
        for (name, timer) in choices {
            let button = newObject(gtk_button_new_with_label(name))
            button.addClasses(.flat)
            gtk_box_append(sleepBox.cast(to: GtkBox.self), button)
            sleepChoices.append((button, timer))
        }
        gtk_popover_set_child(sleepPopover.cast(to: GtkPopover.self), sleepBox)
        gtk_menu_button_set_popover(sleepButton.opaque, sleepPopover)

        volume = newObject(gtk_scale_new_with_range(GTK_ORIENTATION_HORIZONTAL, 0, 1, 0.05))
        gtk_scale_set_draw_value(volume.cast(to: GtkScale.self), 0)
        gtk_widget_set_size_request(volume, 120, -1)
        volume.setAccessibleLabel(tr("Volume"))
        let volumeBox = newObject(gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 4))
        gtk_box_append(volumeBox.cast(to: GtkBox.self), newObject(gtk_image_new_from_icon_name("audio-volume-medium-symbolic")))
        gtk_box_append(volumeBox.cast(to: GtkBox.self), volume)
        bookControls = PlayerBookControls(model: model)
        for child in [speedButton, bookControls.boostButton, sleepButton, volumeBox, bookControls.menuButton] {
            gtk_box_append(extras.cast(to: GtkBox.self), child)
        }
        gtk_box_append(box, extras)

        // A failure, with a way to try again.
        // An alert: a screen reader announces why playback stopped.
        failureBox = newWidget(of: gtk_box_get_type(), role: GTK_ACCESSIBLE_ROLE_ALERT)
        gtk_orientable_set_orientation(OpaquePointer(failureBox), GTK_ORIENTATION_VERTICAL)
        gtk_box_set_spacing(failureBox.cast(to: GtkBox.self), 8)
        failureBox.addClasses(StyleClass("player-failure"), .glass, .glassRegular)
        failure = label(.error)
        retry = ListenUpButton(title: tr("Try Again"))
        gtk_widget_set_halign(retry.widget, GTK_ALIGN_CENTER)
        gtk_box_append(failureBox.cast(to: GtkBox.self), failure.widget)
        gtk_box_append(failureBox.cast(to: GtkBox.self), retry.widget)
        gtk_box_append(box, failureBox)

        // Chapters.
        let chaptersHeading = label(.heading)
        gtk_label_set_label(chaptersHeading, tr("Chapters"))
        gtk_label_set_xalign(chaptersHeading, 0)
        gtk_widget_set_margin_top(chaptersHeading.widget, 12)
        chapters = OpaquePointer(newObject(gtk_list_box_new()))
        gtk_list_box_set_selection_mode(chapters, GTK_SELECTION_NONE)
        chapters.addClasses(StyleClass("boxed-list"))
        chapters.widget.setAccessibleLabel(tr("Chapters"))
        gtk_box_append(box, chaptersHeading.widget)
        gtk_box_append(box, chapters.widget)

        let clamp = newObject(adw_clamp_new())
        adw_clamp_set_maximum_size(clamp.opaque, 560)
        adw_clamp_set_child(clamp.opaque, page)
        let scrolled = newObject(gtk_scrolled_window_new())
        gtk_scrolled_window_set_policy(scrolled.opaque, GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC)
        gtk_scrolled_window_set_child(scrolled.opaque, clamp)
        scrolled.setAccessibleLabel(tr("Player"))
        gtk_widget_set_vexpand(scrolled, 1)

        // A bar to go back to the library.
        let top = newObject(gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 0))
        gtk_widget_set_margin_top(top, 6)
        gtk_widget_set_margin_start(top, 6)
        let close = newObject(gtk_button_new_from_icon_name("go-down-symbolic"))
        close.addClasses(.flat, StyleClass("circular"))
        gtk_widget_set_tooltip_text(close, tr("Close Player"))
        close.setAccessibleLabel(tr("Close Player"))
        gtk_actionable_set_action_name(close.opaque, WindowAction.closePlayer.detailedName)
        gtk_box_append(top.cast(to: GtkBox.self), close)
        stack = newObject(gtk_stack_new())
        gtk_stack_add_named(stack.opaque, scrolled, "book")
        gtk_stack_add_named(stack.opaque, idle, "idle")
        gtk_widget_set_vexpand(stack, 1)
        gtk_box_append(widget.cast(to: GtkBox.self), top)
        gtk_box_append(widget.cast(to: GtkBox.self), stack)
        widget.setAccessibleLabel(tr("Player"))

        gtk_box_reorder_child_after(box, failureBox, chapterLine)
        connect(presets: presetButtons)
        observation = StateObservation { [weak self] in self?.render() }
    }

    private func connect(presets: [(UnsafeMutablePointer<GtkWidget>, Double)]) {
        let model = model
        connections.append(playButton.connect(.clicked) { [weak model] in model?.send(.togglePlayPause) })
        connections.append(backButton.connect(.clicked) { [weak model] in model?.send(.skipBack) })
        connections.append(forwardButton.connect(.clicked) { [weak model] in model?.send(.skipForward) })
        connections.append(previousButton.connect(.clicked) { [weak model] in model?.send(.previousChapter) })
        connections.append(nextButton.connect(.clicked) { [weak model] in model?.send(.nextChapter) })
        for (button, preset) in presets {
            connections.append(button.connect(.clicked) { [weak model] in model?.send(.rate(preset)) })
        }
        connections.append(speedSpin.connect(.valueChanged) { [weak self] in
            guard let self, !self.applying else { return }
            self.model.send(.rate(gtk_spin_button_get_value(self.speedSpin.opaque)))
        })
        for (button, timer) in sleepChoices {
            connections.append(button.connect(.clicked) { [weak self] in
                self?.model.send(.sleep(timer))
                if let popover = self.flatMap({ gtk_menu_button_get_popover($0.sleepButton.opaque) }) {
                    gtk_popover_popdown(popover)
                }
            })
        }
        connections.append(volume.connect(.valueChanged) { [weak self] in
            guard let self, !self.applying else { return }
            self.model.send(.volume(gtk_range_get_value(self.volume.cast(to: GtkRange.self))))
        })
        // Dragging seeks once the thumb rests (not on every pixel).
        connections.append(seek.connect(.valueChanged) { [weak self] in
            guard let self, !self.applying else { return }
            let offset = Int64(gtk_range_get_value(self.seek.cast(to: GtkRange.self)))
            let start = self.model.chapter?.start ?? 0
            self.pendingSeek?.cancel()
            self.pendingSeek = Task { [weak self] in
                try? await Task.sleep(for: .milliseconds(120))
                guard !Task.isCancelled else { return }
                self?.model.send(.seek(start + offset))
            }
        })
        connections.append(chapters.widget.connect(.rowActivated) { [weak self] row in
            guard let self else { return }
            let index = Int(gtk_list_box_row_get_index(row))
            self.model.send(.chapter(index))
        })
        retry.onClick { [weak model] in
            guard let model, let book = model.nowPlaying else { return }
            model.send(.play(bookID: book.bookID))
        }
    }

    private func render() {
        applying = true
        defer { applying = false }
        guard let book = model.nowPlaying else {
            gtk_stack_set_visible_child_name(stack.opaque, "idle")
            return
        }
        gtk_stack_set_visible_child_name(stack.opaque, "book")
        if book.bookID != shownBook {
            shownBook = book.bookID
            coverTask?.cancel()
            coverTask = PlayerControls.loadCover(of: model, into: cover)
        }
        gtk_label_set_label(title, book.title)
        gtk_label_set_label(authors, book.authors)
        gtk_widget_set_visible(authors.widget, book.authors.isEmpty ? 0 : 1)
        gtk_label_set_label(chapterTitle, model.chapter?.title ?? "")
        let busy = model.status == .loading || model.status == .buffering
        gtk_widget_set_visible(spinner.widget, busy ? 1 : 0)
        gtk_spinner_set_spinning(spinner, busy ? 1 : 0)

        let length = max(1, model.chapterDuration)
        gtk_range_set_range(seek.cast(to: GtkRange.self), 0, Double(length))
        gtk_range_set_value(seek.cast(to: GtkRange.self), Double(model.chapterElapsed))
        gtk_label_set_label(elapsed, PlayerControls.time(model.chapterElapsed))
        gtk_label_set_label(remaining, "−" + PlayerControls.time(length - model.chapterElapsed))
        // TRANSLATORS: under the seek bar: how much of the book is done, and the time left at the current speed.
        let line = tr("%@ % of the book · %@ left at %@", Localization.number(Int(model.bookProgress * 100)),
                      PlayerControls.time(model.timeLeftAtRate), PlayerControls.rate(model.rate))
        // TRANSLATORS: under the seek bar of a finished book; %@ is the rest of the line.
        gtk_label_set_label(bookLine, model.finished ? tr("Finished · %@", line) : line)

        let (icon, name) = PlayerControls.playPause(model.status)
        let names = [icon, name, PlayerControls.skipName(back: true, seconds: model.skipBackSeconds),
                     PlayerControls.skipName(back: false, seconds: model.skipForwardSeconds)]
        // Set only when they change: every tooltip set asks the X server
        // where the pointer is, and the position moves every second.
        if names != shownNames {
            shownNames = names
            gtk_button_set_icon_name(playButton.cast(to: GtkButton.self), icon)
            gtk_widget_set_tooltip_text(playButton, name)
            playButton.setAccessibleLabel(name)
            gtk_widget_set_tooltip_text(backButton, names[2])
            backButton.setAccessibleLabel(names[2])
            gtk_widget_set_tooltip_text(forwardButton, names[3])
            forwardButton.setAccessibleLabel(names[3])
        }
        gtk_widget_set_sensitive(nextButton, (model.chapterIndex ?? 0) + 1 < book.chapters.count ? 1 : 0)

        gtk_menu_button_set_label(speedButton.opaque, PlayerControls.rate(model.rate))
        if abs(gtk_spin_button_get_value(speedSpin.opaque) - model.rate) > 0.001 { gtk_spin_button_set_value(speedSpin.opaque, model.rate) }
        gtk_label_set_label(sleepLabel, PlayerControls.sleep(model.sleepTimer, remaining: model.sleepRemaining) ?? tr("Sleep Timer"))
        sleepButton.setClass(StyleClass("active"), model.sleepTimer != nil)
        gtk_range_set_value(volume.cast(to: GtkRange.self), model.volume)
        bookControls.render()

        let failed = model.status == .error
        gtk_widget_set_visible(failureBox, failed ? 1 : 0)
        gtk_label_set_label(failure, model.failure?.message ?? "")
        failureBox.setAccessibleLabel(model.failure?.message ?? "")

        renderChapters(book.chapters)
    }

    func teardown() {
        observation?.cancel()
        observation = nil
        coverTask?.cancel()
        pendingSeek?.cancel()
        bookControls.teardown()
        connections.removeAll()
    }

    func focusDefault() {
        gtk_widget_grab_focus(playButton)
    }
}
