import CAdwaita
import Foundation
import GtkBridge
import ListenUpCore

/// Deferred binding: what a ``BookCollectionView/show(_:fromTop:)`` binds at
/// once and what it leaves for later.
///
/// A show binds the cells that can be on screen in the next frame (the
/// positions on screen, or the first screenful) and makes the others
/// transparent; after that frame is painted, an idle callback adds the
/// positions not added yet and binds the waiting cells (or at once when the
/// view scrolls). Covers of cells bound off screen are fetched once typing
/// pauses.
extension BookCollectionView {
    /// The view holding the books (the other one has no model).
    var shownView: UnsafeMutablePointer<GtkWidget>? {
        if gtk_grid_view_get_model(grid.opaque) != nil { return grid }
        if gtk_list_view_get_model(list.opaque) != nil { return list }
        return nil
    }

    /// The positions of the cells at least partly inside `view` now, and
    /// how many cells fit in it (with a row to spare either way); `nil`
    /// until a cell has been laid out. An empty list (the "No Results"
    /// page) goes by the last sizes seen.
    func screenGeometry(of view: UnsafeMutablePointer<GtkWidget>) -> (shown: ClosedRange<Int>, capacity: Int)? {
        let viewSize = (width: Float(gtk_widget_get_width(view)), height: Float(gtk_widget_get_height(view)))
        if viewSize.width > 0, viewSize.height > 0 { lastSizes.view = viewSize }
        var first = Int.max, last = -1
        for (key, cell) in cells where cell.book != nil {
            // A cell GTK made but has not laid out yet has no content size;
            // its bounds are only its padding (6 × 6), and taken for a
            // cell's size they made the screen hold every cell.
            guard let item = gtk_widget_get_parent(cell.widget), gtk_widget_get_child_visible(item) != 0,
                  gtk_widget_get_width(item) > 0, gtk_widget_get_height(item) > 0 else { continue }
            var bounds = graphene_rect_t()
            guard gtk_widget_compute_bounds(item, view, &bounds) != 0 else { continue }
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
    /// `firstScreenful` when it is in none yet. GTK builds a cell for each of
    /// them before the first frame, so the fewer the sooner that frame.
    func firstScreenful(in view: UnsafeMutablePointer<GtkWidget>?) -> Int {
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

    func addPositions(upTo total: Int) {
        let count = positionCount
        guard total > count else { return }
        let blanks = [UnsafePointer<CChar>?](repeating: emptyString, count: total - count) + [nil]
        blanks.withUnsafeBufferPointer { gtk_string_list_splice(positions, guint(count), 0, $0.baseAddress) }
    }

    /// Whether a show left positions to add or cells to bind.
    var isUnfinished: Bool { !waiting.isEmpty || positionCount < booksShown.count }

    /// Adds the remaining positions and binds the waiting cells once the
    /// frame showing the new books has been painted, from an idle callback,
    /// so that keys typed meanwhile come first. Before the view is realized
    /// (the first books arrive before the window is shown) it waits for
    /// `map` first.
    func scheduleTheRest() {
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
    func finishShowing(fetchingCovers: Bool = false) {
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

    func fetchWaitingCovers() {
        for cell in cells.values where coverless.contains(ObjectIdentifier(cell)) {
            guard let book = cell.book else { continue }
            fetchCover(of: book, into: cell)
        }
        coverless.removeAll()
    }

    /// The book at the position of the GtkListItem at address `key`.
    func book(at key: Int) -> LibraryModel.Book? {
        let position = gtk_list_item_get_position(OpaquePointer(bitPattern: key))
        guard position != GTK_INVALID_LIST_POSITION, Int(position) < booksShown.count else { return nil }
        return booksShown[Int(position)]
    }
}

/// The text of every position item (never read): a static empty C string.
private var emptyString: UnsafePointer<CChar> {
    UnsafeRawPointer(("" as StaticString).utf8Start).assumingMemoryBound(to: CChar.self)
}
