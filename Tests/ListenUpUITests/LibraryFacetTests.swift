import CAdwaita
import Foundation
import GtkBridge
import XCTest
@testable import ListenUpCore
@testable import ListenUpUI

/// The facets in a real window, over the preview books' cache: the Genres
/// tab (the server's genre tree, indented; its switcher to the tags, moods
/// and collections), a book's tag, mood and collection links, and their
/// pages; a genre page's children open theirs.
final class LibraryFacetTests: XCTestCase {
    @MainActor
    private static func makePage(selected: String? = nil) -> (LibraryModel, LibraryPage, TestWindow) {
        let model = LibraryModel(dependencies: .test(), session: nil, load: false, send: { _ in })
        model.browseForPreview([], selected: selected)
        let page = LibraryPage(model: model)
        let window = TestWindow(child: page.widget, width: 1000, height: 700)
        return (model, page, window)
    }

    func testTheGenresTabShowsTheTreeAndSwitchesToTagsMoodsAndCollections() {
        MainActor.assumeIsolated {
            guard requireGtk() else { return }
            let (_, page, window) = Self.makePage()
            defer { page.teardown(); window.close() }
            guard let browser = page.browser else { return XCTFail("no browser") }
            browser.showTab(.genres)
            XCTAssertEqual(browser.browse.shown, .genres)
            XCTAssertTrue(MainContext.iterate(until: { browser.browse.lists[.genres] != nil }), "the genres are read")
            window.settle()
            let genres = browser.lists[.genres]
            XCTAssertEqual(genres?.shownNames, ["Fiction", "Classics", "Fantasy", "Historical Fiction", "Science Fiction"],
                           "the server's tree, parents first, without the genre that has no books")
            XCTAssertEqual(genres?.items.map(\.depth), [0, 1, 1, 1, 1])
            XCTAssertTrue(genres?.indentsByDepth == true, "by name, the rows show the tree")
            XCTAssertEqual(browser.shownTab, .genres)

            // The switcher's other lists, in the same tab; moods only where there are some.
            XCTAssertTrue(MainContext.iterate(until: { browser.browse.items(.moods)?.isEmpty == false }), "the moods are read with the tab")
            window.settle()
            XCTAssertEqual(gtk_stack_page_get_visible(gtk_stack_get_page(browser.facetStack.opaque,
                                                                         gtk_widget_get_parent(browser.lists[.moods]?.widget))), 1)
            for (kind, names) in [(BrowseKind.tags, ["Award Winner", "Found Family", "Slow Burn", "Unreliable Narrator"]),
                                  (.moods, ["Hopeful", "Reflective", "Tense"]), (.collections, ["Book Club", "Road Trip"])] {
                browser.facetStack.visibleChildName = kind.rawValue
                XCTAssertEqual(browser.browse.shown, kind, "the switcher shows \(kind)")
                XCTAssertTrue(MainContext.iterate(until: { browser.browse.lists[kind] != nil }))
                window.settle()
                XCTAssertEqual(browser.lists[kind]?.shownNames, names)
                XCTAssertEqual(browser.shownTab, kind)
            }
            // A row opens its page.
            guard let club = browser.lists[.collections]?.items.first else { return XCTFail("no collection") }
            browser.lists[.collections]?.onActivate(club)
            XCTAssertTrue(MainContext.iterate(until: { browser.topPage?.key == BrowseModel.PageKey(kind: .collection, id: club.id) }))
            XCTAssertEqual(browser.topPage?.shownGroups.first?.1.count, 3)
        }
    }

    func testABooksTagsMoodsAndCollectionsAreLinksToTheirPages() {
        MainActor.assumeIsolated {
            guard requireGtk() else { return }
            let (_, page, window) = Self.makePage(selected: "book-0")
            defer { page.teardown(); window.close() }
            guard let browser = page.browser else { return XCTFail("no browser") }
            let links = page.details.linkButtons.filter { [.tag, .mood, .collection].contains($0.kind) }
            XCTAssertEqual(links.map { "\($0.kind.rawValue):\($0.id)" },
                           ["tag:tag-award-winner", "mood:mood-reflective", "collection:collection-book-club"])
            for link in links {
                emit("clicked", on: link.button)
                XCTAssertTrue(MainContext.iterate(until: { browser.topPage?.key == BrowseModel.PageKey(kind: link.kind, id: link.id) }),
                              "\(link.id) opens")
                XCTAssertTrue(browser.topPage?.shownGroups.first?.1.contains("The Left Hand of Darkness") == true)
            }
            XCTAssertEqual(browser.topPage.map { BrowsePageView.kindName($0.key.kind) }, "Collection")
        }
    }

    func testAGenresChildrenOpenTheirPages() {
        MainActor.assumeIsolated {
            guard requireGtk() else { return }
            let (_, page, window) = Self.makePage()
            defer { page.teardown(); window.close() }
            guard let browser = page.browser else { return XCTFail("no browser") }
            browser.browse.send(.open(.genre, id: "genre-fiction"))
            XCTAssertTrue(MainContext.iterate(until: { browser.topPage?.key.id == "genre-fiction" }))
            window.settle()
            guard let fiction = browser.topPage else { return }
            XCTAssertEqual(fiction.childRows.map(\.id), ["genre-classics", "genre-science-fiction", "genre-fantasy", "genre-historical"],
                           "in the curator's order, without the empty genre")
            XCTAssertEqual(fiction.parentButtons.count, 0)
            guard let fantasy = fiction.childRows.first(where: { $0.id == "genre-fantasy" }) else { return }
            fantasy.row.activate()
            XCTAssertTrue(MainContext.iterate(until: { browser.topPage?.key.id == "genre-fantasy" }), "a child opens its page")
            XCTAssertEqual(browser.topPage?.parentButtons.map(\.id), ["genre-fiction"])
        }
    }

    func testTheFacetPreviewStatesShowTheirTabAndPage() {
        MainActor.assumeIsolated {
            guard requireGtk() else { return }
            for state in LibraryModel.facetPreviews {
                let model = LibraryModel(dependencies: .test(), session: nil, load: false, send: { _ in })
                state.apply(model)
                let page = LibraryPage(model: model)
                let window = TestWindow(child: page.widget, width: 1000, height: 700)
                XCTAssertTrue(MainContext.iterate(until: { page.isContentReady }), "\(state.name): the page is ready")
                let browser = page.browser
                if state.name.hasSuffix("-page") {
                    XCTAssertNotNil(browser?.topPage, "\(state.name): the page is open")
                    XCTAssertEqual(browser?.pageStack.visibleChildName, browser?.topPage?.name)
                } else {
                    XCTAssertEqual(browser?.shownTab, browser?.browse.shown, "\(state.name): its list in the Genres tab")
                }
                page.teardown()
                window.close()
            }
        }
    }
}
