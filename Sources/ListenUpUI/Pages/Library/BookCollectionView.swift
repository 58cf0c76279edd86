import CAdwaita
import Foundation
import GtkBridge
import ListenUpCore

/// The books, as a virtualised GtkGridView of cards or a GtkListView of rows.
/// Only the cells on screen (plus the rows GTK keeps ready) exist; they are
/// re-bound while scrolling.
///
/// The views' model holds positions, not books: item *n* shows
/// `booksShown[n]`, and a new list of books only adds or removes positions at
/// the end. GTK 4.8 keeps a cell only for an item object it gets back in the
/// same `items-changed`, so positions that stay keep their cells, which are
/// bound again to their new books: at once those that can be on screen, the
/// others (transparent meanwhile) once the frame showing the results is
/// painted, or as soon as the view scrolls (see
/// `BookCollectionView+DeferredBinding.swift`).
@MainActor
final class BookCollectionView {
    /// The stack of the grid's and the list's scrolled windows.
    let widget: UnsafeMutablePointer<GtkWidget>
    /// The collection's own reference to the stack (the page adds it to its
    /// own stack after the template that made it has gone).
    private let root: GObjectRef<UnsafeMutablePointer<GtkWidget>>
    let grid: UnsafeMutablePointer<GtkWidget>
    let list: UnsafeMutablePointer<GtkWidget>
    /// One item per position shown (its string is unused).
    let positionList: GObjectRef<OpaquePointer>
    var positions: OpaquePointer { positionList.pointer }
    /// The selection model over `positions`, given to the visible view only.
    let selectionModel: GObjectRef<OpaquePointer>
    var selection: OpaquePointer { selectionModel.pointer }
    let model: LibraryModel
    /// The books shown, in order: position `n` shows `booksShown[n]`.
    var booksShown: [LibraryModel.Book] = []
    /// The cells alive now, by their GtkListItem's address.
    var cells: [Int: BookCell] = [:]
    /// Decoded covers for scrolling back and for clearing a search: about
    /// three screens of cards (8 MiB: 93 square covers at card size, 140 of
    /// 2:3), at most 256.
    let textures = CoverTextureCache(capacity: 256, byteBudget: 8 << 20)
    var connections: [SignalConnection] = []
    /// Cells waiting for their book, by their GtkListItem's address.
    var waiting: Set<Int> = []
    /// Adds the positions not added yet and binds the waiting cells.
    var finishing: MainLoopSource?
    /// The last sizes of the shown view and of one of its cells (items).
    var lastSizes: (view: (width: Float, height: Float)?, cell: (width: Float, height: Float)?) = (nil, nil)
    /// Bound cells whose cover is fetched once typing pauses.
    var coverless: Set<ObjectIdentifier> = []
    /// Set while the cells off screen are bound after a search.
    var bindingOffScreen = false
    /// Fetches the covers of `coverless` after a pause.
    var coverPause: MainLoopSource?
    /// Waits for the view to be shown before finishing what a show began.
    var untilMapped: SignalConnection?
    /// Works out the columns that fit after the grid's width changed.
    var fitting: MainLoopSource?
    /// Set while the page itself scrolls the view (a new search starts at
    /// the top), which must not bind the waiting cells at once.
    var scrollingItself = false
    /// A book was activated (click, Enter).
    var onActivate: (String) -> Void = { _ in }
    /// Plays a book (a card's Play button); nil: no player, no buttons.
    var onPlay: (@MainActor (String) -> Void)? {
        didSet { for cell in cells.values { cell.onPlay = onPlay } }
    }
    /// Sends a card's download intents; nil: no downloads, no buttons.
    var onDownload: (@MainActor (DownloadsModel.Intent) -> Void)? {
        didSet { for cell in cells.values { cell.onDownload = onDownload } }
    }
    /// The downloads as the cells last showed them, by book id.
    var downloadsShown: [String: DownloadsModel.Item] = [:]
    /// Follows the session's downloads for the cells (one for all of them).
    var downloadsObservation: StateObservation?

    init(model: LibraryModel) {
        self.model = model
        positionList = GObjectRef(taking: newObject(gtk_string_list_new(nil)))
        // The selection model takes a reference to the list of its own; each
        // view takes one to the selection model.
        selectionModel = GObjectRef(taking: newObject(gtk_no_selection_new(positionList.newReference())))

        // The stack, the scrolled windows and the views (`book-collection.ui`).
        // The views start without a model: `setLayout` gives it to the one
        // shown, so the hidden one keeps no cells.
        let ui = PageTemplates.load("book-collection")
        let (stack, root) = ui.root("root", as: Stack.self)
        (widget, self.root) = (stack.pointer, root)
        grid = ui.child("grid", as: Widget.self).pointer
        list = ui.child("list", as: Widget.self).pointer
        // GTK 4.8 keeps cells for 32 rows of `max-columns` items, whatever
        // fits, so `max-columns` follows the columns that fit (see
        // `fitColumns`), up to 8 (a 1,700 px wide window of cards).
        gtk_grid_view_set_max_columns(grid.opaque, guint(Self.mostColumns))
        let gridFactory = gtk_grid_view_get_factory(grid.opaque)
        let listFactory = gtk_list_view_get_factory(list.opaque)

        install(factory: gridFactory, style: .card)
        install(factory: listFactory, style: .row)
        followScrollingAndActivation()
    }

    /// Follows the views' scrolling (the columns that fit, cells scrolled
    /// into view) and their activated items.
    private func followScrollingAndActivation() {
        // The grid's width is its horizontal adjustment's page size, set on
        // each allocation: the columns that fit are worked out after it.
        if let adjustment = gtk_scrollable_get_hadjustment(grid.opaque) {
            connections.append(adjustment.connect(.changed) { [weak self] in
                guard let self, self.fitting == nil else { return }
                self.fitting = MainContext.timeout(after: .zero) { [weak self] in
                    self?.fitting = nil
                    self?.fitColumns()
                }
            })
        }
        // Scrolling may bring a waiting cell into view: bind them all first,
        // from the main loop (GTK moves the adjustment inside its layout).
        for view in [grid, list] {
            guard let adjustment = gtk_scrollable_get_vadjustment(view.opaque) else { continue }
            connections.append(adjustment.connect(.valueChanged) { [weak self] in
                guard let self, !self.scrollingItself, self.isUnfinished || !self.coverless.isEmpty else { return }
                self.finishing?.cancel()
                self.finishing = MainContext.timeout(after: .zero) { [weak self] in self?.finishShowing(fetchingCovers: true) }
            })
        }
        for view in [grid, list] {
            connections.append(view.connect(.itemActivate) { [weak self] position in
                guard let self, Int(position) < self.booksShown.count else { return }
                self.onActivate(self.booksShown[Int(position)].id)
            })
        }
    }

    isolated deinit {
        untilMapped?.disconnect()
        finishing?.cancel()
        fitting?.cancel()
        coverPause?.cancel()
        downloadsObservation?.cancel()
    }

    /// The most columns of cards the grid shows.
    static let mostColumns = 8

    /// How many books the first frame gets when nothing is known about the
    /// screen, not even the window's size: enough for any window, 8 columns
    /// of 8 rows, rather than a cell for every book.
    static let firstScreenful = 64
    /// No card is smaller than this (a 150 px cover with its padding, and a
    /// line of text), nor a row shorter than `smallestRowHeight`.
    static let smallestCard = (width: 160, height: 200)
    static let smallestRowHeight = 56

    /// Sets the grid's `max-columns` to the columns that fit its width, as
    /// GTK works them out (the width over a cell's width). GTK 4.8 keeps
    /// cells for 32 rows of `max-columns` items, so a narrower window keeps
    /// fewer cells to bind again on each search, each holding a decoded cover.
    func fitColumns() {
        let width = gtk_widget_get_width(grid)
        guard width > 0, let cell = cells.values.first(where: { $0.book != nil }),
              let item = gtk_widget_get_parent(cell.widget) else { return }
        // GTK divides by the minimum width, or the natural one with a
        // natural horizontal scroll policy.
        var minimum: Int32 = 0, natural: Int32 = 0
        gtk_widget_measure(item, GTK_ORIENTATION_HORIZONTAL, -1, &minimum, &natural, nil, nil)
        let cellWidth = gtk_scrollable_get_hscroll_policy(grid.opaque) == GTK_SCROLL_NATURAL ? natural : minimum
        guard cellWidth > 0 else { return }
        let columns = guint(min(Self.mostColumns, max(1, Int(width / cellWidth))))
        if gtk_grid_view_get_max_columns(grid.opaque) != columns {
            gtk_grid_view_set_max_columns(grid.opaque, columns)
        }
    }

    /// Shows `layout`; only its view holds the books (and so cells).
    func setLayout(_ layout: LibraryLayout) {
        let current = layout == .grid ? gtk_grid_view_get_model(grid.opaque) : gtk_list_view_get_model(list.opaque)
        if current == nil {
            lastSizes = (nil, nil)
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

    /// Shows `visible`, in order; `fromTop` (a new search or order) scrolls
    /// back to the first book.
    /// - Returns: whether anything shown changed.
    @discardableResult
    func show(_ visible: [LibraryModel.Book], fromTop: Bool = false) -> Bool {
        let sameIDs = visible.elementsEqual(booksShown) { $0.id == $1.id }
        booksShown = visible
        guard !sameIDs || cells.contains(where: { key, cell in cell.book.map { $0 != book(at: key) } ?? false }) else {
            return false
        }

        let view = shownView
        // What the next frame can show: the positions on screen now (the
        // first ones when scrolling to the top), and the last screenful
        // when the list gets shorter (GTK scrolls back to its end). Before
        // the first layout nothing is known, and everything is done at once.
        let screen = view.flatMap(screenGeometry(of:))
        if fromTop, let view, let adjustment = gtk_scrollable_get_vadjustment(view.opaque), gtk_adjustment_get_value(adjustment) > 0 {
            scrollingItself = true
            gtk_adjustment_set_value(adjustment, 0)
            scrollingItself = false
        }
        let shown = screen.map { fromTop ? 0...($0.capacity - 1) : $0.shown }
        let onScreen: (Int) -> Bool = { position in
            guard let screen, let shown else { return true }
            return shown.contains(position) || position >= visible.count - screen.capacity
        }

        // Positions are added or removed at the end only, so the cells of the
        // positions that stay are kept. GTK builds a cell for each position
        // it adds; beyond the screen, they are added after the frame.
        let count = positionCount
        if visible.count < count {
            gtk_string_list_splice(positions, guint(visible.count), guint(count - visible.count), nil)
        } else if visible.count > count {
            // Before the first layout the screen is unknown: a first
            // screenful for the window the view is in.
            let screenful = shown.map { $0.upperBound + 1 } ?? firstScreenful(in: view)
            addPositions(upTo: min(visible.count, max(count, screenful)))
        }

        for (key, cell) in cells {
            guard let book = book(at: key), cell.book != book else { continue }
            let position = Int(gtk_list_item_get_position(OpaquePointer(bitPattern: key)))
            if onScreen(position) {
                waiting.remove(key)
                bind(cell, to: book)
            } else if !waiting.contains(key) {
                cell.waitForBook()
                waiting.insert(key)
            }
        }
        scheduleTheRest()
        return true
    }

    /// Binds every live cell again, the waiting ones too: covers that could
    /// not be asked for before (no client yet) are fetched now. Positions
    /// not added yet stay for after the frame (`scheduleTheRest`): with a
    /// library read before its page was made, the client arrives as the
    /// page is built, and adding them all here had GTK make a cell for
    /// every row it keeps (some 250 cards, each asking for its cover)
    /// before the window's first frame.
    func rebindAll() {
        waiting.removeAll()
        coverless.removeAll()
        for (key, cell) in cells {
            guard let book = book(at: key) else { continue }
            bind(cell, to: book)
        }
    }

    /// Cells waiting for their book (bound after the next frame).
    var waitingCellCount: Int { waiting.count }

    /// Bound cells whose cover waits for a pause in typing (tests).
    var waitingCoverCount: Int { coverless.count }

    /// Cells made so far (GTK's `setup`), for tests.
    var cellsMade = 0

    /// Whether a cell has been laid out, so a show can tell what is on
    /// screen (tests).
    var knowsTheScreen: Bool { shownView.flatMap(screenGeometry(of:)) != nil }

    /// Positions in the views' model (the books shown, once all are added).
    var positionCount: Int { Int(g_list_model_get_n_items(positions)) }

    /// The title each bound cell shows, by position (tests).
    var boundTitles: [Int: String] {
        var titles: [Int: String] = [:]
        for (key, cell) in cells {
            guard let book = cell.book else { continue }
            titles[Int(gtk_list_item_get_position(OpaquePointer(bitPattern: key)))] = book.title
        }
        return titles
    }

    /// Whether a cell waiting for its book shows nothing (tests).
    var waitingCellsAreHidden: Bool {
        waiting.allSatisfy { key in cells[key].map { gtk_widget_get_opacity($0.widget) == 0 } ?? true }
    }

    /// How many book cells exist now (bounded by the viewport, not the library).
    var liveCellCount: Int { cells.count }

    /// Decoded covers held for scrolling back.
    var cachedTextureCount: Int { textures.count }

}
