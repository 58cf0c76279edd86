import CAdwaita
import Foundation
import GtkBridge
import ListenUpCore
import Logging

/// The library: a toolbar (search, sort, grid or list), the books, and a
/// details panel that slides in beside them. Empty library, no results,
/// first sync and errors each get their own status page.
@MainActor
final class LibraryPage: RoutePage {
    let widget: UnsafeMutablePointer<GtkWidget>
    private let ref: GObjectRef<UnsafeMutablePointer<GtkWidget>>
    private let model: LibraryModel
    let summary: OpaquePointer
    private let toolbar: LibraryToolbar
    var searchEntry: UnsafeMutablePointer<GtkWidget> { toolbar.searchEntry }
    var sortDropDown: UnsafeMutablePointer<GtkWidget> { toolbar.sortDropDown }
    var gridToggle: UnsafeMutablePointer<GtkWidget> { toolbar.gridToggle }
    var listToggle: UnsafeMutablePointer<GtkWidget> { toolbar.listToggle }
    private let syncBar: OpaquePointer
    private let stack: UnsafeMutablePointer<GtkWidget>
    let statusPage: UnsafeMutablePointer<GtkWidget>
    private let statusProgress: OpaquePointer
    private let retryButton: ListenUpButton
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

        // Heading: title and a line saying how many, who, offline.
        let main = newObject(gtk_box_new(GTK_ORIENTATION_VERTICAL, 0))
        gtk_widget_set_hexpand(main, 1)
        let heading = newObject(gtk_box_new(GTK_ORIENTATION_VERTICAL, 2))
        gtk_widget_set_margin_top(heading, 18)
        gtk_widget_set_margin_start(heading, 18)
        gtk_widget_set_margin_end(heading, 18)
        let title = OpaquePointer(newObject(gtk_label_new(tr("Library"))))
        title.addClasses(.title1)
        gtk_label_set_xalign(title, 0)
        summary = OpaquePointer(newObject(gtk_label_new(nil)))
        summary.addClasses(.dimLabel)
        gtk_label_set_xalign(summary, 0)
        gtk_label_set_ellipsize(summary, PANGO_ELLIPSIZE_END)
        gtk_box_append(heading.cast(to: GtkBox.self), title.widget)
        gtk_box_append(heading.cast(to: GtkBox.self), summary.widget)

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
        gtk_box_append(statusChild.cast(to: GtkBox.self), statusProgress.widget)
        gtk_box_append(statusChild.cast(to: GtkBox.self), retryButton.widget)
        adw_status_page_set_child(statusPage.opaque, statusChild)
        stack = newObject(gtk_stack_new())
        gtk_stack_add_named(stack.opaque, collection.widget, "books")
        gtk_stack_add_named(stack.opaque, statusPage, "status")
        gtk_widget_set_vexpand(stack, 1)

        continueListening = ContinueListeningRow(player: model.player)
        let mainBox = main.cast(to: GtkBox.self)
        gtk_box_append(mainBox, heading)
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
        collection.setLayout(model.layout)
        // Before the books go (their cells with them).
        if visible.isEmpty { keepFocusOutOfHiddenBooks() }
        // A new search or order starts at the first book.
        booksChanged = collection.show(visible, fromTop: model.query != renderedQuery || model.sort != renderedSort)
        renderedSort = model.sort
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

    private func summaryLine() -> String {
        let books = model.books
        let count = trn("%@ book", "%@ books", count: books.count, Localization.number(books.count))
        let user = model.session?.displayName ?? ""
        // TRANSLATORS: the library subtitle; %@ is the book count, e.g. “1,204 books”.
        if model.isOffline { return tr("Offline · %@ saved on this computer", count) }
        if case .loading = model.status { return tr("Setting up your library…") }
        if let progress = model.syncProgress, !books.isEmpty, progress.stored > 0 {
            return tr("%@ · updating…", count)
        }
        if !model.query.isEmpty {
            // TRANSLATORS: search results: matching books “of” all books, e.g. “12 of 1,204 books”.
            return tr("%@ of %@", Localization.number(model.visible.count), count)
        }
        return user.isEmpty ? count : tr("%@ · signed in as %@", count, user)
    }

    private func showStatus(books: [LibraryModel.Book], visible: [LibraryModel.Book]) {
        var showProgress = false
        var showRetry = false
        switch model.status {
        case .loading where books.isEmpty:
            adw_status_page_set_icon_name(statusPage.opaque, "folder-download-symbolic")
            adw_status_page_set_title(statusPage.opaque, tr("Setting Up Your Library"))
            let progress = model.syncProgress
            if let progress, let expected = progress.expected {
                let text = trn("Downloading your library: %@ of %@ book", "Downloading your library: %@ of %@ books",
                               count: expected, Localization.number(progress.stored), Localization.number(expected))
                adw_status_page_set_description(statusPage.opaque, text)
            } else {
                adw_status_page_set_description(statusPage.opaque, tr("Downloading your library…"))
            }
            if let fraction = progress?.fraction {
                gtk_progress_bar_set_fraction(statusProgress, fraction)
            } else {
                gtk_progress_bar_pulse(statusProgress)
            }
            showProgress = true
        case .failed(_, let message) where books.isEmpty:
            adw_status_page_set_icon_name(statusPage.opaque, "network-offline-symbolic")
            adw_status_page_set_title(statusPage.opaque, tr("Couldn't Load Your Library"))
            adw_status_page_set_description(statusPage.opaque, message)
            showRetry = true
        default:
            if books.isEmpty {
                adw_status_page_set_icon_name(statusPage.opaque, "accessories-dictionary-symbolic")
                adw_status_page_set_title(statusPage.opaque, tr("No Books Yet"))
                adw_status_page_set_description(statusPage.opaque, tr("Books added to your server's library appear here."))
            } else if visible.isEmpty {
                adw_status_page_set_icon_name(statusPage.opaque, "edit-find-symbolic")
                adw_status_page_set_title(statusPage.opaque, tr("No Results"))
                adw_status_page_set_description(statusPage.opaque, tr("No title, author, narrator or series matches “%@”.", model.query))
            }
        }
        gtk_widget_set_visible(statusProgress.widget, showProgress ? 1 : 0)
        gtk_widget_set_visible(retryButton.widget, showRetry ? 1 : 0)
        gtk_stack_set_visible_child_name(stack.opaque, visible.isEmpty ? "status" : "books")
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
        for connection in connections { connection.disconnect() }
        connections.removeAll()
    }
}
