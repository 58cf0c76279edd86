import CAdwaita
import Foundation
import GtkBridge
import ListenUpCore

/// Browsing the library as ListenUp's own apps do: the Books, Series,
/// Authors and Narrators tabs (an `AdwViewSwitcher` in the library's
/// heading), each list's order, the series and people a search finds, and
/// the pages opened over the library (a series, a person, a genre), which
/// slide in over it; Back, Alt+← and Escape go back.
///
/// The widgets are the library page's (`library-page.ui`: the switcher,
/// the tabs, the list order, the matches, the stack of pages); the lists
/// are ``BrowseListView``s and the pages ``BrowsePageView``s. It renders
/// the session's ``BrowseModel`` and sends it the user's intents; books go
/// to the library model (details, play).
@MainActor
final class LibraryBrowser {
    let browse: BrowseModel
    private let library: LibraryModel
    /// The `AdwViewStack` of the tabs.
    let tabs: Widget
    let switcher: Widget
    /// The library (`library`) and the pages over it.
    let pageStack: Stack
    /// The order of the list shown.
    let sortDropDown: DropDown
    private let matches: Box
    private let seriesMatches: Box
    private let peopleMatches: Box
    private(set) var lists: [BrowseKind: BrowseListView] = [:]
    /// Home, the first tab (nil when the session has none: previews).
    private(set) var homeView: HomeView?
    /// The shelves' dialogs (nil without the session's shelves).
    private(set) var shelfDialogs: ShelfDialogs?
    /// Home's stats were asked for since it was last shown.
    private var homeRefreshed = false
    /// The pages open, the newest last (as ``BrowseModel/pages``).
    private(set) var pageViews: [BrowsePageView] = []
    /// The buttons of the search's matches, with what they open (tests).
    private(set) var matchButtons: [(kind: BrowsePageKind, id: String, button: Button)] = []
    private var observation: StateObservation?
    private var connections: [SignalConnection] = []
    private var matchConnections: [SignalConnection] = []
    private var applyingState = false
    private var pageSerial = 0
    /// Pages popped, removed once they have slid out.
    private var leaving: [(BrowsePageView, MainLoopSource?)] = []
    private var shownMatches: ([BrowseItem], [BrowseItem])?
    /// Hides what a page covers once it has slid in.
    private var hiding: MainLoopSource?
    /// A tab was shown (nil: the books, or Home with ``homeShown``): the
    /// page shows its controls.
    var onTabShown: (BrowseKind?) -> Void = { _ in }
    /// Where the focus goes when the last page closes.
    var focusLibrary: () -> Void = {}

    /// The tabs, in the switcher's order (the template's pages). The
    /// Genres tab holds the facets' lists (``facetStack``): its kind is the
    /// one that stack shows.
    static let tabNames: [(name: String, kind: BrowseKind?)] = [("books", nil), ("series", .series), ("authors", .authors), ("narrators", .narrators),
                                                                ("genres", .genres)]
    /// The box of each list in the template.
    static let listBoxes: [(box: String, kind: BrowseKind)] = [("series-tab", .series), ("authors-tab", .authors), ("narrators-tab", .narrators),
                                                               ("genres-list", .genres), ("tags-list", .tags), ("moods-list", .moods),
                                                               ("collections-list", .collections)]
    /// The Genres tab's stack of lists (genres, tags, moods, collections;
    /// pages named by ``BrowseKind``), with its switcher.
    let facetStack: Stack
    /// The moods' page of that stack.
    private let moodsBox: Box

    /// The lists' orders, in the drop-down's order (the template's
    /// `browse-sort` lists the same texts).
    static let sorts: [(BrowseSort, String)] = [(.name, tr("Name")), (.bookCount, tr("Number of Books")), (.recentlyAdded, tr("Recently Added"))]

    /// At most this many matches of each kind are shown above the books.
    static let matchesShown = 4

    /// - Parameters:
    ///   - template: the library page's, which holds the tabs and the stack of pages.
    init(browse: BrowseModel, library: LibraryModel, template ui: Template) {
        self.browse = browse
        self.library = library
        shelfDialogs = library.shelves.map { ShelfDialogs(shelves: $0) }
        (tabs, switcher, pageStack, sortDropDown) = (ui.child("tabs"), ui.child("tabs-switcher"), ui.child("browse-stack"), ui.child("browse-sort"))
        (matches, seriesMatches, peopleMatches) = (ui.child("matches"), ui.child("series-matches"), ui.child("people-matches"))
        switcher.isVisible = true
        sortDropDown.button?.setAccessibleLabel(tr("Sort By"))
        (facetStack, moodsBox) = (ui.child("facet-stack"), ui.child("moods-list"))
        for (name, kind) in Self.listBoxes {
            let view = BrowseListView(kind: kind)
            view.onActivate = { [weak browse] item in browse?.send(.open(kind.pageKind, id: item.id)) }
            ui.child(name, as: Box.self).append(view.widget)
            lists[kind] = view
        }
        if let home = library.home {
            let view = HomeView(home: home, library: library)
            view.onOpenBook = { [weak library, weak browse] id in
                browse?.send(.show(nil))
                library?.send(.select(id))
            }
            let tab: Box = ui.child("home-tab")
            tab.append(view.root)
            tab.isVisible = true
            adw_view_stack_page_set_visible(adw_view_stack_get_page(tabs.opaque, tab.pointer), 1)
            homeView = view
            view.shelvesSection?.onOpen = { [weak browse] id in browse?.send(.open(.shelf, id: id)) }
            view.shelvesSection?.onNew = { [weak dialogs = shelfDialogs, root = view.root] in dialogs?.edit(nil, over: Widget(root)) }
        }
        connections.append(tabs.connect(.notify("visible-child-name")) { [weak self] in
            guard let self, !self.applyingState else { return }
            if self.homeShown {
                self.browse.send(.showHome)
                self.homeView?.refresh()
                self.homeRefreshed = true
                self.onTabShown(nil)
                return
            }
            self.homeRefreshed = false
            let kind = self.shownTab
            self.browse.send(.show(kind))
            self.onTabShown(kind)
        })
        connections.append(facetStack.connect(.notify("visible-child-name")) { [weak self] in
            guard let self, !self.applyingState, !self.homeShown else { return }
            let kind = self.shownTab
            self.browse.send(.show(kind))
            self.onTabShown(kind)
        })
        connections.append(sortDropDown.connect(.notify("selected")) { [weak self] in
            guard let self, !self.applyingState, let kind = self.browse.shown else { return }
            let index = self.sortDropDown.selected
            if Self.sorts.indices.contains(index) { self.browse.send(.sort(kind, Self.sorts[index].0)) }
        })
        observation = StateObservation { [weak self] in self?.render() }
    }

    /// Called after each render (the tab latency probe).
    var afterRender: (() -> Void)?

    /// The tab the switcher shows (nil: the books).
    var shownTab: BrowseKind? {
        let name = adw_view_stack_get_visible_child_name(tabs.opaque).map { String(cString: $0) }
        if name == "genres" { return facetStack.visibleChildName.flatMap(BrowseKind.init(rawValue:)) ?? .genres }
        return Self.tabNames.first { $0.name == name }?.kind
    }

    /// Home is the tab shown.
    var homeShown: Bool {
        adw_view_stack_get_visible_child_name(tabs.opaque).map { String(cString: $0) } == "home"
    }

    /// Shows the tab of `kind` (nil: the books), as the switcher would.
    func showTab(_ kind: BrowseKind?) {
        if let kind, BrowseModel.facetKinds.contains(kind) {
            facetStack.visibleChildName = kind.rawValue
            adw_view_stack_set_visible_child_name(tabs.opaque, "genres")
            return
        }
        guard let name = Self.tabNames.first(where: { $0.kind == kind })?.name else { return }
        adw_view_stack_set_visible_child_name(tabs.opaque, name)
    }

    /// The names of the tabs the switcher shows, in its order.
    var tabsShown: [String] {
        (["home"] + Self.tabNames.map(\.name)).filter { name in
            adw_view_stack_get_child_by_name(tabs.opaque, name).map { gtk_widget_get_visible($0) != 0 } ?? false
        }
    }

    /// Shows the `number`th tab (from 1), closing the pages over the
    /// library, as Alt+`number` does; false when there is no such tab.
    func showTab(number: Int) -> Bool {
        let shown = tabsShown
        guard shown.indices.contains(number - 1) else { return false }
        if !browse.pages.isEmpty { browse.send(.closeAll) }
        adw_view_stack_set_visible_child_name(tabs.opaque, shown[number - 1])
        return true
    }

    /// Closes the page on top; false when none is open.
    func goBack() -> Bool {
        guard !browse.pages.isEmpty else { return false }
        browse.send(.back)
        return true
    }

    private func render() {
        applyingState = true
        defer { applyingState = false }
        let shown = browse.shown
        if browse.showsHome, homeView != nil {
            if !homeShown || !homeRefreshed {
                adw_view_stack_set_visible_child_name(tabs.opaque, "home")
                homeView?.refresh()
                homeRefreshed = true
                onTabShown(nil)
            }
        } else if shownTab != shown || homeShown {
            homeRefreshed = false
            showTab(shown)
            onTabShown(shown)
        }
        // Genres of the server's tree, by name, show where they sit in it.
        lists[.genres]?.indentsByDepth = browse.sorts[.genres] == .name
        // Only the list on screen follows each change (a keystroke, a sync):
        // the others, thousands of rows each in a big library, are brought
        // up to date when their tab is shown (that changes `shown`).
        if let shown, let view = lists[shown] {
            view.show(browse.lists[shown], query: browse.query)
        }
        // Moods only where there are some (REST v1 servers have none).
        let moods = browse.items(.moods)?.isEmpty == false || shown == .moods
        if let page = gtk_stack_get_page(facetStack.opaque, moodsBox.pointer) { gtk_stack_page_set_visible(page, moods ? 1 : 0) }
        if let shown, let index = Self.sorts.firstIndex(where: { $0.0 == browse.sorts[shown] }) {
            if sortDropDown.selected != index { sortDropDown.selected = index }
            LibraryToolbar.nameShownItem(of: sortDropDown, Self.sorts[index].1)
        }
        renderMatches(visible: shown == nil && !browse.query.isEmpty)
        renderPages(browse.pages)
        afterRender?()
    }

    /// Whether the tab shown shows its content: a list once it is read
    /// (Home and the books show what is cached at once).
    var isShownTabReady: Bool {
        guard !homeShown, let kind = shownTab else { return true }
        return browse.lists[kind] != nil
    }

    /// Hides what the page on top covers (the library, the pages under
    /// it): GTK 4.8 keeps a stack's hidden children in the accessibility
    /// tree, where a screen reader (and Tab, by its lights) would find
    /// the library's controls behind a page. Hidden once the slide is over
    /// (hiding the child a stack slides away from ends the slide).
    private func hideCovered() {
        hiding?.cancel()
        hiding = nil
        if gtk_stack_get_transition_running(pageStack.opaque) != 0 {
            let duration = Int(gtk_stack_get_transition_duration(pageStack.opaque))
            hiding = MainContext.timeout(after: .milliseconds(duration + 50)) { [weak self] in
                self?.hiding = nil
                self?.hideCovered()
            }
            return
        }
        let top = pageViews.last?.widget
        var child = gtk_widget_get_first_child(pageStack.pointer)
        while let current = child {
            child = gtk_widget_get_next_sibling(current)
            if leaving.contains(where: { $0.0.widget == current }) { continue }
            gtk_widget_set_visible(current, top.map { current == $0 } ?? (gtk_stack_get_child_by_name(pageStack.opaque, "library") == current) ? 1 : 0)
        }
    }

    /// The series and people the search finds, a few of each, above the books.
    private func renderMatches(visible: Bool) {
        let series = visible ? Array(browse.seriesMatches.prefix(Self.matchesShown)) : []
        let people = visible ? Array(browse.peopleMatches.prefix(Self.matchesShown)) : []
        matches.isVisible = !series.isEmpty || !people.isEmpty
        guard shownMatches.map({ $0.0 != series || $0.1 != people }) ?? true else { return }
        shownMatches = (series, people)
        matchConnections = []
        matchButtons = []
        for (box, items, kind) in [(seriesMatches, series, BrowsePageKind.series), (peopleMatches, people, .contributor)] {
            // The heading stays; the buttons after it go.
            while let last = gtk_widget_get_last_child(box.pointer), last != gtk_widget_get_first_child(box.pointer) {
                box.remove(last)
            }
            box.isVisible = !items.isEmpty
            for item in items {
                let button = Button(unchecked: newObject(gtk_button_new_with_label(item.name)))
                button.setCSSClass("pill", true)
                button.setCSSClass("browse-match", true)
                // TRANSLATORS: a button opening a page: what it opens, and how many books (“Dune, 6 books”).
                button.setAccessibleLabel(tr("%@, %@", item.name, BrowseListView.bookCount(item.bookCount)))
                button.tooltip = BrowseListView.bookCount(item.bookCount)
                matchConnections.append(button.connect(.clicked) { [weak browse] in browse?.send(.open(kind, id: item.id)) })
                box.append(button)
                matchButtons.append((kind, item.id, button))
            }
        }
    }

    /// Follows the model's pages: the pages both share stay (shown again
    /// if they changed), those beyond go, new ones are made.
    private func renderPages(_ pages: [BrowseModel.Page]) {
        let before = pageViews.count
        var kept = 0
        while kept < min(pages.count, pageViews.count), pageViews[kept].key == pages[kept].key { kept += 1 }
        let popped = pageViews[kept...]
        pageViews.removeLast(pageViews.count - kept)
        for (index, page) in pages.enumerated() {
            if index < kept {
                pageViews[index].show(page, canPlay: library.player != nil)
                continue
            }
            pageSerial += 1
            let view = BrowsePageView(page: page, name: "page-\(pageSerial)")
            view.onBack = { [weak browse] in browse?.send(.back) }
            view.onSelect = { [weak library] id in library?.send(.select(id)) }
            if library.player != nil { view.onPlay = { [weak library] id in library?.send(.play(bookID: id)) } }
            view.onPlayNext = { [weak browse] in browse?.send(.playNextUnfinished) }
            view.onOpen = { [weak browse] kind, id in browse?.send(.open(kind, id: id)) }
            if browse.images != nil { view.loadImage = { [weak browse] contents in await browse?.image(for: contents) } }
            if page.contents.kind == .shelf, let shelves = library.shelves, let dialogs = shelfDialogs {
                let (id, widget) = (page.contents.id, Widget(unchecked: view.widget))
                view.onEditShelf = { [weak dialogs, weak shelves] in
                    guard let shelf = shelves?.shelf(id: id) else { return }
                    dialogs?.edit(shelf, over: widget)
                }
                view.onDeleteShelf = { [weak dialogs, weak shelves] in
                    guard let shelf = shelves?.shelf(id: id) else { return }
                    dialogs?.confirmDelete(shelf, over: widget)
                }
                view.onRemoveFromShelf = { [weak dialogs] bookID in dialogs?.perform(.remove(bookID: bookID, shelfID: id), over: widget) }
            }
            view.show(page, canPlay: library.player != nil)
            gtk_stack_add_named(pageStack.opaque, view.widget, view.name)
            pageViews.append(view)
        }
        guard before != pageViews.count || !popped.isEmpty else { return }
        let wasFocusedInPage = popped.contains { view in pageStack.windowFocus?.isInside(view.widget) == true }
        let forward = pageViews.count > kept
        // A page open before the library is on screen (a preview, a
        // restore) is there at once; later ones slide in and out.
        let transition = !pageStack.isMapped ? GTK_STACK_TRANSITION_TYPE_NONE
            : forward ? GTK_STACK_TRANSITION_TYPE_SLIDE_LEFT : GTK_STACK_TRANSITION_TYPE_SLIDE_RIGHT
        // What comes back into view was hidden while covered.
        hiding?.cancel()
        hiding = nil
        if let shown = pageViews.last?.widget ?? gtk_stack_get_child_by_name(pageStack.opaque, "library") { gtk_widget_set_visible(shown, 1) }
        gtk_stack_set_visible_child_full(pageStack.opaque, pageViews.last?.name ?? "library", transition)
        for view in popped { leave(view) }
        hideCovered()
        if forward {
            _ = pageViews.last?.backButton.grabFocus()
        } else if wasFocusedInPage {
            if let top = pageViews.last { _ = top.backButton.grabFocus() } else { focusLibrary() }
        }
    }

    /// Removes `view` once it has slid out (at once without animations).
    private func leave(_ view: BrowsePageView) {
        view.teardown()
        let duration = Int(gtk_stack_get_transition_duration(pageStack.opaque))
        guard gtk_stack_get_transition_running(pageStack.opaque) != 0 else {
            gtk_stack_remove(pageStack.opaque, view.widget)
            return
        }
        let source = MainContext.timeout(after: .milliseconds(duration + 50)) { [weak self, weak view] in
            guard let self, let view else { return }
            gtk_stack_remove(self.pageStack.opaque, view.widget)
            self.leaving.removeAll { $0.0 === view }
        }
        leaving.append((view, source))
    }

    /// Whether what the model was asked for is shown: the list of the tab
    /// shown is read, no page is being opened, and none is sliding.
    var isSettled: Bool {
        // The list read, and shown (the page renders a moment after the model changes).
        let listShown = browse.shown.map { kind in browse.lists[kind].map { lists[kind]?.shownList == $0 } ?? false } ?? true
        let homeRead = !browse.showsHome || homeView?.isSettled ?? true
        return listShown && homeRead && browse.pagesOpening == 0 && pageViews.count == browse.pages.count
            && gtk_stack_get_transition_running(pageStack.opaque) == 0
    }

    /// The page on top (tests).
    var topPage: BrowsePageView? { pageViews.last }

    func teardown() {
        homeView?.teardown()
        shelfDialogs?.teardown()
        observation?.cancel()
        observation = nil
        hiding?.cancel()
        hiding = nil
        for (view, source) in leaving {
            source?.cancel()
            view.teardown()
        }
        leaving = []
        for view in pageViews { view.teardown() }
        for view in lists.values { view.teardown() }
        for connection in connections + matchConnections { connection.disconnect() }
        connections.removeAll()
        matchConnections.removeAll()
    }
}
