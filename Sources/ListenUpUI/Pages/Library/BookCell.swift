import CAdwaita
import Foundation
import GtkBridge
import ListenUpCore

/// One book in the grid (a card: cover above, text below) or the list (a
/// row: small cover, text, duration). Made once per visible slot and
/// re-bound as the view scrolls.
@MainActor
final class BookCell {
    enum Style { case card, row }

    let widget: UnsafeMutablePointer<GtkWidget>
    let cover: CoverView
    private let title: OpaquePointer
    private let authors: OpaquePointer
    private let series: OpaquePointer
    private let duration: OpaquePointer
    private let progress: OpaquePointer
    /// "Finished", in place of the progress line of a finished book.
    private let finished: OpaquePointer
    /// Plays the book shown from its resume point (hidden with no player).
    let playButton: UnsafeMutablePointer<GtkWidget>
    private var playConnection: SignalConnection?
    /// The book shown (nil while unbound or waiting).
    private(set) var book: LibraryModel.Book?
    var coverTask: Task<Void, Never>?
    /// Plays a book (the card's Play button); nil hides the button.
    var onPlay: (@MainActor (String) -> Void)? {
        didSet { gtk_widget_set_visible(playButton, onPlay == nil ? 0 : 1) }
    }
    /// Downloads, pauses or resumes the book shown (its download button).
    let download: DownloadButton
    /// Sends the download button's intents; nil (no downloads) hides it.
    var onDownload: (@MainActor (DownloadsModel.Intent) -> Void)? {
        didSet {
            download.onIntent = onDownload
            gtk_widget_set_visible(download.widget, onDownload == nil ? 0 : 1)
        }
    }
    /// Whether the book shown is downloaded (said in its description).
    private var isDownloaded = false

    init(style: Style) {
        func label(_ classes: StyleClass..., lines: Int32 = 1) -> OpaquePointer {
            let label = OpaquePointer(newObject(gtk_label_new(nil)))
            for c in classes { label.addClasses(c) }
            gtk_label_set_xalign(label, 0)
            gtk_label_set_ellipsize(label, PANGO_ELLIPSIZE_END)
            if lines > 1 {
                gtk_label_set_wrap(label, 1)
                gtk_label_set_wrap_mode(label, PANGO_WRAP_WORD_CHAR)
                gtk_label_set_lines(label, lines)
            }
            return label
        }
        title = label(.heading, lines: style == .card ? 2 : 1)
        authors = label(.dimLabel)
        series = label(.caption, .dimLabel)
        duration = label(.caption, .dimLabel)
        progress = OpaquePointer(newObject(gtk_progress_bar_new()))
        progress.addClasses(StyleClass("book-progress"))
        finished = label(.caption, StyleClass("book-finished"))
        playButton = newObject(gtk_button_new_from_icon_name("media-playback-start-symbolic"))
        playButton.addClasses(StyleClass("circular"), .glass, .glassTinted, .glassInteractive, StyleClass("book-play"))
        gtk_widget_set_tooltip_text(playButton, tr("Play"))
        gtk_widget_set_visible(playButton, 0)
        download = DownloadButton(size: style == .card ? 30 : 32)
        gtk_widget_set_visible(download.widget, 0)

        switch style {
        case .card:
            cover = CoverView(size: 150)
            widget = newObject(gtk_box_new(GTK_ORIENTATION_VERTICAL, 4))
            widget.addClasses(StyleClass("book-card"), .glass, .glassRegular, .glassInteractive)
            gtk_widget_set_size_request(widget, 170, -1)
            gtk_label_set_max_width_chars(title, 16)
            gtk_label_set_width_chars(title, 16)
            gtk_label_set_max_width_chars(authors, 18)
            let box = widget.cast(to: GtkBox.self)
            gtk_box_append(box, cover.widget)
            gtk_box_append(box, progress.widget)
            gtk_box_append(box, finished.widget)
            gtk_box_append(box, title.widget)
            gtk_box_append(box, authors.widget)
            gtk_box_append(box, series.widget)
            gtk_box_append(box, duration.widget)
            // The Play button sits on the cover's lower right corner.
            gtk_widget_set_halign(playButton, GTK_ALIGN_END)
            gtk_widget_set_valign(playButton, GTK_ALIGN_END)
            gtk_widget_set_margin_end(playButton, 8)
            gtk_widget_set_margin_bottom(playButton, 8)
            gtk_overlay_add_overlay(cover.widget.opaque, playButton)
            // The download button (or the downloaded mark) on its lower
            // left, centred on the Play button's line.
            gtk_widget_set_size_request(download.widget, -1, 36)
            gtk_widget_set_halign(download.widget, GTK_ALIGN_START)
            gtk_widget_set_valign(download.widget, GTK_ALIGN_END)
            gtk_widget_set_margin_start(download.widget, 8)
            gtk_widget_set_margin_bottom(download.widget, 8)
            gtk_overlay_add_overlay(cover.widget.opaque, download.widget)
        case .row:
            cover = CoverView(size: 48)
            widget = newObject(gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 12))
            widget.addClasses(StyleClass("book-row"))
            let text = newObject(gtk_box_new(GTK_ORIENTATION_VERTICAL, 2))
            gtk_widget_set_hexpand(text, 1)
            gtk_widget_set_valign(text, GTK_ALIGN_CENTER)
            let textBox = text.cast(to: GtkBox.self)
            gtk_box_append(textBox, title.widget)
            gtk_box_append(textBox, authors.widget)
            gtk_box_append(textBox, series.widget)
            gtk_box_append(textBox, progress.widget)
            gtk_box_append(textBox, finished.widget)
            gtk_widget_set_valign(duration.widget, GTK_ALIGN_CENTER)
            gtk_widget_set_valign(playButton, GTK_ALIGN_CENTER)
            gtk_widget_set_valign(download.widget, GTK_ALIGN_CENTER)
            let box = widget.cast(to: GtkBox.self)
            gtk_box_append(box, cover.widget)
            gtk_box_append(box, text)
            gtk_box_append(box, duration.widget)
            gtk_box_append(box, download.widget)
            gtk_box_append(box, playButton)
        }
        playConnection = playButton.connect(.clicked) { [weak self] in
            guard let self, let book = self.book else { return }
            self.onPlay?(book.id)
        }
    }

    /// Shows `book` and its download (nil: not downloaded; the cover
    /// comes separately).
    func bind(_ book: LibraryModel.Book, download item: DownloadsModel.Item? = nil) {
        self.book = book
        isDownloaded = item?.status == .done
        if onDownload != nil { download.show(item, bookID: book.id, title: book.title) }
        gtk_widget_set_opacity(widget, 1)
        gtk_label_set_label(title, book.title)
        gtk_label_set_label(authors, book.authors)
        gtk_label_set_label(series, book.series)
        gtk_widget_set_visible(series.widget, book.series.isEmpty ? 0 : 1)
        gtk_label_set_label(duration, Self.duration(book.duration))
        let isFinished = book.progress?.finished == true
        gtk_label_set_label(finished, isFinished ? tr("Finished") : "")
        gtk_widget_set_visible(finished.widget, isFinished ? 1 : 0)
        if !isFinished, let fraction = book.progress?.fraction, fraction > 0 {
            gtk_progress_bar_set_fraction(progress, fraction)
            gtk_widget_set_visible(progress.widget, 1)
        } else {
            gtk_widget_set_visible(progress.widget, 0)
        }
        // TRANSLATORS: the accessible name of a book's Play button; %@ is its title.
        playButton.setAccessibleLabel(tr("Play %@", book.title))
        // The grid or list item around the cell is what takes focus and what
        // a screen reader reads (GTK 4.8 names it after its type otherwise);
        // naming only it keeps a bind at two accessible updates, which a
        // search repeats for every kept cell.
        let named = gtk_widget_get_parent(widget) ?? widget
        named.setAccessibleLabel(book.title)
        describe()
        cover.showPlaceholder(for: book.title)
    }

    /// Shows the book's download (nil: not downloaded) when it changed.
    func showDownload(_ item: DownloadsModel.Item?) {
        guard let book, onDownload != nil else { return }
        download.show(item, bookID: book.id, title: book.title)
        let downloaded = item?.status == .done
        if downloaded != isDownloaded {
            isDownloaded = downloaded
            describe()
        }
    }

    /// The item's accessible description: authors, finished, downloaded,
    /// series, length.
    private func describe() {
        guard let book else { return }
        var description = book.authors
        if book.progress?.finished == true { description += ", " + tr("Finished") }
        if isDownloaded { description += ", " + tr("Downloaded") }
        if !book.series.isEmpty { description += ", " + book.series }
        description += ", " + Self.duration(book.duration)
        let named = gtk_widget_get_parent(widget) ?? widget
        named.setAccessibleDescription(description)
    }

    /// The "Finished" mark's text ("" for a book not finished; tests).
    var finishedText: String { String(cString: gtk_label_get_label(finished)) }

    /// Shows nothing until `bind`: the book it holds is no longer the one at
    /// its position. Its text stays, so nothing is measured again.
    func waitForBook() {
        unbind()
        gtk_widget_set_opacity(widget, 0)
    }

    func unbind() {
        coverTask?.cancel()
        coverTask = nil
        book = nil
    }

    /// "12 h 5 min", "45 min", "" for unknown.
    static func duration(_ milliseconds: Int64) -> String {
        guard milliseconds > 0 else { return "" }
        let minutes = Int((milliseconds + 30_000) / 60_000)
        let hours = minutes / 60
        // TRANSLATORS: a book's length, abbreviated: hours (h) and minutes (min).
        if hours == 0 { return tr("%@ min", String(max(1, minutes))) }
        if minutes % 60 == 0 { return tr("%@ h", String(hours)) }
        return tr("%@ h %@ min", String(hours), String(minutes % 60))
    }
}
