import CAdwaita
import GtkBridge
import ListenUpCore

/// The side panel with one book's details: cover, title, Play and Mark as
/// Finished, the download control (``DownloadControl``), people with their
/// roles, description (HTML already stripped by the model), chapters.
/// With browsing (``onOpen``), each person, series, genre, tag, mood and
/// collection the book links to is a button that opens its page.
/// The panel is in the library page's template (`library-page.ui`); what
/// it shows of a book is `book-details.ui`, made afresh for each book.
@MainActor
final class BookDetailsPanel {
    let box: Box
    let closeButton: Button
    /// Holds the book shown (`book-details.ui`'s tree).
    private let scrolled: ScrolledWindow
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
    /// The session's shelves (nil: no Add to Shelf).
    var shelves: ShelvesModel?
    /// New Shelf… from Add to Shelf, with the book's id.
    var onNewShelf: ((String) -> Void)?
    /// A preview opens Add to Shelf's popover for its screenshot.
    var opensAddToShelf = false
    /// Add to Shelf of the book shown (tests).
    private(set) var addToShelf: AddToShelfButton?
    /// Opens a person's, a series' or a genre's page (nil: no browsing, no links).
    var onOpen: (@MainActor (BrowsePageKind, String) -> Void)?
    /// The links of the book shown, with what each opens (tests).
    private(set) var linkButtons: [(kind: BrowsePageKind, id: String, button: Button)] = []
    private var linkConnections: [SignalConnection] = []

    /// - Parameter template: the library page's, which holds the panel.
    init(template: Template) {
        (box, closeButton, scrolled) = (template.child("details"), template.child("details-close"), template.child("details-scrolled"))
    }

    /// Shows `details`; `loadCover` fills the cover view.
    func show(_ details: LibraryModel.Details, loadCover: (CoverView) -> Task<Void, Never>?) {
        guard details != shown else { return }
        shown = details
        coverTask?.cancel()
        downloadControl?.teardown()
        downloadControl = nil
        // The template's builder holds the tree until it is in the panel.
        let ui = PageTemplates.load("book-details")
        defer { withExtendedLifetime(ui) {} }
        let content: Box = ui.child("root")
        let cover = CoverView(size: 200)
        self.cover = cover
        Widget(cover.widget).marginBottom = 8
        content.prepend(cover.widget)
        coverTask = loadCover(cover)
        showTexts(of: details, from: ui)
        showActions(of: details, from: ui)
        scrolled.setChild(content)
    }

    /// The book's texts, each line hidden when the book has nothing for it.
    private func showTexts(of details: LibraryModel.Details, from ui: Template) {
        let book = details.book
        func label(_ id: String, _ text: String) { ui.child(id, as: Label.self).show(text) }
        label("title", book.title)
        label("subtitle", details.subtitle ?? "")
        label("authors", book.authors)
        label("series", book.series)
        let facts = [BookCell.duration(book.duration), details.publisher ?? "", details.publishYear ?? ""].filter { !$0.isEmpty }
        label("facts", facts.joined(separator: " · "))
        let listened = book.progress.map { progress in
            progress.finished
                ? tr("Finished")
                // TRANSLATORS: %@ is a whole percentage, e.g. “42 % listened”.
                : tr("%@ % listened", Localization.number(Int(progress.fraction * 100)))
        }
        label("listened", listened ?? "")
        ui.child("description-heading", as: Label.self).isVisible = !details.description.isEmpty
        label("description", details.description)

        let peopleHeading: Label = ui.child("people-heading")
        peopleHeading.isVisible = !details.contributors.isEmpty
        linkButtons = []
        linkConnections = []
        if onOpen != nil, !details.links.people.isEmpty || !details.links.series.isEmpty || !details.links.genres.isEmpty {
            showLinks(details.links, from: ui)
        } else {
            showPeople(details.contributors, from: ui)
        }

        let count = details.chapters.count
        label("chapters-heading", count == 0 ? "" : trn("%@ Chapter", "%@ Chapters", count: count, Localization.number(count)))
        let list: ListBox = ui.child("chapters")
        list.isVisible = count > 0
        for chapter in details.chapters {
            let row = TextRow()
            row.title = chapter.title
            row.subtitle = Self.timestamp(chapter.start)
            list.append(row)
        }
    }

    /// The people as lines of text (no browsing, or no links known).
    private func showPeople(_ people: [BookDetails.Person], from ui: Template) {
        let content: Box = ui.child("root")
        var previous = ui.child("people-heading", as: Widget.self)
        for person in people {
            withNewRoot("book-details-person") { (line: Label) in
                // TRANSLATORS: a contributor: their name, then their roles (e.g. “Ray Porter — Narrator”).
                line.text = tr("%@ — %@", person.name, person.roles.map(Self.role).joined(separator: ", "))
                content.insert(line, after: previous)
                previous = Widget(line)
            }
        }
    }

    /// The people, series and genres as buttons opening their pages.
    private func showLinks(_ links: BookLinks, from ui: Template) {
        let content: Box = ui.child("root")
        let peopleHeading: Label = ui.child("people-heading")
        peopleHeading.isVisible = !links.people.isEmpty
        var previous = Widget(peopleHeading)
        // One button per person, with every role they have on the book.
        var people: [(id: String, name: String, roles: [String])] = []
        for person in links.people {
            if let index = people.firstIndex(where: { $0.id == person.id }) {
                people[index].roles.append(person.role)
            } else {
                people.append((person.id, person.name, [person.role]))
            }
        }
        for person in people {
            link(tr("%@ — %@", person.name, person.roles.map(Self.role).joined(separator: ", ")), opens: .contributor, person.id) { button in
                content.insert(button, after: previous)
                previous = Widget(button.pointer)
            }
        }
        let seriesLinks: Box = ui.child("series-links")
        seriesLinks.isVisible = !links.series.isEmpty
        if !links.series.isEmpty { ui.child("series", as: Label.self).isVisible = false }
        for place in links.series {
            let text = place.sequence.map { $0.isEmpty ? place.name : "\(place.name) · \(tr("Book %@", $0))" } ?? place.name
            link(text, opens: .series, place.id) { seriesLinks.append($0) }
        }
        let genres: Box = ui.child("genres")
        ui.child("genres-heading", as: Label.self).isVisible = !links.genres.isEmpty
        genres.isVisible = !links.genres.isEmpty
        for genre in links.genres { link(genre.name, opens: .genre, genre.id) { genres.append($0) } }
        // Its tags, moods (none on REST v1: no heading either) and collections.
        for (name, facets, kind) in [("tags", links.tags, BrowsePageKind.tag), ("moods", links.moods, .mood),
                                     ("collections", links.collections, .collection)] {
            let box: Box = ui.child(name)
            ui.child("\(name)-heading", as: Label.self).isVisible = !facets.isEmpty
            box.isVisible = !facets.isEmpty
            for facet in facets { link(facet.name, opens: kind, facet.id) { box.append($0) } }
        }
    }

    /// A button (`book-details-link.ui`) showing `text` that opens `kind`'s
    /// page of `id`, handed to `place`, which gives it a parent.
    private func link(_ text: String, opens kind: BrowsePageKind, _ id: String, _ place: (Button) -> Void) {
        withNewRoot("book-details-link") { (button: Button) in
            if let label = gtk_button_get_child(button.pointer.cast(to: GtkButton.self)) { Label(unchecked: label).text = text }
            button.setAccessibleLabel(text)
            linkConnections.append(button.connect(.clicked) { [weak self] in self?.onOpen?(kind, id) })
            linkButtons.append((kind, id, button))
            place(button)
        }
    }

    /// Play and Mark as Finished (or Not Started), and Mark as Not Started
    /// for a book under way, when there is a player; then the download
    /// control, when there are downloads.
    private func showActions(of details: LibraryModel.Details, from ui: Template) {
        let book = details.book
        let (content, actions, mark, restart): (Box, Box, Button, Button) = (ui.child("root"), ui.child("actions"), ui.child("mark"), ui.child("restart"))
        buttonConnections = []
        playButton = nil
        let finished = book.progress?.finished == true
        actions.isVisible = canPlay
        restart.isVisible = canPlay && !finished && (book.progress?.fraction ?? 0) > 0
        if canPlay {
            let play = ListenUpButton(title: tr("Play"))
            play.onClick { [weak self] in self?.onPlay?(book.id) }
            playButton = play
            actions.prepend(play.widget)
            mark.label = finished ? tr("Mark as Not Started") : tr("Mark as Finished")
            mark.setAccessibleLabel(mark.label)
            buttonConnections.append(mark.connect(.clicked) { [weak self] in self?.onMarkFinished?(book.id, !finished) })
            buttonConnections.append(restart.connect(.clicked) { [weak self] in self?.onMarkFinished?(book.id, false) })
        }
        if let downloads {
            let control = DownloadControl(bookID: book.id, size: details.downloadSize, downloads: downloads) { [weak self] intent in
                self?.onDownload?(intent)
            }
            control.box.marginBottom = 4
            content.insert(control.box, after: restart)
            downloadControl = control
        }
        addToShelf?.teardown()
        addToShelf = nil
        if let shelves {
            let add = AddToShelfButton(bookID: book.id, shelves: shelves)
            add.onNewShelf = { [weak self] id in self?.onNewShelf?(id) }
            if opensAddToShelf { add.openWhenShown() }
            content.insert(add.button, after: restart)
            addToShelf = add
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

/// Makes the template `name` and hands its root to `use`, which gives it a
/// parent: the template's builder holds the root until then.
@MainActor
private func withNewRoot<W: WidgetHandle>(_ name: String, _ use: (W) -> Void) {
    let ui = PageTemplates.load(name)
    withExtendedLifetime(ui) { use(ui.child("root")) }
}
