import CAdwaita
import Foundation
import GtkBridge
import ListenUpCore

/// The books, as a virtualised GtkGridView of cards or a GtkListView of rows
/// (one shared model, a GtkStringList of book ids). Only the cells on screen
/// (plus a few GTK keeps ready) exist; they are re-bound while scrolling.
/// A new list of books becomes one splice of the changed middle, so a live
/// insertion does not rebuild the view or lose the scroll position.
@MainActor
final class BookCollectionView {
    let widget: UnsafeMutablePointer<GtkWidget>
    let grid: UnsafeMutablePointer<GtkWidget>
    let list: UnsafeMutablePointer<GtkWidget>
    private let strings: OpaquePointer
    /// The selection model over `strings`, given to the visible view only.
    private let selection: OpaquePointer
    private let model: LibraryModel
    private var ids: [String] = []
    private var books: [String: LibraryModel.Book] = [:]
    /// The cells alive now, by their GtkListItem's address.
    private var cells: [Int: BookCell] = [:]
    /// Decoded covers, a few more than the cells GTK 4.8's grid keeps alive
    /// (~400 at 1000×700): with fewer, clearing a search decoded the first
    /// screens' covers again.
    private let textures = CoverTextureCache(capacity: 512)
    private var connections: [SignalConnection] = []
    /// A book was activated (click, Enter).
    var onActivate: (String) -> Void = { _ in }

    init(model: LibraryModel) {
        self.model = model
        strings = gtk_string_list_new(nil)
        // The selection model takes the string list; each view takes a
        // reference to the selection model.
        selection = newObject(gtk_no_selection_new(strings))
        g_object_ref(UnsafeMutableRawPointer(strings))

        // The views start without a model: `setLayout` gives it to the one
        // shown, so the hidden one keeps no cells.
        let gridFactory = gtk_signal_list_item_factory_new()
        let listFactory = gtk_signal_list_item_factory_new()
        grid = newObject(gtk_grid_view_new(nil, gridFactory))
        list = newObject(gtk_list_view_new(nil, listFactory))
        gtk_grid_view_set_min_columns(grid.opaque, 1)
        // GTK 4.8 keeps cells for 30 rows of max-columns items, whatever
        // fits: 8 columns (a 1,700 px wide window of cards) keeps ~250 cells
        // instead of ~385 with 12, and a search re-binds that many.
        gtk_grid_view_set_max_columns(grid.opaque, 8)
        gtk_grid_view_set_single_click_activate(grid.opaque, 1)
        gtk_list_view_set_single_click_activate(list.opaque, 1)
        grid.addClasses(StyleClass("book-grid"))
        list.addClasses(StyleClass("book-list"))
        grid.setAccessibleLabel(tr("Books"))
        list.setAccessibleLabel(tr("Books"))

        widget = newObject(gtk_stack_new())
        gtk_stack_set_transition_type(widget.opaque, GTK_STACK_TRANSITION_TYPE_CROSSFADE)
        for (name, view) in [("grid", grid), ("list", list)] {
            let scrolled = newObject(gtk_scrolled_window_new())
            gtk_scrolled_window_set_policy(scrolled.opaque, GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC)
            gtk_scrolled_window_set_child(scrolled.opaque, view)
            gtk_widget_set_vexpand(scrolled, 1)
            scrolled.setAccessibleLabel(tr("Books"))
            gtk_stack_add_named(widget.opaque, scrolled, name)
        }

        install(factory: gridFactory, style: .card)
        install(factory: listFactory, style: .row)
        for view in [grid, list] {
            connections.append(view.connect(.activate, trampoline: positionTrampoline, body: { [weak self] (position: UInt32) in
                guard let self, Int(position) < self.ids.count else { return }
                self.onActivate(self.ids[Int(position)])
            }))
        }
    }

    isolated deinit {
        g_object_unref(UnsafeMutableRawPointer(selection))
        g_object_unref(UnsafeMutableRawPointer(strings))
    }

    /// Shows `layout`; only its view holds the books (and so cells).
    func setLayout(_ layout: LibraryLayout) {
        let current = layout == .grid ? gtk_grid_view_get_model(grid.opaque) : gtk_list_view_get_model(list.opaque)
        if current == nil {
            if layout == .grid {
                gtk_list_view_set_model(list.opaque, nil)
                gtk_grid_view_set_model(grid.opaque, selection)
            } else {
                gtk_grid_view_set_model(grid.opaque, nil)
                gtk_list_view_set_model(list.opaque, selection)
            }
        }
        gtk_stack_set_visible_child_name(widget.opaque, layout.rawValue)
    }

    /// The view shown now.
    func visibleView(for layout: LibraryLayout) -> UnsafeMutablePointer<GtkWidget> {
        layout == .grid ? grid : list
    }

    /// Shows `visible`, in order.
    func show(_ visible: [LibraryModel.Book]) {
        var byID: [String: LibraryModel.Book] = [:]
        byID.reserveCapacity(visible.count)
        for book in visible { byID[book.id] = book }
        let newIDs = visible.map(\.id)
        let changedBooks = books
        books = byID
        if newIDs != ids {
            // Splice only what changed between the common prefix and suffix.
            let prefix = zip(ids, newIDs).prefix { $0 == $1 }.count
            let maxSuffix = min(ids.count, newIDs.count) - prefix
            var suffix = 0
            while suffix < maxSuffix, ids[ids.count - 1 - suffix] == newIDs[newIDs.count - 1 - suffix] { suffix += 1 }
            let removed = ids.count - prefix - suffix
            let added = Array(newIDs[prefix..<(newIDs.count - suffix)])
            ids = newIDs
            splice(at: prefix, removing: removed, adding: added)
        }
        // Cells whose book changed (title, progress, …) are re-bound.
        for cell in cells.values {
            guard let id = cell.bookID, let book = byID[id], changedBooks[id] != book else { continue }
            bind(cell, to: book)
        }
    }

    private func splice(at position: Int, removing removed: Int, adding added: [String]) {
        var pointers = added.map { strdup($0) }
        pointers.append(nil)
        defer { for pointer in pointers { free(pointer) } }
        pointers.withUnsafeBufferPointer { buffer in
            buffer.baseAddress?.withMemoryRebound(to: UnsafePointer<CChar>?.self, capacity: buffer.count) { additions in
                gtk_string_list_splice(strings, guint(position), guint(removed), additions)
            }
        }
    }

    /// Binds every live cell again: covers that could not be asked for
    /// before (no client yet) are fetched now.
    func rebindAll() {
        for cell in cells.values {
            guard let id = cell.bookID, let book = books[id] else { continue }
            bind(cell, to: book)
        }
    }

    /// How many book cells exist now (bounded by the viewport, not the library).
    var liveCellCount: Int { cells.count }

    /// Decoded covers held for scrolling back.
    var cachedTextureCount: Int { textures.count }

    // MARK: Cells

    private func install(factory: OpaquePointer?, style: BookCell.Style) {
        guard let factory else { return }
        let object = UnsafeMutableRawPointer(factory)
        connections.append(object.connect(.custom("setup"), trampoline: pointerArgumentTrampoline, body: { [weak self] (item: UnsafeMutableRawPointer?) in
            guard let self, let item else { return }
            let cell = BookCell(style: style)
            gtk_list_item_set_child(OpaquePointer(item), cell.widget)
            self.cells[Int(bitPattern: item)] = cell
        }))
        connections.append(object.connect(.custom("bind"), trampoline: pointerArgumentTrampoline, body: { [weak self] (item: UnsafeMutableRawPointer?) in
            guard let self, let item, let cell = self.cells[Int(bitPattern: item)],
                  let object = gtk_list_item_get_item(OpaquePointer(item)),
                  let id = gtk_string_object_get_string(OpaquePointer(object)).map({ String(cString: $0) }),
                  let book = self.books[id] else { return }
            self.bind(cell, to: book)
        }))
        connections.append(object.connect(.custom("unbind"), trampoline: pointerArgumentTrampoline, body: { [weak self] (item: UnsafeMutableRawPointer?) in
            guard let self, let item else { return }
            self.cells[Int(bitPattern: item)]?.unbind()
        }))
        connections.append(object.connect(.custom("teardown"), trampoline: pointerArgumentTrampoline, body: { [weak self] (item: UnsafeMutableRawPointer?) in
            guard let self, let item else { return }
            self.cells.removeValue(forKey: Int(bitPattern: item))?.unbind()
        }))
    }

    private func bind(_ cell: BookCell, to book: LibraryModel.Book) {
        cell.coverTask?.cancel()
        cell.bind(book)
        let pixels = cell.cover.size * Int(max(1, gtk_widget_get_scale_factor(cell.widget)))
        let key = CoverTextureCache.key(book, size: pixels)
        if let texture = textures[key] {
            cell.cover.show(texture)
            return
        }
        guard book.hasCover else { return }
        let model = model
        cell.coverTask = Task { [weak self, weak cell] in
            guard let data = await model.cover(for: book), !Task.isCancelled,
                  let texture = await CoverTexture.decode(data.bytes, size: pixels) else { return }
            self?.textures[key] = texture
            guard !Task.isCancelled, let cell, cell.bookID == book.id else { return }
            cell.cover.show(texture)
        }
    }

    /// A cover for `book` at `size` points, through the same caches (the
    /// details panel).
    func loadCover(for book: LibraryModel.Book, into view: CoverView) -> Task<Void, Never>? {
        view.showPlaceholder(for: book.title)
        let pixels = view.size * Int(max(1, gtk_widget_get_scale_factor(view.widget)))
        let key = CoverTextureCache.key(book, size: pixels)
        if let texture = textures[key] {
            view.show(texture)
            return nil
        }
        guard book.hasCover else { return nil }
        let model = model
        return Task { [weak self, weak view] in
            guard let data = await model.cover(for: book), !Task.isCancelled,
                  let texture = await CoverTexture.decode(data.bytes, size: pixels) else { return }
            self?.textures[key] = texture
            guard !Task.isCancelled else { return }
            view?.show(texture)
        }
    }
}
