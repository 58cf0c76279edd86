import CAdwaita
import Foundation
import GtkBridge
import ListenUpCore

/// One of the library's lists (Series, Authors, Narrators): a virtualised
/// GtkListView of rows, each a name and how many books, or a status page
/// when it has nothing to show. Its tree is `data/ui/browse-list.ui`, a
/// row's `browse-row.ui`.
///
/// The view's model is a string list of the items' ids, replaced whole when
/// the list changes (a sort or a search); only the rows on screen exist,
/// made by the factory and bound to `items[position]`.
@MainActor
final class BrowseListView {
    /// One row: its widgets, alive while GTK keeps the list item.
    private struct Row {
        let root: Box
        let name: Label
        let count: Label
    }

    let kind: BrowseKind
    /// The stack of the list and its status page.
    let widget: UnsafeMutablePointer<GtkWidget>
    private let root: GObjectRef<UnsafeMutablePointer<GtkWidget>>
    private let stack: Stack
    /// The `GtkListView`.
    let list: Widget
    let statusPage: StatusPage
    private let ids: GObjectRef<OpaquePointer>
    private let selection: GObjectRef<OpaquePointer>
    /// The items shown, in order: position `n` shows `items[n]`.
    private(set) var items: [BrowseItem] = []
    /// What `show` was last given: nil until the list is read. An empty
    /// list read (the status page) and one not read yet (nothing) both
    /// leave `items` empty; this tells them apart.
    private(set) var shownList: [BrowseItem]?
    private var rows: [Int: Row] = [:]
    private var connections: [SignalConnection] = []
    /// An item was activated (click, Enter).
    var onActivate: (BrowseItem) -> Void = { _ in }
    /// Rows are indented by their depth in the server's genre tree (the
    /// genres in tree order); set before ``show(_:query:)``.
    var indentsByDepth = false

    init(kind: BrowseKind) {
        self.kind = kind
        let ui = PageTemplates.load("browse-list")
        (stack, root) = ui.root("root")
        widget = stack.pointer
        list = ui.child("list")
        statusPage = ui.child("status")
        ids = GObjectRef(taking: newObject(gtk_string_list_new(nil)))
        // The selection model takes a reference to the list of its own.
        selection = GObjectRef(taking: newObject(gtk_no_selection_new(ids.newReference())))
        gtk_list_view_set_model(list.opaque, selection.pointer)
        list.setAccessibleLabel(Self.title(of: kind))
        ui.child("scrolled", as: Widget.self).setAccessibleLabel(Self.title(of: kind))
        // Its inner scrolled window can take focus; give it a name to announce.
        statusPage.scrolledWindow?.setAccessibleLabel(Self.title(of: kind))
        install(factory: gtk_list_view_get_factory(list.opaque))
        connections.append(list.connect(.itemActivate) { [weak self] position in
            guard let self, Int(position) < self.items.count else { return }
            self.onActivate(self.items[Int(position)])
        })
    }

    /// The list's name: the tab's title.
    static func title(of kind: BrowseKind) -> String {
        switch kind {
        case .series: tr("Series")
        case .authors: tr("Authors")
        case .narrators: tr("Narrators")
        case .genres: tr("Genres")
        case .tags: tr("Tags")
        case .moods: tr("Moods")
        case .collections: tr("Collections")
        case .shelves: tr("Shelves")
        }
    }

    /// How far a genre's row moves in per level of the tree.
    static let indent = 24

    /// "12 books".
    static func bookCount(_ count: Int) -> String {
        trn("%@ book", "%@ books", count: count, Localization.number(count))
    }

    private func install(factory: OpaquePointer?) {
        guard let factory else { return }
        connections.append(factory.connect(.listItemSetup) { [weak self] item in
            let ui = PageTemplates.load("browse-row")
            let row = Row(root: ui.child("root"), name: ui.child("name"), count: ui.child("count"))
            withExtendedLifetime(ui) { gtk_list_item_set_child(item, row.root.pointer) }
            self?.rows[Int(bitPattern: item)] = row
        })
        connections.append(factory.connect(.listItemBind) { [weak self] item in
            guard let self, let row = self.rows[Int(bitPattern: item)] else { return }
            let position = Int(gtk_list_item_get_position(item))
            guard self.items.indices.contains(position) else { return }
            let entry = self.items[position]
            row.name.text = entry.name
            row.count.text = Self.bookCount(entry.bookCount)
            row.name.marginStart = self.indentsByDepth ? Self.indent * entry.depth : 0
            // GTK names the row after its type; a screen reader reads this.
            // TRANSLATORS: a row of a list: a name, then how many books (“Dune, 6 books”).
            (gtk_widget_get_parent(row.root.pointer) ?? row.root.pointer)
                .setAccessibleLabel(tr("%@, %@", entry.name, Self.bookCount(entry.bookCount)))
        })
        connections.append(factory.connect(.listItemTeardown) { [weak self] item in
            self?.rows[Int(bitPattern: item)] = nil
        })
    }

    /// Shows `items`, in order, or the status page when there are none:
    /// `query` says whether a search emptied the list. nil: not read yet
    /// (an empty list, no status).
    func show(_ items: [BrowseItem]?, query: String) {
        shownList = items
        let shown = items ?? []
        if shown != self.items {
            let removed = guint(self.items.count)
            self.items = shown
            var strings = shown.map { strdup($0.id) }
            strings.append(nil)
            strings.withUnsafeMutableBufferPointer { buffer in
                buffer.baseAddress?.withMemoryRebound(to: UnsafePointer<CChar>?.self, capacity: buffer.count) { pointer in
                    gtk_string_list_splice(ids.pointer, 0, removed, pointer)
                }
            }
            for string in strings { free(string) }
        }
        guard let items, items.isEmpty else {
            stack.visibleChildName = "list"
            return
        }
        if query.isEmpty {
            statusPage.show(icon: Self.icon(of: kind), title: Self.emptyTitle(of: kind), description: Self.emptyDescription(of: kind))
        } else {
            statusPage.show(icon: "listenup-search-symbolic", title: tr("No Results"), description: tr("No name matches “%@”.", query))
        }
        stack.visibleChildName = "empty"
    }

    /// The names shown, in order (tests).
    var shownNames: [String] { items.map(\.name) }
    /// Whether the status page is shown (tests).
    var showsStatus: Bool { stack.visibleChildName == "empty" }

    private static func icon(of kind: BrowseKind) -> String {
        switch kind {
        case .series: "view-list-bullet-symbolic"
        case .authors, .genres: "avatar-default-symbolic"
        case .narrators: "audio-input-microphone-symbolic"
        case .tags, .moods, .collections: "view-list-bullet-symbolic"
        case .shelves: "view-grid-symbolic"
        }
    }

    private static func emptyTitle(of kind: BrowseKind) -> String {
        switch kind {
        case .series: tr("No Series")
        case .authors: tr("No Authors")
        case .narrators: tr("No Narrators")
        case .genres: tr("No Genres")
        case .tags: tr("No Tags")
        case .moods: tr("No Moods")
        case .collections: tr("No Collections")
        case .shelves: tr("No Shelves")
        }
    }

    private static func emptyDescription(of kind: BrowseKind) -> String {
        switch kind {
        case .series: tr("No book in the library belongs to a series.")
        case .authors: tr("No book in the library names an author.")
        case .narrators: tr("No book in the library names a narrator.")
        case .genres: tr("No book in the library has a genre.")
        case .tags: tr("No book in the library has a tag.")
        case .moods: tr("No book in the library has a mood.")
        case .collections: tr("No book in the library is in a collection.")
        case .shelves: tr("Make a shelf to keep books together.")
        }
    }

    func teardown() {
        for connection in connections { connection.disconnect() }
        connections.removeAll()
    }
}
