import CAdwaita
import Foundation
import GtkBridge
import XCTest
@testable import ListenUpCore
@testable import ListenUpUI

/// Shelves in a real window over the preview cache (two shelves of the
/// user, a neighbour's): Home's sections, a shelf's page (the user's with
/// Edit, Delete and Remove from Shelf; someone else's read-only), Add to
/// Shelf in a book's details, and the dialogs, each control named for
/// screen readers.
final class ShelvesUITests: XCTestCase {
    @MainActor
    private static func makePage(selected: String? = nil) -> (LibraryModel, LibraryPage, TestWindow) {
        let model = LibraryModel(dependencies: .test(), session: nil, load: false, send: { _ in })
        model.browseForPreview([], selected: selected)
        let page = LibraryPage(model: model)
        let window = TestWindow(child: page.widget, width: 1000, height: 700)
        return (model, page, window)
    }

    func testHomeListsMyShelvesAndOthersAndOpensTheirPages() throws {
        try MainActor.assumeIsolated {
            guard requireGtk() else { return }
            let (model, page, window) = Self.makePage()
            defer { page.teardown(); window.close() }
            let browser = try XCTUnwrap(page.browser)
            let section = try XCTUnwrap(browser.homeView?.shelvesSection, "Home has the shelves with a session's shelves")
            let shelves = try XCTUnwrap(model.shelves)
            adw_view_stack_set_visible_child_name(browser.tabs.opaque, "home")
            XCTAssertTrue(MainContext.iterate(until: { shelves.reads > 0 && section.rows.count == 3 }), "the shelves are read")
            window.settle()
            let summer = try XCTUnwrap(section.rows[LibraryModel.previewShelfID])
            XCTAssertEqual(summer.title, "Summer Holiday")
            XCTAssertEqual(summer.subtitle, "3 books")
            XCTAssertEqual(section.rows["shelf-to-read"]?.subtitle, "2 books")
            let theirs = try XCTUnwrap(section.rows[LibraryModel.previewOthersShelfID])
            XCTAssertEqual(theirs.subtitle, "Mara Lindqvist · 3 books", "whose it is")

            // Mine: in the shelf's order, with Edit, Delete and Remove from Shelf.
            Self.activate(summer.pointer)
            XCTAssertTrue(MainContext.iterate(until: { browser.topPage?.key.id == LibraryModel.previewShelfID }), "the shelf's page opens")
            window.settle()
            let mine = try XCTUnwrap(browser.topPage)
            XCTAssertEqual(mine.shownGroups.first?.1, ["The Left Hand of Darkness", "Dune", "Piranesi"], "the shelf's order, not by title")
            XCTAssertNotNil(mine.shelfButtons, "Edit Shelf… and Delete Shelf…")
            XCTAssertEqual(mine.removeButtons.count, 3)

            // Delete Shelf? asks first, Cancel the default.
            let dialogs = try XCTUnwrap(browser.shelfDialogs)
            emit("clicked", on: try XCTUnwrap(mine.shelfButtons).delete)
            let confirmation = try XCTUnwrap(dialogs.shown)
            XCTAssertEqual(confirmation.heading, "Delete Shelf?")
            XCTAssertEqual(confirmation.defaultResponse, "cancel")
            XCTAssertEqual(confirmation.responseAppearance("delete"), ADW_RESPONSE_DESTRUCTIVE)
            confirmation.respond("cancel")
            XCTAssertNil(dialogs.shown)
            XCTAssertEqual(shelves.mine.count, 2, "nothing deleted")

            // Edit Shelf…: the name and description filled in; Save off with no name.
            emit("clicked", on: Button(unchecked: try XCTUnwrap(mine.shelfButtons).edit.widget))
            let edit = try XCTUnwrap(dialogs.shown)
            XCTAssertEqual(edit.heading, "Edit Shelf")
            XCTAssertEqual(edit.responseLabel("save"), "Save")
            let extra = try XCTUnwrap(edit.extraChild)
            XCTAssertNotNil(extra)
            XCTAssertEqual(adw_message_dialog_get_response_enabled(edit.pointer.cast(to: AdwMessageDialog.self), "save"), 1)
            dialogs.close()

            // Someone else's: read-only, whose it is.
            emit("clicked", on: mine.backButton)
            XCTAssertTrue(MainContext.iterate(until: { browser.topPage == nil }))
            Self.activate(theirs.pointer)
            XCTAssertTrue(MainContext.iterate(until: { browser.topPage?.key.id == LibraryModel.previewOthersShelfID }))
            window.settle()
            let other = try XCTUnwrap(browser.topPage)
            XCTAssertNil(other.shelfButtons, "no changes to someone else's shelf")
            XCTAssertTrue(other.removeButtons.isEmpty)
            XCTAssertEqual(other.shownGroups.first?.1.count, 3)
        }
    }

    func testAddToShelfChecksTheShelvesHoldingTheBookAndOffersANewOne() throws {
        try MainActor.assumeIsolated {
            guard requireGtk() else { return }
            let (model, page, window) = Self.makePage(selected: "book-0")
            defer { page.teardown(); window.close() }
            let shelves = try XCTUnwrap(model.shelves)
            let add = try XCTUnwrap(page.details.addToShelf, "a book's details have Add to Shelf")
            XCTAssertTrue(MainContext.iterate(until: { add.checks.count == 2 }), "one check per shelf of mine")
            window.settle()
            XCTAssertEqual(add.checks[LibraryModel.previewShelfID]?.isChecked, true, "on Summer Holiday")
            XCTAssertEqual(add.checks["shelf-to-read"]?.isChecked, false)

            // Toggling sends the change (the preview has no server: it is refused, and said).
            add.checks["shelf-to-read"]?.isChecked = true
            XCTAssertTrue(MainContext.iterate(until: { shelves.problem != nil }), "the change went to the server")
            XCTAssertEqual(shelves.problem?.code, "unreachable")

            // New Shelf…: the dialog, Save off until a name is typed.
            var asked: String?
            add.onNewShelf = { asked = $0 }
            let newShelf = try XCTUnwrap(page.browser?.shelfDialogs)
            emit("clicked", on: add.newButton)
            XCTAssertEqual(asked, "book-0", "with the book")
            newShelf.edit(nil, addingBook: "book-0", over: Widget(page.widget))
            let dialog = try XCTUnwrap(newShelf.shown)
            XCTAssertEqual(dialog.heading, "New Shelf")
            XCTAssertEqual(dialog.responseLabel("save"), "Create")
            let raw = dialog.pointer.cast(to: AdwMessageDialog.self)
            XCTAssertEqual(adw_message_dialog_get_response_enabled(raw, "save"), 0, "no name, no Create")
            newShelf.close()
        }
    }


    func testTheShelfPreviewsOpenThePopoverAndTheDialog() throws {
        try MainActor.assumeIsolated {
            guard requireGtk() else { return }
            for name in ["add-to-shelf", "new-shelf"] {
                let state = try XCTUnwrap(LibraryModel.browsePreviews.first { $0.name == name })
                let model = LibraryModel(dependencies: .test(), session: nil, load: false, send: { _ in })
                state.apply(model)
                let page = LibraryPage(model: model)
                let window = TestWindow(child: page.widget, width: 1000, height: 700)
                XCTAssertTrue(MainContext.iterate(until: { page.dialog.map { gtk_widget_get_mapped($0) != 0 } ?? false }),
                              "\(name): its popover or dialog is shown for the screenshot")
                page.teardown()
                window.close()
            }
        }
    }

    /// Activates `row` as a click or Enter does: its list's `row-activated`.
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
