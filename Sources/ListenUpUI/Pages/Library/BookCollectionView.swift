import CAdwaita
import Foundation
import GtkBridge
import ListenUpCore

/// The books, as a virtualised GtkGridView of cards or a GtkListView of rows.
/// Only the cells on screen (plus the rows GTK keeps ready) exist; they are
/// re-bound while scrolling.
///
/// The views' model holds positions, not books: item *n* shows `booksShown[n]`, and
/// a new list of books only adds or removes positions at the end. GTK 4.8
/// keeps a cell only for an item object it gets back in the same
/// `items-changed`; with a model of books, a search that changed the results
/// destroyed every cell it kept (30 rows of `max-columns`, ~250) and built
/// new ones, 150–350 ms before its frame. Here the cells stay and are bound
/// again: at once those that can be on screen, the others (made
/// transparent meanwhile) once the frame showing the results is painted, or
/// as soon as the view scrolls.
@MainActor
final class BookCollectionView {
    let widget: UnsafeMutablePointer<GtkWidget>
    let grid: UnsafeMutablePointer<GtkWidget>
    let list: UnsafeMutablePointer<GtkWidget>
    /// One item per position shown (its string is unused).
    private let positionList: GObjectRef<OpaquePointer>
    private var positions: OpaquePointer { positionList.pointer }
    /// The selection model over `positions`, given to the visible view only.
    private let selectionModel: GObjectRef<OpaquePointer>
    private var selection: OpaquePointer { selectionModel.pointer }
    private let model: LibraryModel
    /// The books shown, in order: position `n` shows `booksShown[n]`.
    private var booksShown: [LibraryModel.Book] = []
    /// The cells alive now, by their GtkListItem's address.
    private var cells: [Int: BookCell] = [:]
    /// Decoded covers for scrolling back and for clearing a search: about
    /// as many as the cells GTK 4.8's grid keeps (~250), ~90 KiB each.
    private let textures = CoverTextureCache(capacity: 256)
    private var connections: [SignalConnection] = []
    /// Cells waiting for their book, by their GtkListItem's address.
    private var waiting: Set<Int> = []
    /// Adds the positions not added yet and binds the waiting cells.
    private var finishing: MainLoopSource?
    /// The last sizes of the shown view and of one of its cells (items).
    private var lastSizes: (view: (width: Float, height: Float)?, cell: (width: Float, height: Float)?) = (nil, nil)
    /// Bound cells whose cover is fetched once typing pauses.
    private var coverless: Set<ObjectIdentifier> = []
    /// Set while the cells off screen are bound after a search.
    private var bindingOffScreen = false
    /// Fetches the covers of `coverless` after a pause.
    private var coverPause: MainLoopSource?
    /// Waits for the view to be shown before finishing what a show began.
    private var untilMapped: SignalConnection?
    /// Works out the columns that fit after the grid's width changed.
    private var fitting: MainLoopSource?
    /// Set while the page itself scrolls the view (a new search starts at
    /// the top), which must not bind the waiting cells at once.
    private var scrollingItself = false
    /// A book was activated (click, Enter).
    var onActivate: (String) -> Void = { _ in }

    init(model: LibraryModel) {
        self.model = model
        positionList = GObjectRef(taking: newObject(gtk_string_list_new(nil)))
        // The selection model takes a reference to the list of its own; each
        // view takes one to the selection model.
        selectionModel = GObjectRef(taking: newObject(gtk_no_selection_new(positionList.newReference())))

        // The views start without a model: `setLayout` gives it to the one
        // shown, so the hidden one keeps no cells.
        let gridFactory = gtk_signal_list_item_factory_new()
        let listFactory = gtk_signal_list_item_factory_new()
        grid = newObject(gtk_grid_view_new(nil, gridFactory))
        list = newObject(gtk_list_view_new(nil, listFactory))
        gtk_grid_view_set_min_columns(grid.opaque, 1)
        // GTK 4.8 keeps cells for 32 rows of `max-columns` items, whatever
        // fits, so `max-columns` follows the columns that fit (see
        // `fitColumns`), up to 8 (a 1,700 px wide window of cards).
        gtk_grid_view_set_max_columns(grid.opaque, guint(Self.mostColumns))
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
    }

    /// The most columns of cards the grid shows.
    static let mostColumns = 8

    /// How many books the first frame gets when nothing is known about the
    /// screen, not even the window's size: enough for any window, 8 columns
    /// of 8 rows (GTK would otherwise build its ~260 cells for it).
    static let firstScreenful = 64
    /// No card is smaller than this (a 150 px cover with its padding, and a
    /// line of text), nor a row shorter than `smallestRowHeight`.
    private static let smallestCard = (width: 160, height: 200)
    private static let smallestRowHeight = 56

    /// Sets the grid's `max-columns` to the columns that fit its width, as
    /// GTK works them out (the width over a cell's width). GTK 4.8
    /// keeps 32 rows of `max-columns` cells: at 900 px, 4 columns fit and
    /// ~130 cells are made instead of ~260 with 8, each one bound again by a
    /// search and holding a decoded cover.
    private func fitColumns() {
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

    /// Binds every live cell again: covers that could not be asked for
    /// before (no client yet) are fetched now.
    func rebindAll() {
        finishShowing(fetchingCovers: true)
        for (key, cell) in cells {
            guard let book = book(at: key) else { continue }
            bind(cell, to: book)
        }
    }

    // MARK: What the screen shows first

    /// The view holding the books (the other one has no model).
    private var shownView: UnsafeMutablePointer<GtkWidget>? {
        if gtk_grid_view_get_model(grid.opaque) != nil { return grid }
        if gtk_list_view_get_model(list.opaque) != nil { return list }
        return nil
    }

    /// The positions of the cells at least partly inside `view` now, and
    /// how many cells fit in it (with a row to spare either way); `nil`
    /// until a cell has been laid out. An empty list (the "No Results"
    /// page) goes by the last sizes seen.
    private func screenGeometry(of view: UnsafeMutablePointer<GtkWidget>) -> (shown: ClosedRange<Int>, capacity: Int)? {
        let viewSize = (width: Float(gtk_widget_get_width(view)), height: Float(gtk_widget_get_height(view)))
        if viewSize.width > 0, viewSize.height > 0 { lastSizes.view = viewSize }
        var first = Int.max, last = -1
        for (key, cell) in cells where cell.book != nil {
            guard let item = gtk_widget_get_parent(cell.widget), gtk_widget_get_child_visible(item) != 0 else { continue }
            var bounds = graphene_rect_t()
            guard gtk_widget_compute_bounds(item, view, &bounds) != 0, bounds.size.width > 0, bounds.size.height > 0 else { continue }
            lastSizes.cell = (bounds.size.width, bounds.size.height)
            guard bounds.origin.y + bounds.size.height > 0, bounds.origin.y < viewSize.height else { continue }
            let position = gtk_list_item_get_position(OpaquePointer(bitPattern: key))
            guard position != GTK_INVALID_LIST_POSITION else { continue }
            first = min(first, Int(position))
            last = max(last, Int(position))
        }
        guard let cell = lastSizes.cell, let screen = lastSizes.view else { return nil }
        let columns = max(1, Int(screen.width / cell.width))
        let capacity = (Int(screen.height / cell.height) + 2) * columns
        // A short list fills less than the screen: the positions it may
        // grow into count as shown.
        let shown = last >= 0 ? max(0, first - columns)...max(last + columns, first + capacity - 1) : 0...(capacity - 1)
        return (shown, capacity)
    }

    /// Before the view's first layout: the books that can fill the window
    /// it is in (the view is at most that big), with the smallest cards; or
    /// `firstScreenful` when it is in none yet. Every cell GTK builds for
    /// the first frame costs, and at 900×680 this is 25 cells, not 64.
    private func firstScreenful(in view: UnsafeMutablePointer<GtkWidget>?) -> Int {
        guard let view, let root = gtk_widget_get_root(view) else { return Self.firstScreenful }
        let window = UnsafeMutablePointer<GtkWidget>(root)
        var width = gtk_widget_get_width(window), height = gtk_widget_get_height(window)
        if width <= 0 || height <= 0 {
            gtk_window_get_default_size(UnsafeMutablePointer<GtkWindow>(root), &width, &height)
        }
        guard width > 0, height > 0 else { return Self.firstScreenful }
        let fits = view == grid
            ? max(1, Int(width) / Self.smallestCard.width) * (Int(height) / Self.smallestCard.height + 2)
            : Int(height) / Self.smallestRowHeight + 2
        return min(Self.firstScreenful, fits)
    }

    private func addPositions(upTo total: Int) {
        let count = positionCount
        guard total > count else { return }
        let blanks = [UnsafePointer<CChar>?](repeating: emptyString, count: total - count) + [nil]
        blanks.withUnsafeBufferPointer { gtk_string_list_splice(positions, guint(count), 0, $0.baseAddress) }
    }

    /// Whether a show left positions to add or cells to bind.
    private var isUnfinished: Bool { !waiting.isEmpty || positionCount < booksShown.count }

    /// Adds the remaining positions and binds the waiting cells once the
    /// frame showing the new books has been painted, from an idle callback,
    /// so that keys typed meanwhile come first. Before the view is realized
    /// (the first books arrive before the window is shown) it waits for
    /// `map` first.
    private func scheduleTheRest() {
        guard isUnfinished, finishing == nil, untilMapped == nil else { return }
        if gtk_widget_get_realized(widget) == 0 {
            untilMapped = widget.connect(.map) { [weak self] in
                guard let self else { return }
                self.untilMapped?.disconnect()
                self.untilMapped = nil
                self.scheduleTheRest()
            }
            return
        }
        let scheduled = FramePaint.afterNext(of: widget) { [weak self] in
            guard let self, self.finishing == nil else { return }
            self.finishing = MainContext.idle { [weak self] in self?.finishShowing() }
        }
        if !scheduled { finishShowing() }
    }

    /// Adds the positions not added yet and binds the waiting cells. Their
    /// covers, unless already decoded, are fetched once typing pauses: each
    /// one arriving repaints the window, and under software rendering those
    /// frames would hold up the next key.
    private func finishShowing(fetchingCovers: Bool = false) {
        finishing?.cancel()
        finishing = nil
        bindingOffScreen = !fetchingCovers
        addPositions(upTo: booksShown.count)
        let keys = waiting
        waiting.removeAll()
        for key in keys {
            guard let cell = cells[key], let book = book(at: key) else { continue }
            bind(cell, to: book)
        }
        bindingOffScreen = false
        coverPause?.cancel()
        coverPause = nil
        if fetchingCovers {
            fetchWaitingCovers()
        } else if !coverless.isEmpty {
            coverPause = MainContext.timeout(after: Self.coverPause) { [weak self] in
                self?.coverPause = nil
                self?.fetchWaitingCovers()
            }
        }
    }

    /// How long typing pauses before the covers of cells off screen are
    /// fetched.
    static let coverPause = Duration.milliseconds(400)

    private func fetchWaitingCovers() {
        for cell in cells.values where coverless.contains(ObjectIdentifier(cell)) {
            guard let book = cell.book else { continue }
            fetchCover(of: book, into: cell)
        }
        coverless.removeAll()
    }

    /// The book at the position of the GtkListItem at address `key`.
    private func book(at key: Int) -> LibraryModel.Book? {
        let position = gtk_list_item_get_position(OpaquePointer(bitPattern: key))
        guard position != GTK_INVALID_LIST_POSITION, Int(position) < booksShown.count else { return nil }
        return booksShown[Int(position)]
    }

    /// Cells waiting for their book (bound after the next frame).
    var waitingCellCount: Int { waiting.count }

    /// Bound cells whose cover waits for a pause in typing (tests).
    var waitingCoverCount: Int { coverless.count }

    /// Cells made so far (GTK's `setup`), for tests.
    private(set) var cellsMade = 0

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

    // MARK: Cells

    private func install(factory: OpaquePointer?, style: BookCell.Style) {
        guard let factory else { return }
        connections.append(factory.connect(.listItemSetup) { [weak self] item in
            guard let self else { return }
            self.cellsMade += 1
            let cell = BookCell(style: style)
            gtk_list_item_set_child(item, cell.widget)
            self.cells[Int(bitPattern: item)] = cell
        })
        connections.append(factory.connect(.listItemBind) { [weak self] item in
            guard let self else { return }
            let key = Int(bitPattern: item)
            self.waiting.remove(key)
            guard let cell = self.cells[key], let book = self.book(at: key) else { return }
            self.bind(cell, to: book)
        })
        connections.append(factory.connect(.listItemUnbind) { [weak self] item in
            guard let self else { return }
            self.waiting.remove(Int(bitPattern: item))
            self.cells[Int(bitPattern: item)]?.unbind()
        })
        connections.append(factory.connect(.listItemTeardown) { [weak self] item in
            guard let self else { return }
            self.waiting.remove(Int(bitPattern: item))
            if let cell = self.cells.removeValue(forKey: Int(bitPattern: item)) {
                self.coverless.remove(ObjectIdentifier(cell))
                cell.unbind()
            }
        })
    }

    /// Shows `book` in `cell`, with its cover when it is decoded already;
    /// otherwise the cover is fetched and decoded now, or, while the cells
    /// off screen are being bound after a search, once typing pauses.
    private func bind(_ cell: BookCell, to book: LibraryModel.Book) {
        cell.coverTask?.cancel()
        cell.bind(book)
        coverless.remove(ObjectIdentifier(cell))
        if let texture = textures[CoverTextureCache.key(book, size: Self.pixels(of: cell.cover))] {
            cell.cover.show(texture)
            return
        }
        guard book.hasCover else { return }
        if bindingOffScreen {
            coverless.insert(ObjectIdentifier(cell))
            return
        }
        fetchCover(of: book, into: cell)
    }

    private func fetchCover(of book: LibraryModel.Book, into cell: BookCell) {
        let pixels = Self.pixels(of: cell.cover)
        cell.coverTask = Task { [weak self, weak cell] in
            guard let texture = await self?.decodedCover(of: book, pixels: pixels),
                  !Task.isCancelled, let cell, cell.book?.id == book.id else { return }
            cell.cover.show(texture)
        }
    }

    /// `book`'s cover fetched (through the model's caches), decoded at
    /// `pixels` off the main thread and kept in `textures`; nil when it has
    /// none, it cannot be read, or the task was cancelled.
    private func decodedCover(of book: LibraryModel.Book, pixels: Int) async -> CoverTexture? {
        guard let data = await model.cover(for: book), !Task.isCancelled,
              let texture = await CoverTexture.decode(data.bytes, size: pixels) else { return nil }
        textures[CoverTextureCache.key(book, size: pixels)] = texture
        return texture
    }

    /// The cover's size in device pixels.
    private static func pixels(of cover: CoverView) -> Int {
        cover.size * Int(max(1, gtk_widget_get_scale_factor(cover.widget)))
    }

    /// A cover for `book` at `size` points, through the same caches (the
    /// details panel).
    func loadCover(for book: LibraryModel.Book, into view: CoverView) -> Task<Void, Never>? {
        view.showPlaceholder(for: book.title)
        let pixels = Self.pixels(of: view)
        if let texture = textures[CoverTextureCache.key(book, size: pixels)] {
            view.show(texture)
            return nil
        }
        guard book.hasCover else { return nil }
        return Task { [weak self, weak view] in
            guard let texture = await self?.decodedCover(of: book, pixels: pixels), !Task.isCancelled else { return }
            view?.show(texture)
        }
    }
}

/// The text of every position item (never read): a static empty C string.
private var emptyString: UnsafePointer<CChar> {
    UnsafeRawPointer(("" as StaticString).utf8Start).assumingMemoryBound(to: CChar.self)
}
