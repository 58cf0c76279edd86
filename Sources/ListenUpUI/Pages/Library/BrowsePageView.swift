import CAdwaita
import Foundation
import GtkBridge
import ListenUpCore

/// A series', a person's or a genre's page, over the library: Back, the
/// name, a genre's parents, the description, Play Next Unfinished (a
/// series) and the books, grouped by the person's role on a person's
/// page. Its tree is `data/ui/browse-page.ui`, a book's row a ``TextRow``
/// ending in `browse-page-book.ui`. A page's books are a few dozen at most (a
/// series, a person); they are rows of a `GtkListBox`, not a virtualised
/// view.
@MainActor
final class BrowsePageView {
    let widget: UnsafeMutablePointer<GtkWidget>
    private let root: GObjectRef<UnsafeMutablePointer<GtkWidget>>
    /// The page shown.
    let key: BrowseModel.PageKey
    /// Its name in the stack of pages.
    let name: String
    let backButton: Button
    let ui: Template
    private let groups: Box
    private let parents: Box
    private let actions: Box
    private(set) var shown: BrowseModel.Page?
    private var connections: [SignalConnection] = []
    /// The connections of what ``show(_:canPlay:)`` made, dropped at the next.
    private var contentConnections: [SignalConnection] = []
    /// The rows' book ids, by the row's address.
    private var rowBooks: [Int: String] = [:]
    /// Play Next Unfinished (series pages with a player).
    private(set) var playNextButton: ListenUpButton?
    /// The parents' buttons (genre pages), the root first.
    private(set) var parentButtons: [(id: String, button: Button)] = []
    /// The lists of books, one per group.
    private(set) var bookLists: [ListBox] = []
    /// The genres right under this one (genre pages of the server's tree).
    private let childrenBox: Box
    /// Their list and rows, with the genre each opens (tests).
    private(set) var childList: ListBox?
    private(set) var childRows: [(id: String, row: TextRow)] = []

    /// Back was pressed.
    var onBack: () -> Void = {}
    /// A book was activated: its details.
    var onSelect: (String) -> Void = { _ in }
    /// Plays a book; nil: no player, no Play buttons.
    var onPlay: ((String) -> Void)?
    /// Play Next Unfinished was pressed.
    var onPlayNext: () -> Void = {}
    /// A parent genre was pressed.
    var onOpen: (BrowsePageKind, String) -> Void = { _, _ in }
    /// Reads the page's photo or cover (``BrowseModel/image(for:)``); nil: none is shown.
    var loadImage: ((BrowsePageContents) async -> CoverData?)?
    /// The image shown or being read, and its read.
    var image: (path: String?, task: Task<Void, Never>?) = (nil, nil)
    /// Edit Shelf… (the user's shelf pages; nil: not offered).
    var onEditShelf: (() -> Void)?
    /// Delete Shelf… (the user's shelf pages).
    var onDeleteShelf: (() -> Void)?
    /// Remove from Shelf on a book's row (the user's shelf pages; nil: not offered).
    var onRemoveFromShelf: ((String) -> Void)?
    /// Edit Shelf… and Delete Shelf… when shown (tests).
    private(set) var shelfButtons: (edit: ListenUpButton, delete: Button)?
    /// The Remove from Shelf buttons, by book id (tests).
    private(set) var removeButtons: [String: Button] = [:]

    init(page: BrowseModel.Page, name: String) {
        key = page.key
        self.name = name
        ui = PageTemplates.load("browse-page")
        let box: Box
        (box, root) = ui.root("root")
        widget = box.pointer
        (backButton, groups, parents, actions) = (ui.child("back"), ui.child("groups"), ui.child("parents"), ui.child("actions"))
        childrenBox = ui.child("children-box")
        ui.child("scrolled", as: Widget.self).setAccessibleLabel(Self.kindName(page.contents.kind))
        connections.append(backButton.connect(.clicked) { [weak self] in self?.onBack() })
    }

    /// What kind of page: "Book Series", "Person", "Genre".
    static func kindName(_ kind: BrowsePageKind) -> String {
        switch kind {
        case .series: tr("Book Series")
        case .contributor: tr("Person")
        case .genre: tr("Genre")
        case .tag: tr("Tag")
        case .mood: tr("Mood")
        case .collection: tr("Collection")
        case .shelf: tr("Shelf")
        }
    }

    /// Shows `page` (again, when its books or their progress changed).
    func show(_ page: BrowseModel.Page, canPlay: Bool) {
        guard page != shown else { return }
        shown = page
        contentConnections = []
        let contents = page.contents
        ui.child("kind", as: Label.self).text = Self.kindName(contents.kind)
        ui.child("title", as: Label.self).text = contents.name
        let count = BrowseListView.bookCount(page.books.count)
        // TRANSLATORS: someone else's shelf: whose it is, then how many books, e.g. “By Mara · 3 books”.
        ui.child("summary", as: Label.self).text = contents.owner.map { tr("By %@ · %@", $0.name, count) } ?? count
        ui.child("description", as: Label.self).show(contents.description ?? "")
        showImage(contents)
        showParents(contents.parents)
        showChildren(contents.children)
        showActions(page, canPlay: canPlay)
        showBooks(page, canPlay: canPlay)
    }

    private func showParents(_ chain: [BrowseItem]) {
        parents.removeAll()
        parentButtons = []
        parents.isVisible = !chain.isEmpty
        for (index, parent) in chain.enumerated() {
            if index > 0 {
                let separator = Label(unchecked: newObject(gtk_label_new("›")))
                separator.setCSSClass("dim-label", true)
                parents.append(separator)
            }
            let button = Self.linkButton(parent.name)
            button.tooltip = tr("Open %@", parent.name)
            contentConnections.append(button.connect(.clicked) { [weak self] in self?.onOpen(.genre, parent.id) })
            parents.append(button)
            parentButtons.append((parent.id, button))
        }
    }

    /// The genres right under a genre, each a row opening its page.
    private func showChildren(_ items: [BrowseItem]) {
        if let childList { childrenBox.remove(childList) }
        childList = nil
        childRows = []
        childrenBox.isVisible = !items.isEmpty
        guard !items.isEmpty else { return }
        let list = ListBox(unchecked: newObject(gtk_list_box_new()))
        gtk_list_box_set_selection_mode(list.opaque, GTK_SELECTION_NONE)
        list.setCSSClass("boxed-list", true)
        list.setAccessibleLabel(tr("Genres"))
        for item in items {
            let row = TextRow(title: item.name, subtitle: BrowseListView.bookCount(item.bookCount))
            (row.isActivatable, row.showsArrow) = (true, true)
            // TRANSLATORS: a button opening a page: what it opens, and how many books (“Dune, 6 books”).
            row.setAccessibleLabel(tr("%@, %@", item.name, BrowseListView.bookCount(item.bookCount)))
            list.append(row)
            childRows.append((item.id, row))
        }
        contentConnections.append(list.connect(.rowActivated) { [weak self] row in
            guard let self, let id = self.childRows.first(where: { Int(bitPattern: $0.row.pointer) == Int(bitPattern: row) })?.id else { return }
            self.onOpen(.genre, id)
        })
        childrenBox.append(list)
        childList = list
    }

    /// Whether the page is one of the user's shelves, with its changes offered.
    private func isMyShelf(_ page: BrowseModel.Page) -> Bool {
        page.contents.kind == .shelf && page.contents.owner == nil && onEditShelf != nil
    }

    private func showActions(_ page: BrowseModel.Page, canPlay: Bool) {
        actions.removeAll()
        playNextButton = nil
        shelfButtons = nil
        if isMyShelf(page) {
            actions.isVisible = true
            let edit = ListenUpButton(title: tr("Edit Shelf…"))
            edit.onClick { [weak self] in self?.onEditShelf?() }
            // Deleting is not the page's main action: a plain, destructive pill.
            let delete = Button(unchecked: newObject(gtk_button_new_with_label(tr("Delete Shelf…"))))
            delete.setCSSClass("pill", true)
            delete.setCSSClass("destructive-action", true)
            delete.setAccessibleLabel(tr("Delete Shelf…"))
            contentConnections.append(delete.connect(.clicked) { [weak self] in self?.onDeleteShelf?() })
            actions.append(edit.widget)
            actions.append(delete)
            shelfButtons = (edit, delete)
            return
        }
        let show = canPlay && page.contents.kind == .series && !page.books.isEmpty
        actions.isVisible = show
        guard show else { return }
        let button = ListenUpButton(title: tr("Play Next Unfinished"))
        button.onClick { [weak self] in self?.onPlayNext() }
        actions.append(button.widget)
        playNextButton = button
    }

    /// The books: one list on a series' or a genre's page; on a person's,
    /// a list per role, Author, Narrator and Translator first.
    private func showBooks(_ page: BrowseModel.Page, canPlay: Bool) {
        groups.removeAll()
        rowBooks = [:]
        bookLists = []
        removeButtons = [:]
        let removable = isMyShelf(page) && onRemoveFromShelf != nil
        for (heading, books) in Self.groups(of: page) {
            let label = Label(unchecked: newObject(gtk_label_new(heading)))
            gtk_label_set_xalign(label.opaque, 0)
            label.setCSSClass("heading", true)
            groups.append(label)
            let list = ListBox(unchecked: newObject(gtk_list_box_new()))
            gtk_list_box_set_selection_mode(list.opaque, GTK_SELECTION_NONE)
            list.setCSSClass("boxed-list", true)
            list.setAccessibleLabel(heading)
            for book in books { addRow(for: book, on: page.contents.kind, canPlay: canPlay, removable: removable, to: list) }
            contentConnections.append(list.connect(.rowActivated) { [weak self] row in
                guard let self, let id = self.rowBooks[Int(bitPattern: row)] else { return }
                self.onSelect(id)
            })
            groups.append(list)
            bookLists.append(list)
        }
    }

    /// The groups of `page`'s books under their headings.
    static func groups(of page: BrowseModel.Page) -> [(String, [BrowseModel.PageBook])] {
        guard page.contents.kind == .contributor else { return [(tr("Books"), page.books)] }
        let roles = Set(page.books.flatMap(\.entry.roles))
        let first = ["author", "narrator", "translator"]
        let ordered = first.filter(roles.contains) + roles.subtracting(first).sorted()
        return ordered.map { role in (BookDetailsPanel.role(role), page.books.filter { $0.entry.roles.contains(role) }) }
    }

    /// Adds `book`'s row to `list`.
    private func addRow(for book: BrowseModel.PageBook, on kind: BrowsePageKind, canPlay: Bool, removable: Bool, to list: ListBox) {
        let ui = PageTemplates.load("browse-page-book")
        withExtendedLifetime(ui) {
            let row = TextRow(titleLines: 2)
            row.isActivatable = true
            row.addSuffix(ui.child("root", as: Box.self))
            row.title = book.entry.title
            var subtitle: [String] = []
            if kind == .series, let sequence = book.entry.sequence, !sequence.isEmpty {
                // TRANSLATORS: a book's place in its series, e.g. “Book 2”.
                subtitle.append(tr("Book %@", sequence))
            }
            if let authors = book.book?.authors, !authors.isEmpty { subtitle.append(authors) }
            row.subtitle = subtitle.joined(separator: " · ")
            let progress: Label = ui.child("progress")
            progress.text = book.book?.progress.map { progress in
                progress.finished
                    ? tr("Finished")
                    // TRANSLATORS: %@ is a whole percentage, e.g. “42 % listened”.
                    : tr("%@ % listened", Localization.number(Int(progress.fraction * 100)))
            } ?? ""
            progress.isVisible = !progress.text.isEmpty
            let play: Button = ui.child("play")
            play.isVisible = canPlay && onPlay != nil
            play.tooltip = tr("Play")
            play.setAccessibleLabel(tr("Play %@", book.entry.title))
            let id = book.id
            contentConnections.append(play.connect(.clicked) { [weak self] in self?.onPlay?(id) })
            let remove: Button = ui.child("remove")
            remove.isVisible = removable
            if removable {
                remove.tooltip = tr("Remove from Shelf")
                // TRANSLATORS: a button on a shelf's page; %@ is the book's title.
                remove.setAccessibleLabel(tr("Remove %@ from the Shelf", book.entry.title))
                contentConnections.append(remove.connect(.clicked) { [weak self] in self?.onRemoveFromShelf?(id) })
                removeButtons[id] = remove
            }
            rowBooks[Int(bitPattern: row.pointer)] = id
            list.append(row)
        }
    }

    /// A flat button that reads as a link.
    static func linkButton(_ text: String) -> Button {
        let button = Button(unchecked: newObject(gtk_button_new_with_label(text)))
        button.setCSSClass("flat", true)
        button.setCSSClass("link", true)
        button.setCSSClass("details-link", true)
        button.setAccessibleLabel(text)
        return button
    }

    /// The books shown, in order, by group (tests).
    var shownGroups: [(String, [String])] {
        shown.map { Self.groups(of: $0).map { ($0.0, $0.1.map(\.entry.title)) } } ?? []
    }

    /// Activates the row of `bookID` (tests).
    func rowWidget(for bookID: String) -> UnsafeMutablePointer<GtkWidget>? {
        rowBooks.first { $0.value == bookID }.flatMap { UnsafeMutablePointer<GtkWidget>(bitPattern: $0.key) }
    }

    func teardown() {
        image.task?.cancel()
        for connection in connections + contentConnections { connection.disconnect() }
        connections.removeAll()
        contentConnections.removeAll()
    }
}
