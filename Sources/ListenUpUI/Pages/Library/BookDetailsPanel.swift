import CAdwaita
import GtkBridge
import ListenUpCore

/// The side panel with one book's details: cover, title, Play and Mark as
/// Finished, the download control (``DownloadControl``), people with their
/// roles, description (HTML already stripped by the model), chapters.
@MainActor
final class BookDetailsPanel {
    let widget: UnsafeMutablePointer<GtkWidget>
    let closeButton: UnsafeMutablePointer<GtkWidget>
    private let content: UnsafeMutablePointer<GtkWidget>
    private var shown: LibraryModel.Details?
    private var coverTask: Task<Void, Never>?
    private(set) var cover: CoverView?
    /// Plays a book (the Play button).
    var onPlay: (@MainActor (String) -> Void)?
    /// Marks a book finished (true) or not.
    var onMarkFinished: (@MainActor (String, Bool) -> Void)?
    /// There is a player (signed in; not in every preview).
    var canPlay = false
    private var buttonConnections: [SignalConnection] = []
    /// The Play button of the book shown (tests).
    private(set) var playButton: ListenUpButton?
    /// The session's downloads (nil: none, no download control).
    var downloads: DownloadsModel?
    /// Sends the download control's intents.
    var onDownload: (@MainActor (DownloadsModel.Intent) -> Void)?
    /// The download control of the book shown.
    private(set) var downloadControl: DownloadControl?

    init() {
        widget = newObject(gtk_box_new(GTK_ORIENTATION_VERTICAL, 0))
        widget.addClasses(StyleClass("book-details"), .glass, .glassRegular)
        gtk_widget_set_size_request(widget, 340, -1)

        let bar = newObject(gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 0))
        gtk_widget_set_margin_top(bar, 6)
        gtk_widget_set_margin_end(bar, 6)
        closeButton = newObject(gtk_button_new_from_icon_name("window-close-symbolic"))
        closeButton.addClasses(.flat, StyleClass("circular"))
        gtk_widget_set_tooltip_text(closeButton, tr("Close Details"))
        closeButton.setAccessibleLabel(tr("Close Details"))
        gtk_widget_set_hexpand(closeButton, 1)
        gtk_widget_set_halign(closeButton, GTK_ALIGN_END)
        gtk_box_append(bar.cast(to: GtkBox.self), closeButton)

        let scrolled = newObject(gtk_scrolled_window_new())
        gtk_scrolled_window_set_policy(scrolled.opaque, GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC)
        gtk_widget_set_vexpand(scrolled, 1)
        scrolled.setAccessibleLabel(tr("Book Details"))
        content = newObject(gtk_box_new(GTK_ORIENTATION_VERTICAL, 8))
        gtk_widget_set_margin_start(content, 18)
        gtk_widget_set_margin_end(content, 18)
        gtk_widget_set_margin_bottom(content, 18)
        gtk_scrolled_window_set_child(scrolled.opaque, content)

        let box = widget.cast(to: GtkBox.self)
        gtk_box_append(box, bar)
        gtk_box_append(box, scrolled)
        widget.setAccessibleLabel(tr("Book Details"))
    }

    /// Shows `details`; `loadCover` fills the cover view.
    func show(_ details: LibraryModel.Details, loadCover: (CoverView) -> Task<Void, Never>?) {
        guard details != shown else { return }
        shown = details
        coverTask?.cancel()
        downloadControl?.teardown()
        downloadControl = nil
        while let child = gtk_widget_get_first_child(content) { gtk_box_remove(content.cast(to: GtkBox.self), child) }
        let box = content.cast(to: GtkBox.self)

        let cover = CoverView(size: 200)
        self.cover = cover
        gtk_widget_set_margin_bottom(cover.widget, 8)
        gtk_box_append(box, cover.widget)
        coverTask = loadCover(cover)

        func label(_ text: String, _ classes: StyleClass..., selectable: Bool = false) {
            guard !text.isEmpty else { return }
            let label = OpaquePointer(newObject(gtk_label_new(text)))
            for c in classes { label.addClasses(c) }
            gtk_label_set_xalign(label, 0)
            gtk_label_set_wrap(label, 1)
            gtk_label_set_wrap_mode(label, PANGO_WRAP_WORD_CHAR)
            gtk_label_set_selectable(label, selectable ? 1 : 0)
            gtk_box_append(box, label.widget)
        }

        let book = details.book
        label(book.title, StyleClass("title-2"), selectable: true)
        buttonConnections = []
        playButton = nil
        if canPlay {
            let actions = newObject(gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 8))
            let play = ListenUpButton(title: tr("Play"))
            play.onClick { [weak self] in self?.onPlay?(book.id) }
            playButton = play
            let finished = book.progress?.finished == true
            let mark = newObject(gtk_button_new_with_label(finished ? tr("Mark as Not Started") : tr("Mark as Finished")))
            mark.addClasses(.glass, .glassClear, .glassInteractive, .pill)
            mark.setAccessibleLabel(finished ? tr("Mark as Not Started") : tr("Mark as Finished"))
            buttonConnections.append(mark.connect(.clicked) { [weak self] in self?.onMarkFinished?(book.id, !finished) })
            gtk_box_append(actions.cast(to: GtkBox.self), play.widget)
            gtk_box_append(actions.cast(to: GtkBox.self), mark)
            gtk_widget_set_margin_top(actions, 4)
            gtk_widget_set_margin_bottom(actions, 4)
            gtk_box_append(box, actions)
            if !finished, (book.progress?.fraction ?? 0) > 0 {
                // A book under way can be started over too (a row of its
                // own: three buttons do not fit the panel's width).
                let restart = newObject(gtk_button_new_with_label(tr("Mark as Not Started")))
                restart.addClasses(.flat, .pill)
                gtk_widget_set_halign(restart, GTK_ALIGN_START)
                restart.setAccessibleLabel(tr("Mark as Not Started"))
                buttonConnections.append(restart.connect(.clicked) { [weak self] in self?.onMarkFinished?(book.id, false) })
                gtk_box_append(box, restart)
            }
        }
        if let downloads {
            let control = DownloadControl(bookID: book.id, size: details.downloadSize, downloads: downloads) { [weak self] intent in
                self?.onDownload?(intent)
            }
            gtk_widget_set_margin_bottom(control.widget, 4)
            gtk_box_append(box, control.widget)
            downloadControl = control
        }
        label(details.subtitle ?? "", .dimLabel)
        label(book.authors)
        label(book.series, .dimLabel)
        let facts = [BookCell.duration(book.duration), details.publisher ?? "", details.publishYear ?? ""].filter { !$0.isEmpty }
        label(facts.joined(separator: " · "), .caption, .dimLabel)
        if let progress = book.progress {
            let listened = progress.finished
                ? tr("Finished")
                // TRANSLATORS: %@ is a whole percentage, e.g. “42 % listened”.
                : tr("%@ % listened", Localization.number(Int(progress.fraction * 100)))
            label(listened, .caption)
        }

        if !details.description.isEmpty {
            label(tr("Description"), .heading)
            label(details.description, selectable: true)
        }
        if !details.contributors.isEmpty {
            label(tr("People"), .heading)
            for person in details.contributors {
                // TRANSLATORS: a contributor: their name, then their roles (e.g. “Ray Porter — Narrator”).
                label(tr("%@ — %@", person.name, person.roles.map(Self.role).joined(separator: ", ")))
            }
        }
        if !details.chapters.isEmpty {
            label(trn("%@ Chapter", "%@ Chapters", count: details.chapters.count, Localization.number(details.chapters.count)), .heading)
            let list = OpaquePointer(newObject(gtk_list_box_new()))
            gtk_list_box_set_selection_mode(list, GTK_SELECTION_NONE)
            list.addClasses(StyleClass("boxed-list"))
            list.widget.setAccessibleLabel(tr("Chapters"))
            for chapter in details.chapters {
                let row = newObject(adw_action_row_new())
                adw_preferences_row_set_title(row.cast(to: AdwPreferencesRow.self), chapter.title)
                adw_preferences_row_set_use_markup(row.cast(to: AdwPreferencesRow.self), 0)
                adw_action_row_set_subtitle(row.cast(to: AdwActionRow.self), Self.timestamp(chapter.start))
                gtk_list_box_append(list, row)
            }
            gtk_box_append(box, list.widget)
        }
    }

    func clear() {
        coverTask?.cancel()
        downloadControl?.teardown()
        downloadControl = nil
        shown = nil
    }

    /// The title shown (tests).
    var shownTitle: String? { shown?.book.title }

    static func role(_ role: String) -> String {
        switch role {
        case "author": tr("Author")
        case "narrator": tr("Narrator")
        case "editor": tr("Editor")
        case "translator": tr("Translator")
        default: role.prefix(1).uppercased() + role.dropFirst()
        }
    }

    /// `1:02:03` or `2:03`.
    static func timestamp(_ milliseconds: Int64) -> String {
        let seconds = Int(milliseconds / 1000)
        let (h, m, s) = (seconds / 3600, seconds / 60 % 60, seconds % 60)
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return h > 0 ? "\(h):\(two(m)):\(two(s))" : "\(m):\(two(s))"
    }
}
