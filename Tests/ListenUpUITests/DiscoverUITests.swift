import CAdwaita
import Foundation
import GtkBridge
import XCTest
@testable import ListenUpCore
@testable import ListenUpUI

/// Home's Discover in a real window over the preview cache (two readers'
/// activity, one listening now and one who stopped): who listens first,
/// then the feed newest first, in words with how long ago, a row with a book
/// opening its details, and the empty state.
final class DiscoverUITests: XCTestCase {
    @MainActor
    private static func makePage(activities: Bool) -> (LibraryModel, LibraryPage, TestWindow) {
        let model = LibraryModel(dependencies: .test(), session: nil, load: false, send: { _ in })
        model.browseForPreview([], activities: activities)
        let page = LibraryPage(model: model)
        let window = TestWindow(child: page.widget, width: 1000, height: 700)
        return (model, page, window)
    }

    func testHomeShowsWhatOthersDidNewestFirstAndOpensTheBook() throws {
        try MainActor.assumeIsolated {
            guard requireGtk() else { return }
            let (model, page, window) = Self.makePage(activities: true)
            defer { page.teardown(); window.close() }
            let browser = try XCTUnwrap(page.browser)
            let section = try XCTUnwrap(browser.homeView?.discoverSection, "Home has Discover with a feed")
            adw_view_stack_set_visible_child_name(browser.tabs.opaque, "home")
            XCTAssertTrue(MainContext.iterate(until: { section.isSettled && section.rows.count == 6 }), "the feed is read")
            window.settle()
            let title = { (id: String) in model.books.first { $0.id == id }?.title ?? "?" }
            let finished = try XCTUnwrap(section.rows["activity-1"])
            XCTAssertEqual(finished.title, "Grace Hopper finished \(title("book-3"))")
            XCTAssertEqual(finished.subtitle, "5 minutes ago")
            XCTAssertEqual(section.rows["activity-2"]?.title, "Mara Lindqvist started \(title("book-0"))")
            XCTAssertEqual(section.rows["activity-2"]?.subtitle, "2 hours ago")
            XCTAssertEqual(section.rows["activity-3"]?.title, "Grace Hopper listened 7 days in a row")
            let milestone = try XCTUnwrap(section.rows["activity-3"])
            XCTAssertEqual(gtk_list_box_row_get_activatable(milestone.pointer.cast(to: GtkListBoxRow.self)), 0, "no book to open")
            XCTAssertEqual(gtk_list_box_row_get_activatable(finished.pointer.cast(to: GtkListBoxRow.self)), 1)
            XCTAssertEqual(section.rows["activity-4"]?.title, "Mara Lindqvist finished \(title("book-5")) again")
            XCTAssertEqual(section.rows["activity-4"]?.subtitle, "3 days ago")
            let rows = section.rows
            func index(_ id: String) throws -> Int32 {
                gtk_list_box_row_get_index(try XCTUnwrap(rows[id]).pointer.cast(to: GtkListBoxRow.self))
            }
            // Who listens now comes first: live, then the book someone left.
            XCTAssertEqual(section.rows["listening-user-mara"]?.title, "Mara Lindqvist is listening to \(title("book-0"))")
            XCTAssertEqual(section.rows["listening-user-mara"]?.subtitle, "Listening now")
            XCTAssertEqual(section.rows["listening-user-grace"]?.title, "Grace Hopper was listening to \(title("book-4"))")
            XCTAssertEqual(section.rows["listening-user-grace"]?.subtitle, "3 hours ago")
            XCTAssertEqual(try index("listening-user-mara"), 0)
            XCTAssertEqual(try index("listening-user-grace"), 1)
            XCTAssertEqual(try index("activity-1"), 2, "then the feed, newest first")
            XCTAssertEqual(try index("activity-4"), 5)
            XCTAssertFalse(section.showsEmptyState)

            Self.activate(finished.pointer)
            XCTAssertTrue(MainContext.iterate(until: { model.selection?.book.id == "book-3" }), "the book's details open")
        }
    }

    func testNothingYetSaysSo() throws {
        try MainActor.assumeIsolated {
            guard requireGtk() else { return }
            let (_, page, window) = Self.makePage(activities: false)
            defer { page.teardown(); window.close() }
            let browser = try XCTUnwrap(page.browser)
            let section = try XCTUnwrap(browser.homeView?.discoverSection)
            adw_view_stack_set_visible_child_name(browser.tabs.opaque, "home")
            XCTAssertTrue(MainContext.iterate(until: { section.isSettled }))
            window.settle()
            XCTAssertTrue(section.rows.isEmpty)
            XCTAssertTrue(section.showsEmptyState, "Nothing yet: …")
        }
    }

    @MainActor
    private static func activate(_ row: UnsafeMutablePointer<GtkWidget>) {
        guard let list = gtk_widget_get_parent(row) else { return XCTFail("the row is in no list") }
        var values = [GValue(), GValue()]
        g_value_init(&values[0], gtk_list_box_get_type())
        g_value_set_object(&values[0], list)
        g_value_init(&values[1], gtk_list_box_row_get_type())
        g_value_set_object(&values[1], row)
        let id = g_signal_lookup("row-activated", gtk_list_box_get_type())
        values.withUnsafeMutableBufferPointer { g_signal_emitv($0.baseAddress, id, 0, nil) }
        for index in values.indices { g_value_unset(&values[index]) }
    }
}
