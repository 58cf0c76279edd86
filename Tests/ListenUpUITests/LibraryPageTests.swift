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
        return (0..<count).map { index in
            CachedBook(id: "book-\(index)", title: "Title \(index)", authors: "Author \(index % 97)", narrators: "",
                       series: index % 10 == 0 ? "Saga #\(index / 10)" : "", duration: Int64(index % 500) * 60_000,
                       createdAt: start.addingTimeInterval(Double(index)), updatedAt: start)
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
            XCTAssertEqual(model.visible.count, 10_000)
            let shown = page.collection.liveCellCount
            XCTAssertGreaterThan(shown, 0, "the grid shows books")
            // GTK 4.8's grid keeps some rows ready beyond the viewport, a
            // fixed number whatever the library's size.
            XCTAssertLessThan(shown, 500, "cells are bounded by the viewport, not the library")
            let (_, smaller, smallerWindow) = Self.makePage(books: Self.books(1_000))
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
            XCTAssertEqual(String(cString: gtk_editable_get_text(page.searchEntry.opaque)), "nothing at all like this")
            XCTAssertTrue(page.shownTitles.isEmpty)
            // The page renders one main-queue hop after the model; on a loaded
            // machine 60 ms of settling is not always enough.
            MainContext.iterate(until: { String(cString: adw_status_page_get_title(page.statusPage.opaque)) == "No Results" },
                                timeout: .seconds(5))
            XCTAssertNotEqual(gtk_widget_get_visible(page.statusPage), 0)
            XCTAssertEqual(String(cString: adw_status_page_get_title(page.statusPage.opaque)), "No Results")

            Self.type("", into: page, model: model, window: window)
            XCTAssertEqual(page.shownTitles.count, 2_000)
        }
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
            XCTAssertEqual(String(cString: adw_status_page_get_title(page.statusPage.opaque)), "No Books Yet")
            XCTAssertEqual(page.collection.liveCellCount, 0)
        }
    }
}
