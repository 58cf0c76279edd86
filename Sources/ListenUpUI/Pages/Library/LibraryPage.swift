import CAdwaita
import Foundation
import GtkBridge
import ListenUpCore
import Logging

/// The library: a toolbar (search, Downloaded, sort, grid or list), the
/// books, and a details panel that slides in beside them. Empty library, no
/// results, no downloaded books, first sync and errors each get their own
/// status page. While books download, the heading shows their total.
@MainActor
final class LibraryPage: RoutePage {
    let widget: UnsafeMutablePointer<GtkWidget>
    private let ref: GObjectRef<UnsafeMutablePointer<GtkWidget>>
    let model: LibraryModel
    let summary: OpaquePointer
    private let toolbar: LibraryToolbar
    var searchEntry: UnsafeMutablePointer<GtkWidget> { toolbar.searchEntry }
    var sortDropDown: UnsafeMutablePointer<GtkWidget> { toolbar.sortDropDown }
    var gridToggle: UnsafeMutablePointer<GtkWidget> { toolbar.gridToggle }
    var listToggle: UnsafeMutablePointer<GtkWidget> { toolbar.listToggle }
    var downloadedToggle: UnsafeMutablePointer<GtkWidget> { toolbar.downloadedToggle }
    /// The total of the downloads running (hidden when none runs).
    let downloadsTotal: DownloadsIndicator
    private let syncBar: OpaquePointer
    let stack: UnsafeMutablePointer<GtkWidget>
    let statusPage: UnsafeMutablePointer<GtkWidget>
    let statusProgress: OpaquePointer
    let retryButton: ListenUpButton
    /// Turns the Downloaded filter off (its empty state).
    let showAllButton: ListenUpButton
    let collection: BookCollectionView
    private let revealer: UnsafeMutablePointer<GtkWidget>
    let details: BookDetailsPanel
    /// The books in progress, above the library.
    let continueListening: ContinueListeningRow
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
        widget = newObject(gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 0))
        ref = GObjectRef(borrowing: widget)
        widget.addClasses(.backdrop)

        // Heading: title and a line saying how many, who, offline; the
        // downloads' total at its end.
        let main = newObject(gtk_box_new(GTK_ORIENTATION_VERTICAL, 0))
        gtk_widget_set_hexpand(main, 1)
        let headingRow = newObject(gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 12))
        gtk_widget_set_margin_top(headingRow, 18)
        gtk_widget_set_margin_start(headingRow, 18)
        gtk_widget_set_margin_end(headingRow, 18)
        let heading = newObject(gtk_box_new(GTK_ORIENTATION_VERTICAL, 2))
        gtk_widget_set_hexpand(heading, 1)
        let title = OpaquePointer(newObject(gtk_label_new(tr("Library"))))
        title.addClasses(.title1)
        gtk_label_set_xalign(title, 0)
        summary = OpaquePointer(newObject(gtk_label_new(nil)))
        summary.addClasses(.dimLabel)
        gtk_label_set_xalign(summary, 0)
        gtk_label_set_ellipsize(summary, PANGO_ELLIPSIZE_END)
        gtk_box_append(heading.cast(to: GtkBox.self), title.widget)
        gtk_box_append(heading.cast(to: GtkBox.self), summary.widget)
        downloadsTotal = DownloadsIndicator(downloads: model.downloads)
        gtk_box_append(headingRow.cast(to: GtkBox.self), heading)
        gtk_box_append(headingRow.cast(to: GtkBox.self), downloadsTotal.widget)

        // Toolbar: search, sort, layout.
        toolbar = LibraryToolbar()

        syncBar = OpaquePointer(newObject(gtk_progress_bar_new()))
        syncBar.addClasses(StyleClass("osd"), StyleClass("library-sync"))
        syncBar.widget.setAccessibleLabel(tr("Updating Library"))

        // The books, or a status page.
        collection = BookCollectionView(model: model)
        statusPage = newObject(adw_status_page_new())
        gtk_widget_set_vexpand(statusPage, 1)
        // Its inner scrolled window can take focus; give it a name to announce.
        statusPage.firstDescendant(ofType: gtk_scrolled_window_get_type())?.setAccessibleLabel(tr("Library"))
        let statusChild = newObject(gtk_box_new(GTK_ORIENTATION_VERTICAL, 12))
        gtk_widget_set_halign(statusChild, GTK_ALIGN_CENTER)
        statusProgress = OpaquePointer(newObject(gtk_progress_bar_new()))
        gtk_widget_set_size_request(statusProgress.widget, 280, -1)
        statusProgress.widget.setAccessibleLabel(tr("Download Progress"))
        retryButton = ListenUpButton(title: tr("Try Again"))
        gtk_widget_set_halign(retryButton.widget, GTK_ALIGN_CENTER)
        showAllButton = ListenUpButton(title: tr("Show All Books"))
        gtk_widget_set_halign(showAllButton.widget, GTK_ALIGN_CENTER)
        gtk_box_append(statusChild.cast(to: GtkBox.self), statusProgress.widget)
        gtk_box_append(statusChild.cast(to: GtkBox.self), retryButton.widget)
        gtk_box_append(statusChild.cast(to: GtkBox.self), showAllButton.widget)
        adw_status_page_set_child(statusPage.opaque, statusChild)
        stack = newObject(gtk_stack_new())
        gtk_stack_add_named(stack.opaque, collection.widget, "books")
        gtk_stack_add_named(stack.opaque, statusPage, "status")
        gtk_widget_set_vexpand(stack, 1)

        continueListening = ContinueListeningRow(player: model.player)
        let mainBox = main.cast(to: GtkBox.self)
        gtk_box_append(mainBox, headingRow)
        gtk_box_append(mainBox, continueListening.widget)
        gtk_box_append(mainBox, toolbar.widget)
        gtk_box_append(mainBox, syncBar.widget)
        gtk_box_append(mainBox, stack)

        details = BookDetailsPanel()
        revealer = newObject(gtk_revealer_new())
        gtk_revealer_set_transition_type(revealer.opaque, GTK_REVEALER_TRANSITION_TYPE_SLIDE_LEFT)
        gtk_revealer_set_child(revealer.opaque, details.widget)
        gtk_box_append(widget.cast(to: GtkBox.self), main)
        gtk_box_append(widget.cast(to: GtkBox.self), revealer)

        connectControls()
        observation = StateObservation { [weak self] in self?.render() }
    }

    private func connectControls() {
        connections.append(searchEntry.connect(.searchChanged) { [weak self] in
            guard let self, !self.applyingState else { return }
            let text = String(cString: gtk_editable_get_text(self.searchEntry.opaque))
            self.queryFromField = text
            self.model.send(.search(text))
        })
        latencyProbe = SearchLatencyProbe(page: widget, searchEntry: searchEntry, logger: logger) { [weak self] in
            self.map { !$0.applyingState } ?? false
        }
        connections.append(searchEntry.connect(.stopSearch) { [weak self] in
            guard let self else { return }
            gtk_editable_set_text(self.searchEntry.opaque, "")
        })
        connections.append(sortDropDown.connect(.notify("selected")) { [weak self] in
            guard let self, !self.applyingState else { return }
            let index = Int(gtk_drop_down_get_selected(self.sortDropDown.opaque))
            if Self.sorts.indices.contains(index) { self.model.send(.sort(Self.sorts[index].0)) }
        })
        for (toggle, layout) in [(gridToggle, LibraryLayout.grid), (listToggle, .list)] {
            connections.append(toggle.connect(.toggled) { [weak self] in
                guard let self, !self.applyingState, gtk_toggle_button_get_active(toggle.cast(to: GtkToggleButton.self)) != 0 else { return }
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
            let index = Int(gtk_drop_down_get_selected(self.toolbar.finishedDropDown.opaque))
            if LibraryToolbar.finishedChoices.indices.contains(index) { self.model.send(.finished(LibraryToolbar.finishedChoices[index].0)) }
        })
        connections.append(downloadedToggle.connect(.toggled) { [weak self] in
            guard let self, !self.applyingState else { return }
            let active = gtk_toggle_button_get_active(self.downloadedToggle.cast(to: GtkToggleButton.self)) != 0
            self.model.send(.filter(active ? .downloaded : .all))
        })
        if let downloads = model.downloads {
            gtk_widget_set_visible(downloadedToggle, 1)
            collection.follow(downloads)
            details.downloads = downloads
            details.onDownload = { [weak downloads] intent in downloads?.send(intent) }
        }
        connections.append(details.closeButton.connect(.clicked) { [weak self] in self?.closeDetails() })
        // The hidden panel takes no room: it is shown only while open or sliding.
        connections.append(revealer.connect(.notify("child-revealed")) { [weak self] in
            guard let self else { return }
            if gtk_revealer_get_child_revealed(self.revealer.opaque) == 0, self.model.selection == nil {
                gtk_widget_set_visible(self.revealer, 0)
            }
        })
        collection.onActivate = { [weak self] id in self?.model.send(.select(id)) }
        details.onPlay = { [weak model] id in model?.player?.send(.play(bookID: id)) }
        details.onMarkFinished = { [weak model] id, finished in model?.player?.send(.markFinished(bookID: id, finished: finished)) }
        details.canPlay = model.player != nil
        if model.player != nil {
            collection.onPlay = { [weak model] id in model?.player?.send(.play(bookID: id)) }
        }

        // Ctrl+F searches from anywhere in the window; Escape closes the
        // details; typing on the page goes to the search field.
        let shortcuts: OpaquePointer = newObject(gtk_shortcut_controller_new())
        gtk_shortcut_controller_set_scope(shortcuts, GTK_SHORTCUT_SCOPE_GLOBAL)
        Shortcuts.add("<Control>f", to: shortcuts) { [weak self] in
            guard let self else { return false }
            gtk_widget_grab_focus(self.searchEntry)
            return true
        }
        Shortcuts.add("Escape", to: shortcuts) { [weak self] in
            guard let self, self.model.selection != nil else { return false }
            self.closeDetails()
            return true
        }
        gtk_widget_add_controller(widget, shortcuts)
        gtk_search_entry_set_key_capture_widget(searchEntry.opaque, widget)
    }

    private func closeDetails() {
        let wasFocusedInPanel = gtk_widget_get_focus_child(revealer) != nil
        model.send(.select(nil))
        if wasFocusedInPanel { focusDefault() }
    }

    private func render() {
        applyingState = true
        defer { applyingState = false }
        let visible = model.visible
        let books = model.books

        gtk_label_set_label(summary, summaryLine())

        if model.query != queryFromField, String(cString: gtk_editable_get_text(searchEntry.opaque)) != model.query {
            gtk_editable_set_text(searchEntry.opaque, model.query)
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
        gtk_widget_set_visible(syncBar.widget, fraction != nil && !books.isEmpty ? 1 : 0)
        if let fraction { gtk_progress_bar_set_fraction(syncBar, fraction) }

        showStatus(books: books, visible: visible)
        shownContent = model.hasLoadedCache
        if model.query != renderedQuery {
            renderedQuery = model.query
            logSearchLatency()
        }

        if let selection = model.selection {
            details.show(selection) { [collection] view in collection.loadCover(for: selection.book, into: view) }
            gtk_widget_set_visible(revealer, 1)
            gtk_revealer_set_reveal_child(revealer.opaque, 1)
        } else {
            gtk_revealer_set_reveal_child(revealer.opaque, 0)
            if gtk_revealer_get_child_revealed(revealer.opaque) == 0 { gtk_widget_set_visible(revealer, 0) }
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
        guard let root = gtk_widget_get_root(widget), let focus = gtk_root_get_focus(root),
              gtk_widget_is_ancestor(focus, collection.widget) != 0,
              let text = gtk_editable_get_delegate(searchEntry.opaque) else { return }
        gtk_text_grab_focus_without_selecting(UnsafeMutablePointer<GtkText>(text))
    }

    var isContentReady: Bool { shownContent }

    /// Tells the latency probe the results of a new query are on their way
    /// to the screen.
    private func logSearchLatency() {
        latencyProbe?.searchShown(model.query, fieldText: String(cString: gtk_editable_get_text(searchEntry.opaque)),
                                  results: model.visible.count, waiting: collection.waitingCellCount, changed: booksChanged,
                                  in: widget) { [weak collection] in collection?.liveCellCount ?? 0 }
    }

    /// The titles shown, in order (tests).
    var shownTitles: [String] { model.visible.map(\.title) }

    func focusDefault() {
        gtk_widget_grab_focus(collection.visibleView(for: model.layout))
    }

    func teardown() {
        observation?.cancel()
        observation = nil
        continueListening.teardown()
        downloadsTotal.teardown()
        collection.stopFollowingDownloads()
        details.clear()
        for connection in connections { connection.disconnect() }
        connections.removeAll()
    }
}
