import CAdwaita
import Foundation
import GtkBridge
import XCTest
@testable import ListenUpCore
@testable import ListenUpUI

/// The library's templates (`library-page.ui`, `book-details.ui`) and the
/// Swift that fills them agree: the drop-downs list the choices in the
/// order the page reads them, and the details panel shows a book's lines in
/// their order, without the ones it has nothing for.
final class LibraryTemplateTests: XCTestCase {
    @MainActor
    private static func makePage(selected: String? = nil) -> (LibraryModel, LibraryPage, TestWindow) {
        let model = LibraryModel(dependencies: .test(), session: nil, load: false, send: { _ in })
        model.showForPreview(LibraryModel.previewBooks, status: .loaded, selected: selected)
        let page = LibraryPage(model: model)
        let window = TestWindow(child: page.widget, width: 1100, height: 800)
        return (model, page, window)
    }

    /// The strings of a drop-down's `GtkStringList`, in order.
    @MainActor
    private static func items(of dropDown: DropDown) -> [String] {
        guard let model = gtk_drop_down_get_model(dropDown.opaque) else { return [] }
        return (0..<g_list_model_get_n_items(model)).map { String(cString: gtk_string_list_get_string(model, $0)) }
    }

    /// The texts of the visible labels under `widget`, depth first (what is
    /// on screen, in reading order).
    @MainActor
    private static func visibleTexts(under widget: UnsafeMutablePointer<GtkWidget>) -> [String] {
        var texts: [String] = []
        var child = gtk_widget_get_first_child(widget)
        while let current = child {
            if gtk_widget_get_visible(current) != 0 {
                if let label = Label(checking: current) { texts.append(label.text) }
                texts += visibleTexts(under: current)
            }
            child = gtk_widget_get_next_sibling(current)
        }
        return texts
    }

    func testTheDropDownsListTheChoicesInTheOrderThePageReads() {
        MainActor.assumeIsolated {
            guard requireGtk() else { return }
            let (_, page, window) = Self.makePage()
            defer { page.teardown(); window.close() }
            XCTAssertEqual(Self.items(of: page.sortDropDown), LibraryToolbar.sorts.map(\.1))
            XCTAssertEqual(Self.items(of: page.toolbar.finishedDropDown), LibraryToolbar.finishedChoices.map(\.1))
        }
    }

    func testTheDetailsShowTheBooksLinesInOrderAndNoEmptyOnes() {
        MainActor.assumeIsolated {
            guard requireGtk() else { return }
            // The Remains of the Day: an author and a narrator, no series, no subtitle.
            let (_, page, window) = Self.makePage(selected: "book-3")
            defer { page.teardown(); window.close() }
            window.settle()
            let texts = Self.visibleTexts(under: page.details.box.pointer)
            let expected = ["The Remains of the Day", "Kazuo Ishiguro", BookCell.duration(35_000_000) + " · Preview House · 2020",
                            "Description", "A preview description.",
                            "People", "Kazuo Ishiguro — Author", "Simon Prebble — Narrator", "12 Chapters", "Chapter 1", "0:00", "Chapter 2", "30:00"]
            let shown = texts.filter { expected.contains($0) }
            XCTAssertEqual(Array(shown.prefix(expected.count)), expected, "\(texts)")
            // The content box's own lines: none shown empty (no subtitle, no series).
            guard let cover = page.details.cover, let content = gtk_widget_get_parent(cover.widget) else { return XCTFail("no cover") }
            var lines: [String] = []
            var child = gtk_widget_get_first_child(content)
            while let current = child {
                if gtk_widget_get_visible(current) != 0, let label = Label(checking: current) { lines.append(label.text) }
                child = gtk_widget_get_next_sibling(current)
            }
            XCTAssertFalse(lines.contains(""), "no empty line is shown: \(lines)")
            XCTAssertEqual(lines.first, "The Remains of the Day")
            XCTAssertNil(page.details.playButton, "no player, no Play button")
        }
    }

    /// `cover-view.ui` and `CoverView`: the size each place asks for, the
    /// small style under 80 px, the initials on the title's tint until a
    /// picture comes, and the card's buttons laid over the cover.
    func testACoverShowsItsPlaceholderAtItsSizeAndCarriesTheCardsButtons() {
        MainActor.assumeIsolated {
            guard requireGtk() else { return }
            let small = CoverView(size: 48), large = CoverView(size: 150)
            let box = Box(unchecked: newObject(gtk_box_new(GTK_ORIENTATION_VERTICAL, 0)))
            for cover in [small, large] { box.append(cover.widget) }
            let window = TestWindow(child: box, width: 400, height: 400)
            defer { window.close() }
            for cover in [small, large] {
                var width: Int32 = 0, height: Int32 = 0
                gtk_widget_get_size_request(cover.widget, &width, &height)
                XCTAssertEqual([width, height], [Int32(cover.size), Int32(cover.size)])
                XCTAssertEqual(Widget(cover.widget).width, cover.size)
                XCTAssertNotEqual(gtk_widget_has_css_class(cover.widget, "book-cover"), 0)
                XCTAssertEqual(gtk_widget_has_css_class(cover.widget, "small") != 0, cover.size < 80)
            }
            large.showPlaceholder(for: "The Left Hand of Darkness")
            XCTAssertEqual(large.placeholderText, "TL")
            XCTAssertFalse(large.showsPicture)
            let tint = "cover-tint-\(CoverView.tint(of: "The Left Hand of Darkness"))"
            XCTAssertNotEqual(gtk_widget_has_css_class(large.widget, tint), 0)
            large.showPlaceholder(for: "Dune")
            XCTAssertEqual(large.placeholderText, "D")
            if tint != "cover-tint-\(CoverView.tint(of: "Dune"))" {
                XCTAssertEqual(gtk_widget_has_css_class(large.widget, tint), 0, "the last title's tint goes")
            }
            // A card lays its Play and download buttons over the cover.
            let cell = BookCell(style: .card)
            XCTAssertEqual(gtk_widget_get_parent(cell.playButton.pointer), cell.cover.widget)
            XCTAssertEqual(gtk_widget_get_parent(cell.download.widget), cell.cover.widget)
        }
    }

    /// `book-collection.ui` and `BookCollectionView`: the grid and the list,
    /// each in a scrolled window that never scrolls sideways, are the
    /// stack's `grid` and `list` pages, and each view makes its cells with
    /// the collection's factory.
    func testTheCollectionsStackHoldsTheGridAndTheListWithTheirCells() {
        MainActor.assumeIsolated {
            guard requireGtk() else { return }
            let (_, page, window) = Self.makePage()
            defer { page.teardown(); window.close() }
            let collection = page.collection
            XCTAssertEqual(gtk_stack_get_transition_type(collection.widget.opaque), GTK_STACK_TRANSITION_TYPE_CROSSFADE)
            for (name, view) in [("grid", collection.grid), ("list", collection.list)] {
                guard let scrolled = gtk_widget_get_parent(view) else { return XCTFail("\(name) has no parent") }
                XCTAssertEqual(gtk_stack_get_child_by_name(collection.widget.opaque, name), scrolled, name)
                var horizontal = GTK_POLICY_ALWAYS, vertical = GTK_POLICY_ALWAYS
                gtk_scrolled_window_get_policy(scrolled.opaque, &horizontal, &vertical)
                XCTAssertEqual([horizontal, vertical], [GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC], name)
            }
            XCTAssertNotEqual(gtk_grid_view_get_single_click_activate(collection.grid.opaque), 0)
            XCTAssertNotEqual(gtk_list_view_get_single_click_activate(collection.list.opaque), 0)
            // The grid is shown: its factory made cards for the books.
            XCTAssertEqual(String(cString: gtk_stack_get_visible_child_name(collection.widget.opaque)), "grid")
            XCTAssertFalse(collection.cells.isEmpty, "the grid's factory made cells")
        }
    }
}
