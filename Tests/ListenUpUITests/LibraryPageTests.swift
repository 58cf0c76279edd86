import CAdwaita
import Foundation
import GtkBridge
import XCTest
@testable import ListenUpCore
@testable import ListenUpUI

/// The real library page in a real window with 10,000 books: the grid is
/// virtualised (cells bounded by the viewport), and search, sort and the
/// grid/list toggle drive the model from the page's own controls.
final class LibraryPageTests: XCTestCase {
    static func books(_ count: Int) -> [CachedBook] {
        let start = Date(timeIntervalSince1970: 1_700_000_000)
        // The types spelled out: inferred, this closure took the type
        // checker 2.5 s.
        return (0..<count).map { (index: Int) -> CachedBook in
            let series: String = index % 10 == 0 ? "Saga #\(index / 10)" : ""
            let duration: Int64 = Int64(index % 500) * 60_000
            return CachedBook(id: "book-\(index)", title: "Title \(index)", authors: "Author \(index % 97)", narrators: "",
                              series: series, duration: duration, createdAt: start.addingTimeInterval(Double(index)), updatedAt: start)
        }
    }

    @MainActor
    private static func makePage(books: [CachedBook]) -> (LibraryModel, LibraryPage, TestWindow) {
        let model = LibraryModel(dependencies: .test(), session: nil, load: false, send: { _ in })
        model.showForPreview(books, status: .loaded)
        let page = LibraryPage(model: model)
        let window = TestWindow(child: page.widget, width: 1000, height: 700)
        return (model, page, window)
    }

    /// A 900×680 window, not shown yet, holding a library page whose model
    /// was given `books`, once the page has added its first positions.
    @MainActor
    private static func makeUnshownPage(books: [CachedBook]) -> (LibraryModel, LibraryPage, UnsafeMutablePointer<GtkWidget>) {
        let model = LibraryModel(dependencies: .test(), session: nil, load: false, send: { _ in })
        let page = LibraryPage(model: model)
        let window = newObject(gtk_window_new())
        gtk_window_set_default_size(window.cast(to: GtkWindow.self), 900, 680)
        gtk_window_set_child(window.cast(to: GtkWindow.self), page.widget)
        model.showForPreview(books, status: .loaded)
        MainContext.iterate(until: { page.collection.positionCount > 0 })
        return (model, page, window)
    }

    /// Waits until every book is in the views' model, no cell waits and a
    /// cell has been laid out: a loaded machine takes longer than a settle.
    @MainActor
    private static func waitUntilShown(_ page: LibraryPage, _ model: LibraryModel, window: TestWindow) {
        window.settle()
        MainContext.iterate(until: {
            page.collection.positionCount == model.visible.count && page.collection.waitingCellCount == 0
                && page.collection.knowsTheScreen
        }, timeout: .seconds(10))
        // The positions added last have cells GTK lays out in the next frames.
        window.settle()
        XCTAssertTrue(page.collection.knowsTheScreen, "the grid was laid out")
    }

    @MainActor
    private static func scrollToEnd(_ view: UnsafeMutablePointer<GtkWidget>, window: TestWindow) {
        guard let adjustment = gtk_scrollable_get_vadjustment(OpaquePointer(view)) else { return XCTFail("no adjustment") }
        gtk_adjustment_set_value(adjustment, gtk_adjustment_get_upper(adjustment))
        window.settle()
    }

    func testTenThousandBooksMakeOnlyAViewportOfCells() {
        MainActor.assumeIsolated {
            guard requireGtk() else { return }
            let (model, page, window) = Self.makePage(books: Self.books(10_000))
            defer { page.teardown(); window.close() }
            Self.waitUntilShown(page, model, window: window)
            XCTAssertEqual(model.visible.count, 10_000)
            let shown = page.collection.liveCellCount
            XCTAssertGreaterThan(shown, 0, "the grid shows books")
            // GTK 4.8's grid keeps some rows ready beyond the viewport, a
            // fixed number whatever the library's size.
            XCTAssertLessThan(shown, 500, "cells are bounded by the viewport, not the library")
            // GTK keeps 32 rows of `max-columns` cells: it follows the
            // columns that fit (4 or 5 cards at 1,000 px), not the most (8).
            let columns = Int(gtk_grid_view_get_max_columns(page.collection.grid.opaque))
            XCTAssertLessThan(columns, BookCollectionView.mostColumns, "max-columns is the columns that fit")
            XCTAssertGreaterThan(columns, 1)
            XCTAssertLessThanOrEqual(shown, 33 * columns, "32 rows of the columns shown (and the focused one)")
            let (smallerModel, smaller, smallerWindow) = Self.makePage(books: Self.books(1_000))
            Self.waitUntilShown(smaller, smallerModel, window: smallerWindow)
            XCTAssertEqual(Double(smaller.collection.liveCellCount), Double(shown), accuracy: 40,
                           "1,000 and 10,000 books make as many cells")
            smaller.teardown()
            smallerWindow.close()

            Self.scrollToEnd(page.collection.grid, window: window)
            XCTAssertLessThan(page.collection.liveCellCount, 500, "scrolling re-binds cells instead of making more")

            // The list layout is virtualised the same way.
            emit("clicked", on: page.listToggle)
            window.settle()
            XCTAssertEqual(model.layout, .list)
            XCTAssertEqual(String(cString: gtk_stack_get_visible_child_name(page.collection.widget.opaque)), "list")
            Self.scrollToEnd(page.collection.list, window: window)
            XCTAssertLessThan(page.collection.liveCellCount, 500, "the hidden grid gave its cells up")
            emit("clicked", on: page.gridToggle)
            window.settle()
            XCTAssertEqual(model.layout, .grid)
        }
    }

    /// Before its first frame the page knows nothing of the screen: it gives
    /// GTK a first screenful of books, and the rest once that frame is up.
    func testTheFirstFrameGetsAScreenfulOfBooks() {
        MainActor.assumeIsolated {
            guard requireGtk() else { return }
            let model = LibraryModel(dependencies: .test(), session: nil, load: false, send: { _ in })
            model.showForPreview(Self.books(10_000), status: .loaded)
            let page = LibraryPage(model: model)
            defer { page.teardown() }
            MainContext.iterate(until: { page.shownTitles.count == 10_000 })
            XCTAssertEqual(page.collection.positionCount, BookCollectionView.firstScreenful, "not shown yet: a screenful")
            let window = TestWindow(child: page.widget, width: 1000, height: 700)
            defer { window.close() }
            MainContext.iterate(until: { page.collection.positionCount == 10_000 })
            XCTAssertEqual(page.collection.positionCount, 10_000, "all of them after the first frame")
            Self.assertCellsShowTheirBooks(page, model)
        }
    }

    /// Books that arrive before the first layout of a page in a window get
    /// a screenful for the window's size, not one for any window: every
    /// cell GTK builds for the first frame costs.
    func testTheFirstScreenfulFitsTheWindow() {
        MainActor.assumeIsolated {
            guard requireGtk() else { return }
            let (model, page, window) = Self.makeUnshownPage(books: Self.books(10_000))
            defer { page.teardown(); gtk_window_destroy(window.cast(to: GtkWindow.self)); MainContext.drainPending() }
            // 900 / 160 = 5 columns of the smallest cards, 680 / 200 + 2 = 5 rows.
            XCTAssertEqual(page.collection.positionCount, 25, "a screenful for 900×680")
            gtk_window_present(window.cast(to: GtkWindow.self))
            MainContext.iterate(until: { page.collection.positionCount == 10_000 })
            XCTAssertEqual(page.collection.positionCount, 10_000, "all of them after the first frame")
            Self.assertCellsShowTheirBooks(page, model)
        }
    }

    /// Covers becoming available (the session's client) as a page is made
    /// with its books (a cache read before the page) bind the cells GTK
    /// made, and leave the other positions for after the first frame: all
    /// of them added then had GTK make some 250 cards, each asking for its
    /// cover, before the window was first drawn.
    func testCoversArrivingBeforeTheFirstFrameAddNoPositions() {
        MainActor.assumeIsolated {
            guard requireGtk() else { return }
            let (model, page, window) = Self.makeUnshownPage(books: Self.books(10_000))
            defer { page.teardown(); gtk_window_destroy(window.cast(to: GtkWindow.self)); MainContext.drainPending() }
            page.collection.rebindAll()
            MainContext.drainPending()
            XCTAssertEqual(page.collection.positionCount, 25, "still a screenful before the first frame")
            gtk_window_present(window.cast(to: GtkWindow.self))
            MainContext.iterate(until: { page.collection.positionCount == 10_000 })
            XCTAssertEqual(page.collection.positionCount, 10_000, "all of them after the first frame")
            Self.assertCellsShowTheirBooks(page, model)
        }
    }

    /// A wider window fits more columns, and GTK then keeps more cells; a
    /// narrower one, fewer.
    func testTheColumnsFollowTheWindowsWidth() {
        MainActor.assumeIsolated {
            guard requireGtk() else { return }
            let (model, page, window) = Self.makePage(books: Self.books(2_000))
            defer { page.teardown(); window.close() }
            Self.waitUntilShown(page, model, window: window)
            let grid = page.collection.grid.opaque
            let atFirst = gtk_grid_view_get_max_columns(grid)
            gtk_window_set_default_size(window.window.cast(to: GtkWindow.self), 1_700, 700)
            MainContext.iterate(until: { gtk_grid_view_get_max_columns(grid) > atFirst })
            XCTAssertGreaterThan(gtk_grid_view_get_max_columns(grid), atFirst)
            gtk_window_set_default_size(window.window.cast(to: GtkWindow.self), 500, 700)
            MainContext.iterate(until: { gtk_grid_view_get_max_columns(grid) < atFirst })
            XCTAssertLessThan(gtk_grid_view_get_max_columns(grid), atFirst)
            window.settle()
            XCTAssertLessThanOrEqual(page.collection.liveCellCount, 33 * Int(gtk_grid_view_get_max_columns(grid)))
        }
    }

    /// Types `text` into the search field and waits until the model has it
    /// (GtkSearchEntry reports from a timeout) and the page has redrawn.
    @MainActor
    private static func type(_ text: String, into page: LibraryPage, model: LibraryModel, window: TestWindow) {
        gtk_editable_set_text(page.searchEntry.opaque, text)
        MainContext.iterate(until: { model.query == text })
        window.settle()
    }

    func testTypingInTheSearchFieldFiltersAndNoResultsHasItsPage() {
        MainActor.assumeIsolated {
            guard requireGtk() else { return }
            let (model, page, window) = Self.makePage(books: Self.books(2_000))
            defer { page.teardown(); window.close() }

            Self.type("title 1999", into: page, model: model, window: window)
            XCTAssertEqual(model.query, "title 1999")
            XCTAssertEqual(page.shownTitles, ["Title 1999"])

            // Replacing the text empties the field first: the empty query in
            // between must not clear what is typed.
            Self.type("saga #7", into: page, model: model, window: window)
            XCTAssertEqual(model.query, "saga #7")
            XCTAssertEqual(Set(page.shownTitles), ["Title 70", "Title 700", "Title 710", "Title 720", "Title 730", "Title 740",
                                                     "Title 750", "Title 760", "Title 770", "Title 780", "Title 790"])

            Self.type("nothing at all like this", into: page, model: model, window: window)
            XCTAssertEqual(model.query, "nothing at all like this")
            XCTAssertEqual(page.searchEntry.text, "nothing at all like this")
            XCTAssertTrue(page.shownTitles.isEmpty)
            // The page renders one main-queue hop after the model; on a loaded
            // machine 60 ms of settling is not always enough.
            MainContext.iterate(until: { page.statusPage.title == "No Results" },
                                timeout: .seconds(5))
            XCTAssertTrue(page.statusPage.isVisible)
            XCTAssertEqual(page.statusPage.title, "No Results")

            Self.type("", into: page, model: model, window: window)
            XCTAssertEqual(page.shownTitles.count, 2_000)
        }
    }

    /// Every bound cell shows the book at its position.
    @MainActor
    private static func assertCellsShowTheirBooks(_ page: LibraryPage, _ model: LibraryModel,
                                                  file: StaticString = #filePath, line: UInt = #line) {
        let titles = page.collection.boundTitles
        XCTAssertFalse(titles.isEmpty, "cells are bound", file: file, line: line)
        for (position, title) in titles {
            XCTAssertLessThan(position, model.visible.count, file: file, line: line)
            guard position < model.visible.count else { continue }
            XCTAssertEqual(title, model.visible[position].title, "the cell at \(position)", file: file, line: line)
        }
    }

    /// A search that changes every book shown keeps GTK's cells and binds
    /// them again (GTK 4.8 rebuilt ~250 of them for a model of books): the
    /// ones on screen before the frame, the others after it, hidden until
    /// then.
    func testASearchRebindsTheCellsItHasOnScreenFirst() {
        MainActor.assumeIsolated {
            guard requireGtk() else { return }
            let (model, page, window) = Self.makePage(books: Self.books(10_000))
            defer { page.teardown(); window.close() }
            Self.waitUntilShown(page, model, window: window)
            let made = page.collection.cellsMade
            let cells = page.collection.liveCellCount
            XCTAssertGreaterThan(cells, 100, "GTK keeps rows beyond the screen")
            Self.assertCellsShowTheirBooks(page, model)

            // "title 9" changes the book at every position. The model filters
            // at once; the collection is given the result here, as the page
            // does on its next render, so nothing runs in between.
            let before = page.shownTitles
            model.send(.search("title 9"))
            XCTAssertEqual(model.query, "title 9")
            XCTAssertEqual(zip(before, page.shownTitles).filter { $0 == $1 }.count, 0, "no position keeps its book")
            page.collection.show(model.visible, fromTop: true)
            let waiting = page.collection.waitingCellCount
            XCTAssertGreaterThan(waiting, cells / 2, "cells off screen wait for the frame")
            XCTAssertLessThan(waiting, cells, "the cells on screen are bound at once")
            XCTAssertTrue(page.collection.waitingCellsAreHidden, "a waiting cell shows no stale book")
            Self.assertCellsShowTheirBooks(page, model)

            window.settle()
            MainContext.iterate(until: { page.collection.waitingCellCount == 0 })
            XCTAssertEqual(page.collection.waitingCellCount, 0, "the rest are bound after the frame")
            XCTAssertEqual(page.collection.boundTitles.count, page.collection.liveCellCount)
            Self.assertCellsShowTheirBooks(page, model)
            XCTAssertEqual(page.collection.cellsMade, made, "no cell was made for the search")
            XCTAssertEqual(page.collection.positionCount, model.visible.count)
        }
    }

    /// Cells GTK has made but not laid out yet have no size of their own
    /// (their bounds are only their padding, 6 × 6): they do not size the
    /// screen. Read as a cell's size, they made the screen hold every cell,
    /// and a search typed just after the grid grew bound them all at once.
    func testCellsNotLaidOutYetDoNotSizeTheScreen() {
        MainActor.assumeIsolated {
            guard requireGtk() else { return }
            let (model, page, window) = Self.makePage(books: Self.books(1))
            defer { page.teardown(); window.close() }
            Self.waitUntilShown(page, model, window: window)
            guard let view = page.collection.shownView else { return XCTFail("no view holds the books") }
            let laidOut = page.collection.screenGeometry(of: view)
            XCTAssertNotNil(laidOut)

            // GTK makes the new positions' cells at once, and lays them out
            // in the next frame.
            model.showForPreview(Self.books(1_000), status: .loaded)
            page.collection.show(model.visible)
            XCTAssertGreaterThan(page.collection.liveCellCount, 10)
            let early = page.collection.screenGeometry(of: view)
            XCTAssertEqual(early?.capacity, laidOut?.capacity, "the screen is sized by the cells laid out")
            XCTAssertLessThan(early?.capacity ?? .max, 100)
        }
    }

    /// The cells bound after a search's frame fetch their covers once typing
    /// pauses, or as soon as the view scrolls; those on screen at once.
    func testCoversOffScreenWaitForAPauseInTyping() {
        MainActor.assumeIsolated {
            guard requireGtk() else { return }
            let books = Self.books(3_000).map { book in
                var book = book
                book.hasCover = true
                return book
            }
            let (model, page, window) = Self.makePage(books: books)
            defer { page.teardown(); window.close() }
            Self.waitUntilShown(page, model, window: window)
            // The books added after the first frame fetch theirs after a pause.
            MainContext.iterate(until: { page.collection.waitingCoverCount == 0 }, timeout: .seconds(2))
            XCTAssertEqual(page.collection.waitingCoverCount, 0, "every cover is asked for")

            model.send(.search("title 2"))
            page.collection.show(model.visible, fromTop: true)
            XCTAssertEqual(page.collection.waitingCoverCount, 0, "the cells on screen fetch theirs at once")
            MainContext.iterate(until: { page.collection.waitingCellCount == 0 })
            XCTAssertGreaterThan(page.collection.waitingCoverCount, 0, "the cells bound after the frame wait")
            MainContext.iterate(until: { page.collection.waitingCoverCount == 0 }, timeout: .seconds(2))
            XCTAssertEqual(page.collection.waitingCoverCount, 0, "then fetch theirs")

            model.send(.search("title 1"))
            page.collection.show(model.visible, fromTop: true)
            MainContext.iterate(until: { page.collection.waitingCellCount == 0 })
            XCTAssertGreaterThan(page.collection.waitingCoverCount, 0)
            guard let adjustment = gtk_scrollable_get_vadjustment(page.collection.grid.opaque) else { return XCTFail("no adjustment") }
            gtk_adjustment_set_value(adjustment, 400)
            MainContext.iterate(until: { page.collection.waitingCoverCount == 0 }, timeout: .milliseconds(200))
            XCTAssertEqual(page.collection.waitingCoverCount, 0, "scrolling fetches them at once")
        }
    }

    /// From "No Results" back to thousands of books, the positions beyond
    /// the screen (and so their new cells) come after the first frame.
    func testResultsGrowingFromNothingFillTheScreenFirst() {
        MainActor.assumeIsolated {
            guard requireGtk() else { return }
            let (model, page, window) = Self.makePage(books: Self.books(2_000))
            defer { page.teardown(); window.close() }
            Self.waitUntilShown(page, model, window: window)
            Self.type("nothing like this", into: page, model: model, window: window)
            XCTAssertEqual(page.collection.positionCount, 0)
            XCTAssertEqual(page.collection.liveCellCount, 0)

            gtk_editable_set_text(page.searchEntry.opaque, "")
            MainContext.iterate(until: { model.query.isEmpty && page.collection.positionCount > 0 })
            XCTAssertEqual(model.visible.count, 2_000)
            XCTAssertGreaterThan(page.collection.positionCount, 0)
            XCTAssertLessThan(page.collection.positionCount, 200, "a screenful first")

            window.settle()
            MainContext.iterate(until: { page.collection.positionCount == 2_000 })
            XCTAssertEqual(page.collection.positionCount, 2_000, "then all of them")
            Self.assertCellsShowTheirBooks(page, model)
        }
    }

    /// Scrolled down, a new search starts at its first result; a book
    /// arriving meanwhile (live update) keeps the place.
    func testANewSearchStartsAtTheTopAndALiveUpdateKeepsThePlace() {
        MainActor.assumeIsolated {
            guard requireGtk() else { return }
            let (model, page, window) = Self.makePage(books: Self.books(2_000))
            defer { page.teardown(); window.close() }
            Self.waitUntilShown(page, model, window: window)
            guard let adjustment = gtk_scrollable_get_vadjustment(page.collection.grid.opaque) else { return XCTFail("no adjustment") }
            gtk_adjustment_set_value(adjustment, 3_000)
            window.settle()
            // GTK settles on its anchor row, near the value asked for.
            let place = gtk_adjustment_get_value(adjustment)
            XCTAssertEqual(place, 3_000, accuracy: 100)

            var books = Self.books(2_000)
            books.append(CachedBook(id: "new", title: "A New Book", authors: "Someone", narrators: "", series: "",
                                    duration: 60_000, createdAt: Date(), updatedAt: Date()))
            model.showForPreview(books, status: .loaded)
            window.settle()
            XCTAssertEqual(model.visible.first?.title, "A New Book")
            // GTK keeps its anchor row in view; rows of other heights above it
            // may move it by a few pixels.
            XCTAssertEqual(gtk_adjustment_get_value(adjustment), place, accuracy: 100, "a live update keeps the place")
            MainContext.iterate(until: { page.collection.waitingCellCount == 0 })
            Self.assertCellsShowTheirBooks(page, model)

            Self.type("title 1", into: page, model: model, window: window)
            XCTAssertEqual(gtk_adjustment_get_value(adjustment), 0, "a new search starts at the top")
            MainContext.iterate(until: { page.collection.waitingCellCount == 0 })
            Self.assertCellsShowTheirBooks(page, model)
        }
    }

    /// Typing from the grid (key capture) into "No Results" hides the book
    /// that had the focus; the search field takes it, text unselected, so
    /// the next keys still reach it.
    func testNoResultsHandsTheFocusToTheSearchField() {
        MainActor.assumeIsolated {
            guard requireGtk() else { return }
            let (model, page, window) = Self.makePage(books: Self.books(200))
            defer { page.teardown(); window.close() }
            Self.waitUntilShown(page, model, window: window)
            page.focusDefault()
            window.settle()
            guard let root = gtk_widget_get_root(page.widget), let text = gtk_editable_get_delegate(page.searchEntry.opaque) else {
                return XCTFail("no root or no text")
            }
            let focusedBook = gtk_root_get_focus(root)
            XCTAssertNotNil(focusedBook)
            XCTAssertNotEqual(focusedBook.map { gtk_widget_is_ancestor($0, page.collection.widget) } ?? 0, 0, "a book has the focus")

            Self.type("zz", into: page, model: model, window: window)
            XCTAssertTrue(page.shownTitles.isEmpty)
            let focus = gtk_root_get_focus(root)
            XCTAssertEqual(focus.map { UnsafeMutableRawPointer($0) }, UnsafeMutableRawPointer(text), "the search field has the focus")
            var start: Int32 = 0, end: Int32 = 0
            XCTAssertEqual(gtk_editable_get_selection_bounds(page.searchEntry.opaque, &start, &end), 0, "nothing selected: typing goes on")
        }
    }

    /// The latency log counts from the key event's own time stamp.
    func testKeyPressTimesAreReadOnTheMonotonicClock() {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        let nowMS = UInt32(truncatingIfNeeded: Int64(spec.tv_sec) * 1000 + Int64(spec.tv_nsec) / 1_000_000)
        let now = ContinuousClock.now
        guard let pressed = KeyPressTime.instant(ofEventTime: nowMS &- 40, now: now) else { return XCTFail("a key 40 ms ago") }
        XCTAssertEqual((now - pressed).milliseconds, 40, accuracy: 5)
        XCTAssertNil(KeyPressTime.instant(ofEventTime: nowMS &- 60_000, now: now), "a stamp on another clock")
        XCTAssertNil(KeyPressTime.instant(ofEventTime: nowMS &+ 5_000, now: now), "a stamp in the future")
    }

    func testTheSortDropDownOrdersTheBooks() {
        MainActor.assumeIsolated {
            guard requireGtk() else { return }
            let (model, page, window) = Self.makePage(books: Self.books(50))
            defer { page.teardown(); window.close() }
            XCTAssertEqual(model.sort, .title)

            let recent = UInt32(LibraryPage.sorts.firstIndex { $0.0 == .recentlyAdded } ?? 0)
            gtk_drop_down_set_selected(page.sortDropDown.opaque, recent)
            window.settle()
            XCTAssertEqual(model.sort, .recentlyAdded)
            XCTAssertEqual(page.shownTitles.first, "Title 49", "the newest book first")

            let duration = UInt32(LibraryPage.sorts.firstIndex { $0.0 == .duration } ?? 0)
            gtk_drop_down_set_selected(page.sortDropDown.opaque, duration)
            window.settle()
            XCTAssertEqual(model.sort, .duration)
            XCTAssertEqual(page.shownTitles.first, "Title 0", "the shortest book first")
        }
    }

    func testAnEmptyLibraryHasItsOwnPage() {
        MainActor.assumeIsolated {
            guard requireGtk() else { return }
            let (_, page, window) = Self.makePage(books: [])
            defer { page.teardown(); window.close() }
            XCTAssertEqual(page.statusPage.title, "No Books Yet")
            XCTAssertEqual(page.collection.liveCellCount, 0)
        }
    }
}
