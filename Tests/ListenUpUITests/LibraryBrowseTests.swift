import CAdwaita
import Foundation
import GtkBridge
import XCTest
@testable import ListenUpCore
@testable import ListenUpUI

/// The library's tabs and browse pages in a real window, over the preview
/// books' cache (`LibraryModel.browseForPreview`): the tabs show their
/// lists, which sort and follow the search; rows, search matches and a
/// book's links open pages; Back, Alt+Left and Escape close them.
final class LibraryBrowseTests: XCTestCase {
    @MainActor
    private static func makePage(query: String = "", selected: String? = nil) -> (LibraryModel, LibraryPage, TestWindow) {
        let model = LibraryModel(dependencies: .test(), session: nil, load: false, send: { _ in })
        model.browseForPreview([], query: query, selected: selected)
        let page = LibraryPage(model: model)
        let window = TestWindow(child: page.widget, width: 1000, height: 700)
        return (model, page, window)
    }

    @MainActor
    private static func browser(_ page: LibraryPage) -> LibraryBrowser? {
        XCTAssertNotNil(page.browser, "the page browses when the library has a browse model")
        return page.browser
    }

    /// Shows `kind`'s tab as the switcher does and waits for its list.
    @MainActor
    private static func show(_ kind: BrowseKind, in browser: LibraryBrowser, window: TestWindow) -> BrowseListView? {
        browser.showTab(kind)
        XCTAssertEqual(browser.browse.shown, kind, "showing the tab shows its list")
        XCTAssertTrue(MainContext.iterate(until: { browser.browse.lists[kind] != nil }), "the list is read")
        window.settle()
        return browser.lists[kind]
    }

    /// Runs the page's shortcut for `trigger` (``pressShortcut(_:on:)``).
    @MainActor
    private static func press(_ trigger: String, on widget: UnsafeMutablePointer<GtkWidget>) -> Bool {
        pressShortcut(trigger, on: widget)
    }

    func testHomeShowsTheWeekAndTheNewestBooksWhichOpenOnTheBooksAsASearchFromHomeDoes() throws {
        try MainActor.assumeIsolated {
            guard requireGtk() else { return }
            let (model, page, window) = Self.makePage()
            defer { page.teardown(); window.close() }
            guard let browser = Self.browser(page), let homeView = browser.homeView, let home = model.home else {
                return XCTFail("the page has Home when the library has one")
            }
            XCTAssertFalse(browser.homeShown, "the books first")
            adw_view_stack_set_visible_child_name(browser.tabs.opaque, "home")
            XCTAssertTrue(browser.browse.showsHome, "the switcher's Home tab shows Home")
            XCTAssertTrue(MainContext.iterate(until: { homeView.isSettled && home.summary != nil }), "the kept stats are read")
            window.settle()
            XCTAssertEqual(home.summary?.streakDays, 4)
            XCTAssertEqual(home.summary?.minutesByDay, [25, 0, 40, 15, 55, 70, 35], "the week, today last")
            // The figures beside the chart keep to their narrow column: the
            // total on one line, the week's genres wrapped under it.
            let labels = homeView.root.descendants(ofType: gtk_label_get_type())
            let lines = { (prefix: String) -> Int32? in
                labels.first { Label(unchecked: $0).text.hasPrefix(prefix) }.map { pango_layout_get_line_count(gtk_label_get_layout($0.opaque)) }
            }
            let total = try XCTUnwrap(labels.first { Label(unchecked: $0).text.hasSuffix("listened in all") })
            XCTAssertEqual(gtk_widget_get_width(try XCTUnwrap(gtk_widget_get_parent(total))), 180, "the figures' column")
            XCTAssertEqual(lines("86 h"), 1)
            XCTAssertEqual(lines("240 minutes this week"), 3)
            XCTAssertFalse(page.sortDropDown.isVisible, "no order on Home")
            XCTAssertFalse(browser.sortDropDown.isVisible)
            XCTAssertEqual(homeView.recentButtons.count, LibraryModel.previewBooks.count, "the ten preview books, newest first")

            // A book added last opens its details, on the books.
            let newest = try XCTUnwrap(home.recentlyAdded.first?.id)
            emit("clicked", on: try XCTUnwrap(homeView.recentButtons[newest]))
            XCTAssertTrue(MainContext.iterate(until: { model.selection?.book.id == newest }), "its details")
            XCTAssertFalse(browser.browse.showsHome)
            XCTAssertTrue(MainContext.iterate(until: { !browser.homeShown }), "on the books")

            // Typing on Home shows the books found.
            adw_view_stack_set_visible_child_name(browser.tabs.opaque, "home")
            XCTAssertTrue(browser.homeShown)
            page.searchEntry.text = "dune"
            XCTAssertTrue(MainContext.iterate(until: { !browser.homeShown && !browser.browse.showsHome }), "the Books tab")
            XCTAssertEqual(model.visible.map(\.title), ["Dune"])
        }
    }

    func testTabsShowTheListsWhichSortAndFollowTheSearch() {
        MainActor.assumeIsolated {
            guard requireGtk() else { return }
            let (_, page, window) = Self.makePage()
            defer { page.teardown(); window.close() }
            guard let browser = Self.browser(page) else { return }
            XCTAssertTrue(browser.switcher.isVisible, "the tabs are shown")
            XCTAssertNil(browser.browse.shown, "the books first")

            guard let series = Self.show(.series, in: browser, window: window) else { return XCTFail("no series list") }
            XCTAssertEqual(series.shownNames, ["Chronicles", "Dune", "Hainish Cycle", "Modern Classics", "Thomas Cromwell"])
            XCTAssertFalse(series.showsStatus)
            XCTAssertTrue(browser.sortDropDown.isVisible, "a list's order")
            XCTAssertFalse(page.sortDropDown.isVisible, "not the books'")
            XCTAssertFalse(Widget(gtk_widget_get_parent(page.gridToggle.pointer)!).isVisible, "nor grid or list")

            // Number of Books: the series of four first.
            browser.sortDropDown.selected = 1
            XCTAssertEqual(browser.browse.sorts[.series], .bookCount)
            XCTAssertTrue(MainContext.iterate(until: { series.shownNames.first == "Modern Classics" }), "the most books first")
            XCTAssertEqual(BrowseListView.bookCount(4), "4 books")
            XCTAssertEqual(BrowseListView.bookCount(1), "1 book")

            // The one search field filters the list shown.
            page.searchEntry.text = "cromw"
            XCTAssertTrue(MainContext.iterate(until: { series.shownNames == ["Thomas Cromwell"] }), "the search reaches the lists")
            XCTAssertEqual(browser.browse.query, "cromw")
            XCTAssertEqual(page.model.query, "cromw", "and the books")
            page.searchEntry.text = "zzyzx"
            XCTAssertTrue(MainContext.iterate(until: { series.showsStatus }), "an empty list says so")
            page.searchEntry.text = ""
            XCTAssertTrue(MainContext.iterate(until: { !series.showsStatus && series.shownNames.count == 5 }))

            guard let authors = Self.show(.authors, in: browser, window: window) else { return XCTFail("no authors list") }
            XCTAssertTrue(authors.shownNames.contains("Ursula K. Le Guin"))
            XCTAssertFalse(authors.shownNames.contains("George Guidall"), "narrators are not authors")
            guard let narrators = Self.show(.narrators, in: browser, window: window) else { return XCTFail("no narrators list") }
            XCTAssertTrue(narrators.shownNames.contains("George Guidall"))

            browser.showTab(nil)
            XCTAssertNil(browser.browse.shown, "the Books tab shows no list")
            XCTAssertTrue(page.sortDropDown.isVisible, "the books' order again")
            XCTAssertFalse(browser.sortDropDown.isVisible)
        }
    }

    func testARowOpensItsPageAndBackEscapeAndAltLeftCloseIt() {
        MainActor.assumeIsolated {
            guard requireGtk() else { return }
            let (model, page, window) = Self.makePage()
            defer { page.teardown(); window.close() }
            guard let browser = Self.browser(page), let series = Self.show(.series, in: browser, window: window) else { return }

            @MainActor func openClassics() -> BrowsePageView? {
                guard let position = series.items.firstIndex(where: { $0.id == "series-modern-classics" }) else { return nil }
                gtk_widget_activate_action_variant(series.list.pointer, "list.activate-item", g_variant_new_uint32(guint32(position)))
                XCTAssertTrue(MainContext.iterate(until: { browser.topPage != nil }), "activating a row opens its page")
                window.settle()
                return browser.topPage
            }
            guard let top = openClassics() else { return XCTFail("no page") }
            XCTAssertEqual(top.key, BrowseModel.PageKey(kind: .series, id: "series-modern-classics"))
            XCTAssertEqual(browser.pageStack.visibleChildName, top.name, "the page is shown over the library")
            XCTAssertEqual(top.shownGroups.map(\.0), ["Books"])
            XCTAssertEqual(top.shownGroups.first?.1, ["The Remains of the Day", "Wolf Hall", "Piranesi", "Middlemarch"],
                           "in the series' order, 1, 2, 10, then the book with no number")
            XCTAssertTrue(top.backButton.isFocus, "the focus moves to the page")
            let library = gtk_stack_get_child_by_name(browser.pageStack.opaque, "library")
            XCTAssertEqual(library.map { gtk_widget_get_visible($0) }, 0, "the library under the page is hidden from screen readers")

            // A book on the page shows its details.
            guard let row = top.rowWidget(for: "book-2") else { return XCTFail("no row for Piranesi") }
            Self.activate(row)
            XCTAssertTrue(MainContext.iterate(until: { model.selection?.book.id == "book-2" }), "the book's details open")

            // Escape closes the details first, then the page.
            XCTAssertTrue(Self.press("Escape", on: page.root.pointer))
            XCTAssertNil(model.selection)
            XCTAssertEqual(browser.browse.pages.count, 1, "the page stays while the details close")
            XCTAssertTrue(Self.press("Escape", on: page.root.pointer))
            XCTAssertTrue(MainContext.iterate(until: { browser.topPage == nil }))
            XCTAssertEqual(browser.pageStack.visibleChildName, "library")
            XCTAssertEqual(library.map { gtk_widget_get_visible($0) }, 1, "and shown again")
            XCTAssertFalse(Self.press("Escape", on: page.root.pointer), "with nothing open, Escape goes on")

            // Back.
            guard let second = openClassics() else { return XCTFail("no page") }
            emit("clicked", on: second.backButton)
            XCTAssertTrue(MainContext.iterate(until: { browser.topPage == nil }), "Back closes the page")
            XCTAssertEqual(browser.pageStack.visibleChildName, "library")

            // Alt+Left.
            XCTAssertNotNil(openClassics())
            XCTAssertTrue(Self.press("<Alt>Left", on: page.root.pointer))
            XCTAssertTrue(MainContext.iterate(until: { browser.topPage == nil }), "Alt+Left closes the page")
            window.settle()
            XCTAssertEqual(Self.childCount(of: browser.pageStack.pointer), 1, "a closed page leaves the stack")
        }
    }

    /// A link in the book's details opens a page from outside the pages'
    /// stack, which moves the focus only when it is inside: the browser moves
    /// it to the page, and back to the books when the page closes.
    func testTheFocusFollowsAPageOpenedFromTheDetails() {
        MainActor.assumeIsolated {
            guard requireGtk() else { return }
            let (_, page, window) = Self.makePage(selected: "book-0")
            defer { page.teardown(); window.close() }
            guard let browser = Self.browser(page),
                  let link = page.details.linkButtons.first(where: { $0.kind == .series && $0.id == "series-hainish-cycle" })
            else { return XCTFail("no link to the series") }
            window.settle()
            XCTAssertTrue(Widget(link.button.pointer).grabFocus())
            XCTAssertFalse(browser.pageStack.windowFocus?.isInside(browser.pageStack) == true, "the link is outside the pages")

            emit("clicked", on: link.button)
            XCTAssertTrue(MainContext.iterate(until: { browser.topPage != nil }), "the series' page opens")
            guard let top = browser.topPage else { return XCTFail("no page") }
            XCTAssertTrue(top.backButton.isFocus, "the focus moves to the page")

            emit("clicked", on: top.backButton)
            XCTAssertTrue(MainContext.iterate(until: { browser.topPage == nil }), "Back closes the page")
            let books = page.collection.visibleView(for: page.model.layout)
            XCTAssertTrue(browser.pageStack.windowFocus?.isInside(books) == true, "the focus is back on the books")
        }
    }

    func testDetailsLinksOpenTheirPages() {
        MainActor.assumeIsolated {
            guard requireGtk() else { return }
            let (_, page, window) = Self.makePage(selected: "book-0")
            defer { page.teardown(); window.close() }
            guard let browser = Self.browser(page) else { return }
            let links = page.details.linkButtons.map { "\($0.kind.rawValue):\($0.id)" }
            XCTAssertEqual(links, ["contributor:person-ursula-k-le-guin", "contributor:person-george-guidall",
                                   "series:series-hainish-cycle", "genre:genre-science-fiction",
                                   "tag:tag-award-winner", "mood:mood-reflective", "collection:collection-book-club"])

            @MainActor func click(_ kind: BrowsePageKind, _ id: String) {
                guard let link = page.details.linkButtons.first(where: { $0.kind == kind && $0.id == id }) else { return XCTFail("no link to \(id)") }
                emit("clicked", on: link.button)
            }
            click(.contributor, "person-ursula-k-le-guin")
            XCTAssertEqual(browser.browse.pagesOpening, 1, "the page is read off the main actor")
            XCTAssertFalse(page.isContentReady, "a screenshot would wait for it")
            XCTAssertTrue(MainContext.iterate(until: { browser.topPage?.key.id == "person-ursula-k-le-guin" }), "the author's page opens")
            XCTAssertEqual(browser.browse.pagesOpening, 0)
            XCTAssertTrue(MainContext.iterate(until: { page.isContentReady }))
            XCTAssertEqual(browser.topPage?.shownGroups.map(\.0), ["Author", "Translator"], "grouped by role")
            XCTAssertEqual(browser.topPage?.shownGroups.last?.1, ["吾輩は猫である"])

            click(.series, "series-hainish-cycle")
            XCTAssertTrue(MainContext.iterate(until: { browser.topPage?.key.id == "series-hainish-cycle" }), "the series' page opens over it")
            XCTAssertEqual(browser.browse.pages.count, 2)

            click(.genre, "genre-science-fiction")
            XCTAssertTrue(MainContext.iterate(until: { browser.topPage?.key.id == "genre-science-fiction" }), "the genre's page opens")
            guard let genre = browser.topPage else { return }
            XCTAssertEqual(Set(genre.shownGroups.first?.1 ?? []), ["The Left Hand of Darkness", "Project Hail Mary", "Dune"])
            XCTAssertEqual(genre.parentButtons.map(\.id), ["genre-fiction"], "its parent genre is a link")
            if let parent = genre.parentButtons.first { emit("clicked", on: parent.button) }
            XCTAssertTrue(MainContext.iterate(until: { browser.topPage?.key.id == "genre-fiction" }), "the parent's page opens")
            XCTAssertEqual(browser.browse.pages.count, 4)
        }
    }

    func testASearchShowsTheSeriesAndPeopleItFinds() {
        MainActor.assumeIsolated {
            guard requireGtk() else { return }
            let (_, page, window) = Self.makePage(query: "cl")
            defer { page.teardown(); window.close() }
            guard let browser = Self.browser(page) else { return }
            XCTAssertTrue(MainContext.iterate(until: { !browser.matchButtons.isEmpty }), "the matches are read")
            let matches = browser.matchButtons.map { "\($0.kind.rawValue):\($0.id)" }
            XCTAssertEqual(matches, ["series:series-chronicles", "series:series-hainish-cycle", "series:series-modern-classics",
                                     "contributor:person-susanna-clarke"])
            guard let clarke = browser.matchButtons.last else { return }
            emit("clicked", on: clarke.button)
            XCTAssertTrue(MainContext.iterate(until: { browser.topPage?.key.id == "person-susanna-clarke" }), "a match opens its page")

            // Not on a list's tab, nor without a query.
            page.searchEntry.text = ""
            XCTAssertTrue(MainContext.iterate(until: { browser.browse.query.isEmpty && browser.matchButtons.isEmpty }), "no query, no matches")
        }
    }

    func testThePreviewStatesShowTheirTabAndPage() {
        MainActor.assumeIsolated {
            guard requireGtk() else { return }
            for state in LibraryModel.browsePreviews {
                let model = LibraryModel(dependencies: .test(), session: nil, load: false, send: { _ in })
                state.apply(model)
                let page = LibraryPage(model: model)
                let window = TestWindow(child: page.widget, width: 1000, height: 700)
                XCTAssertTrue(MainContext.iterate(until: { page.isContentReady }), "\(state.name): the page is ready")
                let browser = page.browser
                switch state.name {
                case "series-page", "contributor-page", "genre-page", "contributor-photo", "series-cover", "shelf-page", "shelf-page-others":
                    XCTAssertNotNil(browser?.topPage, "\(state.name): the page is open")
                    XCTAssertEqual(browser?.pageStack.visibleChildName, browser?.topPage?.name, "\(state.name): and shown")
                case "series", "authors", "narrators", "series-no-results":
                    XCTAssertNotNil(browser?.browse.shown, "\(state.name): a list's tab")
                    XCTAssertEqual(browser?.shownTab, browser?.browse.shown)
                default:
                    XCTAssertNil(browser?.topPage)
                }
                page.teardown()
                window.close()
            }
        }
    }

    /// A list the search emptied counts as shown only once its status page
    /// is: `--screenshot` takes the page when it is ready.
    func testAnEmptiedListIsSettledOnlyOnceItsStatusPageShows() {
        MainActor.assumeIsolated {
            guard requireGtk() else { return }
            let model = LibraryModel(dependencies: .test(), session: nil, load: false, send: { _ in })
            model.browseForPreview([.show(.series)], query: "zzyzx")
            let page = LibraryPage(model: model)
            defer { page.teardown() }
            guard let browser = Self.browser(page), let series = browser.lists[.series] else { return XCTFail("no series list") }
            // Every turn of the main loop, from before the list is read until
            // it is shown: settled must mean the status page is up.
            var settledBeforeShown = false
            XCTAssertTrue(MainContext.iterate(until: {
                if browser.isSettled, !series.showsStatus { settledBeforeShown = true }
                return browser.isSettled
            }))
            XCTAssertFalse(settledBeforeShown, "read but not yet shown is not settled")
            XCTAssertEqual(model.browse?.lists[.series], [], "the search left no series")
            XCTAssertTrue(series.showsStatus, "settled, it says no series matches")
        }
    }

    /// A keystroke updates only the list on screen; another list catches up
    /// on the search when its tab is shown (a big library has thousands of
    /// rows in each).
    func testOnlyTheListShownFollowsTheSearchUntilAnotherIsShown() {
        MainActor.assumeIsolated {
            guard requireGtk() else { return }
            let (_, page, window) = Self.makePage()
            defer { page.teardown(); window.close() }
            guard let browser = Self.browser(page), let authors = Self.show(.authors, in: browser, window: window),
                  let series = Self.show(.series, in: browser, window: window) else { return }
            let allAuthors = authors.items.count
            XCTAssertGreaterThan(allAuthors, 1)
            browser.browse.send(.search("classics"))
            window.settle()
            XCTAssertEqual(series.items.map(\.name), ["Modern Classics"], "the list shown follows the search")
            XCTAssertEqual(authors.items.count, allAuthors, "a hidden list is left as it was")
            _ = Self.show(.authors, in: browser, window: window)
            XCTAssertTrue(MainContext.iterate(until: { authors.items.count < allAuthors }), "shown, it catches up")
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

    @MainActor
    private static func childCount(of widget: UnsafeMutablePointer<GtkWidget>) -> Int {
        var count = 0
        var child = gtk_widget_get_first_child(widget)
        while let current = child {
            count += 1
            child = gtk_widget_get_next_sibling(current)
        }
        return count
    }
}
