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
    /// The cell's own reference to its root (the list item holds another).
    private let root: GObjectRef<UnsafeMutablePointer<GtkWidget>>
    let cover: CoverView
    private let title: Label
    private let authors: Label
    private let series: Label
    private let duration: Label
    private let progress: ProgressBar
    /// "Finished", in place of the progress line of a finished book.
    private let finished: Label
    /// Plays the book shown from its resume point (hidden with no player).
    let playButton: Button
    private var playConnection: SignalConnection?
    /// The book shown (nil while unbound or waiting).
    private(set) var book: LibraryModel.Book?
    var coverTask: Task<Void, Never>?
    /// Plays a book (the card's Play button); nil hides the button.
    var onPlay: (@MainActor (String) -> Void)? {
        didSet { playButton.isVisible = onPlay != nil }
    }
    /// Downloads, pauses or resumes the book shown (its download button).
    let download: DownloadButton
    /// Sends the download button's intents; nil (no downloads) hides it.
    var onDownload: (@MainActor (DownloadsModel.Intent) -> Void)? {
        didSet {
            download.onIntent = onDownload
            Widget(download.widget).isVisible = onDownload != nil
        }
    }
    /// Whether the book shown is downloaded (said in its description).
    private var isDownloaded = false

    /// A card (`book-card.ui`) or a row (`book-row.ui`); the cover and the
    /// download button are views of their own, put in place here.
    init(style: Style) {
        let ui = PageTemplates.load(style == .card ? "book-card" : "book-row")
        let (box, root) = ui.root("root", as: Box.self)
        (widget, self.root) = (box.pointer, root)
        (title, authors, series, duration) = (ui.child("title"), ui.child("authors"), ui.child("series"), ui.child("duration"))
        (progress, finished, playButton) = (ui.child("progress"), ui.child("finished"), ui.child("play"))
        download = DownloadButton(size: style == .card ? 30 : 32)
        Widget(download.widget).isVisible = false
        switch style {
        case .card:
            cover = CoverView(size: 150)
            box.prepend(cover.widget)
            // Play on the cover's lower right corner; the download button
            // (or the downloaded mark) on its lower left, centred on Play's line.
            download.placeOnCover()
            cover.addOverlay(playButton)
            cover.addOverlay(download.widget)
        case .row:
            cover = CoverView(size: 48)
            box.prepend(cover.widget)
            Widget(download.widget).valign = GTK_ALIGN_CENTER
            box.append(download.widget)
            box.append(playButton)
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
        title.text = book.title
        authors.text = book.authors
        series.show(book.series)
        duration.text = Self.duration(book.duration)
        let isFinished = book.progress?.finished == true
        finished.show(isFinished ? tr("Finished") : "")
        if !isFinished, let fraction = book.progress?.fraction, fraction > 0 {
            progress.fraction = fraction
            progress.isVisible = true
        } else {
            progress.isVisible = false
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
    var finishedText: String { finished.text }

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
        DurationText.short(milliseconds)
    }
}
