import CAdwaita
import Foundation
import GtkBridge
import ListenUpCore
import Logging

/// The library: a toolbar (search, Downloaded, sort, grid or list), the
/// books, and a details panel that slides in beside them. With the
/// session's browsing (``LibraryBrowser``), tabs for the series, authors
/// and narrators, and their pages over the books. Empty library, no
/// results, no downloaded books, first sync and errors each get their own
/// status page. While books download, the heading shows their total.
/// The widget tree is `data/ui/library-page.ui`.
@MainActor
final class LibraryPage: RoutePage {
    let root: Box
    var widget: UnsafeMutablePointer<GtkWidget> { root.pointer }
    private let ref: GObjectRef<UnsafeMutablePointer<GtkWidget>>
    private let ui: Template
    let model: LibraryModel
    let summary: Label
    let toolbar: LibraryToolbar
    var searchEntry: SearchEntry { toolbar.searchEntry }
    var sortDropDown: DropDown { toolbar.sortDropDown }
    var gridToggle: ToggleButton { toolbar.gridToggle }
    var listToggle: ToggleButton { toolbar.listToggle }
    var downloadedToggle: ToggleButton { toolbar.downloadedToggle }
    /// The total of the downloads running (hidden when none runs).
    let downloadsTotal: DownloadsIndicator
    private let syncBar: ProgressBar
    let stack: Stack
    let statusPage: StatusPage
    let statusProgress: ProgressBar
    let retryButton = ListenUpButton(title: tr("Try Again"))
    /// Turns the Downloaded filter off (its empty state).
    let showAllButton = ListenUpButton(title: tr("Show All Books"))
    let collection: BookCollectionView
    private let revealer: Revealer
    let details: BookDetailsPanel
    /// The books in progress, above the library.
    let continueListening: ContinueListeningRow
    /// The tabs and the pages over the library (nil: no browsing, as in
    /// most previews).
    let browser: LibraryBrowser?
    /// The grid and list toggles.
    private let layoutToggles: Box
    private var observation: StateObservation?
    private var connections: [SignalConnection] = []
    private var applyingState = false
    /// The last query this page's search field sent. Only a query that came
    /// from elsewhere (a restore, the headless front) is written back into
    /// the field: writing back the field's own transient text (replacing a
    /// selection first empties the field) would undo the user's typing.
    private var queryFromField: String?
    /// Logs keystroke-to-grid latency at debug level (`bench/library`).
    private var latencyProbe: SearchLatencyProbe?
    private var tabLatencyProbe: TabLatencyProbe?
    /// Whether the last render changed the books shown (for the probe).
    private var booksChanged = false
    private var renderedQuery = ""
    private var renderedSort: LibrarySort?
    private var renderedFilter = LibraryFilter.all
    private var renderedFinished: Bool?
    private var shownContent = false
    private var coversAvailable = false
    private let logger = Logger(label: "io.github.listenup.Desktop.library")

    /// The sort choices, in the drop-down's order.
    static var sorts: [(LibrarySort, String)] { LibraryToolbar.sorts }

    init(model: LibraryModel) {
        self.model = model
        ui = PageTemplates.load("library-page")
        (root, ref) = ui.root("root")
        (summary, syncBar, stack, statusPage) = (ui.child("summary"), ui.child("sync-bar"), ui.child("stack"), ui.child("status"))
        (statusProgress, revealer) = (ui.child("status-progress"), ui.child("revealer"))
        downloadsTotal = DownloadsIndicator(downloads: model.downloads, template: ui)
        toolbar = LibraryToolbar(template: ui)
        continueListening = ContinueListeningRow(player: model.player, template: ui)
        details = BookDetailsPanel(template: ui)
        layoutToggles = ui.child("layout-toggles")
        if let browse = model.browse {
            browser = LibraryBrowser(browse: browse, library: model, template: ui)
        } else {
            browser = nil
        }

        // The books go before the status page, which has the way out of
        // each empty state under its text.
        collection = BookCollectionView(model: model)
        stack.add(collection.widget, named: "books")
        // Its inner scrolled window can take focus; give it a name to announce.
        statusPage.scrolledWindow?.setAccessibleLabel(tr("Library"))
        let statusChild: Box = ui.child("status-child")
        for button in [retryButton, showAllButton] {
            Widget(button.widget).halign = GTK_ALIGN_CENTER
            statusChild.append(button.widget)
        }

        connectControls()
        observation = StateObservation { [weak self] in self?.render() }
    }

    private func connectControls() {
        connections.append(searchEntry.connect(.searchChanged) { [weak self] in
            guard let self, !self.applyingState else { return }
            let text = self.searchEntry.text
            self.queryFromField = text
            // The library passes it on to the series and people (browse).
            self.model.send(.search(text))
            // Searching from Home shows the books it finds.
            if !text.isEmpty, let browser = self.browser, browser.homeShown { browser.browse.send(.show(nil)) }
        })
        latencyProbe = SearchLatencyProbe(page: widget, searchEntry: searchEntry.pointer, logger: logger) { [weak self] in
            self.map { !$0.applyingState } ?? false
        }
        if let browser {
            let probe = TabLatencyProbe(page: widget, tabs: browser.tabs, logger: logger) { [weak browser] in
                browser?.isShownTabReady ?? true
            }
            browser.afterRender = { [weak probe] in probe?.check() }
            tabLatencyProbe = probe
        }
        connections.append(searchEntry.connect(.stopSearch) { [weak self] in self?.searchEntry.text = "" })
        connections.append(sortDropDown.connect(.notify("selected")) { [weak self] in
            guard let self, !self.applyingState else { return }
            let index = self.sortDropDown.selected
            if Self.sorts.indices.contains(index) { self.model.send(.sort(Self.sorts[index].0)) }
        })
        for (toggle, layout) in [(gridToggle, LibraryLayout.grid), (listToggle, .list)] {
            connections.append(toggle.connect(.toggled) { [weak self] in
                guard let self, !self.applyingState, toggle.isActive else { return }
                self.model.send(.layout(layout))
            })
        }
        retryButton.onClick { [weak model] in model?.send(.reload) }
        showAllButton.onClick { [weak model] in
            model?.send(.filter(.all))
            model?.send(.finished(nil))
        }
        connections.append(toolbar.finishedDropDown.connect(.notify("selected")) { [weak self] in
            guard let self, !self.applyingState else { return }
            let index = self.toolbar.finishedDropDown.selected
            if LibraryToolbar.finishedChoices.indices.contains(index) { self.model.send(.finished(LibraryToolbar.finishedChoices[index].0)) }
        })
        connections.append(downloadedToggle.connect(.toggled) { [weak self] in
            guard let self, !self.applyingState else { return }
            self.model.send(.filter(self.downloadedToggle.isActive ? .downloaded : .all))
        })
        if let downloads = model.downloads {
            downloadedToggle.isVisible = true
            collection.follow(downloads)
            details.downloads = downloads
            // Download goes through the library, which hands the book on as
            // a value; the other intents name a book the downloads hold.
            let sendDownload: @MainActor (DownloadsModel.Intent) -> Void = { [weak model, weak downloads] intent in
                if case .download(let id) = intent { model?.send(.download(bookID: id)) } else { downloads?.send(intent) }
            }
            collection.onDownload = sendDownload
            details.onDownload = sendDownload
        }
        connections.append(details.closeButton.connect(.clicked) { [weak self] in self?.closeDetails() })
        // The hidden panel takes no room: it is shown only while open or sliding.
        connections.append(revealer.connect(.notify("child-revealed")) { [weak self] in
            guard let self else { return }
            if !self.revealer.isChildRevealed, self.model.selection == nil { self.revealer.isVisible = false }
        })
        collection.onActivate = { [weak self] id in self?.model.send(.select(id)) }
        details.onPlay = { [weak model] id in model?.send(.play(bookID: id)) }
        details.onMarkFinished = { [weak model] id, finished in model?.player?.send(.markFinished(bookID: id, finished: finished)) }
        details.canPlay = model.player != nil
        if let browser {
            details.onOpen = { [weak browse = browser.browse] kind, id in browse?.send(.open(kind, id: id)) }
            if let shelves = model.shelves, let dialogs = browser.shelfDialogs {
                details.shelves = shelves
                details.onNewShelf = { [weak dialogs, box = details.box] id in dialogs?.edit(nil, addingBook: id, over: Widget(box)) }
            }
            browser.onTabShown = { [weak self] kind in
                guard let self else { return }
                self.showBookControls(kind == nil)
                // A tab's first showing makes its rows, and every switch
                // lays out and frees text and styles: free pages malloc
                // would keep, handed back once the switching pauses.
                FreedMemory.release(logger: self.logger)
            }
            browser.focusLibrary = { [weak self] in self?.focusDefault() }
            showBookControls(browser.browse.shown == nil)
        }
        if model.player != nil {
            collection.onPlay = { [weak model] id in model?.send(.play(bookID: id)) }
        }
        connectShortcuts()
        openShelfPreviewOverlay()
    }

    /// Ctrl+F searches from anywhere in the window; Escape closes the
    /// details; typing on the page goes to the search field.
    private func connectShortcuts() {
        Shortcuts.addGlobal("<Control>f", to: root) { [weak self] in
            guard let self else { return false }
            self.searchEntry.grabFocus()
            return true
        }
        Shortcuts.addGlobal("Escape", to: root) { [weak self] in
            guard let self else { return false }
            guard self.model.selection != nil else { return self.browser?.goBack() ?? false }
            self.closeDetails()
            return true
        }
        // Back from a series', a person's or a genre's page, as in GNOME apps.
        Shortcuts.addGlobal("<Alt>Left", to: root) { [weak self] in self?.browser?.goBack() ?? false }
        // Alt+1, Alt+2, …: the tabs in the switcher's order (Home, Books, Series, …).
        for number in 1...9 {
            Shortcuts.addGlobal("<Alt>\(number)", to: root) { [weak self] in self?.browser?.showTab(number: number) ?? false }
        }
        searchEntry.captureKeys(from: root)
    }

    /// The books' own controls (Downloaded, Finished, their order, grid or
    /// list) on the Books tab; a list's order on the lists' tabs.
    /// On Home, neither.
    private func showBookControls(_ books: Bool) {
        let home = browser?.homeShown == true
        downloadedToggle.isVisible = books && !home && model.downloads != nil
        for control in [Widget(toolbar.finishedDropDown), Widget(sortDropDown), Widget(layoutToggles)] { control.isVisible = books && !home }
        browser?.sortDropDown.isVisible = !books && !home
    }

    private func closeDetails() {
        let wasFocusedInPanel = revealer.focusChild != nil
        model.send(.select(nil))
        if wasFocusedInPanel { focusDefault() }
    }

    private func render() {
        applyingState = true
        defer { applyingState = false }
        let visible = model.visible
        let books = model.books

        summary.text = summaryLine()

        if model.query != queryFromField, searchEntry.text != model.query {
            searchEntry.text = model.query
        }
        toolbar.showSort(model.sort)
        toolbar.showLayout(model.layout)
        toolbar.showFilter(model.filter)
        toolbar.showFinished(model.finishedFilter)
        collection.setLayout(model.layout)
        // Before the books go (their cells with them).
        if visible.isEmpty { keepFocusOutOfHiddenBooks() }
        // A new search, order or filter starts at the first book.
        booksChanged = collection.show(visible, fromTop: model.query != renderedQuery || model.sort != renderedSort
                                        || model.filter != renderedFilter || model.finishedFilter != renderedFinished)
        renderedSort = model.sort
        renderedFilter = model.filter
        renderedFinished = model.finishedFilter
        if model.coversAvailable, !coversAvailable {
            coversAvailable = true
            collection.rebindAll()
        }

        let fraction = model.syncProgress?.fraction
        syncBar.isVisible = fraction != nil && !books.isEmpty
        if let fraction { syncBar.fraction = fraction }

        showStatus(books: books, visible: visible)
        shownContent = model.hasLoadedCache || model.isShowingFirstScreen
        if model.query != renderedQuery {
            renderedQuery = model.query
            logSearchLatency()
        }

        if let selection = model.selection {
            details.show(selection) { [collection] view in collection.loadCover(for: selection.book, into: view) }
            revealer.isVisible = true
            revealer.revealChild = true
        } else {
            revealer.revealChild = false
            if !revealer.isChildRevealed { revealer.isVisible = false }
            details.clear()
        }
    }

    /// When the books are about to go ("No Results", "No Books Yet") while
    /// one of them has the focus, GTK would leave the window with no focus
    /// at all, and the next keys typed (the search being typed from
    /// the grid through key capture) would go nowhere. The search field
    /// takes the focus instead, without selecting its text, so typing and
    /// Backspace go on.
    private func keepFocusOutOfHiddenBooks() {
        guard let focus = root.windowFocus, focus.isInside(collection.widget) else { return }
        searchEntry.focusWithoutSelecting()
    }

    var isContentReady: Bool { shownContent && browser?.isSettled ?? true && !shelfPreviewPending }

    /// Tells the latency probe the results of a new query are on their way
    /// to the screen.
    private func logSearchLatency() {
        latencyProbe?.searchShown(model.query, fieldText: searchEntry.text,
                                  results: model.visible.count, waiting: collection.waitingCellCount, changed: booksChanged,
                                  in: widget) { [weak collection] in collection?.liveCellCount ?? 0 }
    }

    /// The titles shown, in order (tests).
    var shownTitles: [String] { model.visible.map(\.title) }

    func focusDefault() {
        if let top = browser?.topPage {
            top.backButton.grabFocus()
        } else if let kind = browser?.browse.shown, let list = browser?.lists[kind] {
            list.list.grabFocus()
        } else if browser?.browse.showsHome == true {
            // Home has no list of its own to start in: the search, as typing would.
            searchEntry.grabFocus()
        } else {
            Widget(collection.visibleView(for: model.layout)).grabFocus()
        }
    }

    func teardown() {
        observation?.cancel()
        observation = nil
        continueListening.teardown()
        browser?.teardown()
        downloadsTotal.teardown()
        collection.stopFollowingDownloads()
        details.clear()
        for connection in connections { connection.disconnect() }
        connections.removeAll()
    }
}
