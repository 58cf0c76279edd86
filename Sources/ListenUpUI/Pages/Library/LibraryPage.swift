import CAdwaita
import GtkBridge
import ListenUpCore

/// The library landing: the signed-in user's books, title and authors.
@MainActor
final class LibraryPage: RoutePage {
    let widget: UnsafeMutablePointer<GtkWidget>
    private let ref: GObjectRef<UnsafeMutablePointer<GtkWidget>>
    private let model: LibraryModel
    let summary: OpaquePointer
    let list: OpaquePointer
    private let spinner: OpaquePointer
    private let statusPage: UnsafeMutablePointer<GtkWidget>
    private let retryButton: ListenUpButton
    private var shown: [LibraryModel.Book] = []
    private var observation: StateObservation?

    init(model: LibraryModel) {
        self.model = model
        widget = newObject(gtk_scrolled_window_new())
        ref = GObjectRef(borrowing: widget)
        gtk_scrolled_window_set_policy(widget.opaque, GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC)
        widget.addClasses(.backdrop)

        let column = newObject(gtk_box_new(GTK_ORIENTATION_VERTICAL, 12))
        gtk_widget_set_margin_top(column, 24)
        gtk_widget_set_margin_bottom(column, 24)
        gtk_widget_set_margin_start(column, 12)
        gtk_widget_set_margin_end(column, 12)

        let heading = newObject(gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 12))
        let titles = newObject(gtk_box_new(GTK_ORIENTATION_VERTICAL, 2))
        gtk_widget_set_hexpand(titles, 1)
        let title = OpaquePointer(newObject(gtk_label_new(tr("Library"))))
        title.addClasses(.title1)
        gtk_label_set_xalign(title, 0)
        summary = OpaquePointer(newObject(gtk_label_new(nil)))
        summary.addClasses(.dimLabel)
        gtk_label_set_xalign(summary, 0)
        gtk_box_append(titles.cast(to: GtkBox.self), title.widget)
        gtk_box_append(titles.cast(to: GtkBox.self), summary.widget)
        spinner = OpaquePointer(newObject(gtk_spinner_new()))
        gtk_widget_set_valign(spinner.widget, GTK_ALIGN_CENTER)
        gtk_box_append(heading.cast(to: GtkBox.self), titles)
        gtk_box_append(heading.cast(to: GtkBox.self), spinner.widget)

        list = OpaquePointer(newObject(gtk_list_box_new()))
        gtk_list_box_set_selection_mode(list, GTK_SELECTION_NONE)
        list.addClasses(StyleClass("boxed-list"), .glass, .glassRegular)
        list.widget.setAccessibleLabel(tr("Books"))

        statusPage = newObject(adw_status_page_new())
        adw_status_page_set_icon_name(statusPage.opaque, "accessories-dictionary-symbolic")
        retryButton = ListenUpButton(title: tr("Try Again"))
        gtk_widget_set_halign(retryButton.widget, GTK_ALIGN_CENTER)
        adw_status_page_set_child(statusPage.opaque, retryButton.widget)

        let box = column.cast(to: GtkBox.self)
        gtk_box_append(box, heading)
        gtk_box_append(box, statusPage)
        gtk_box_append(box, list.widget)

        let clamp = newObject(adw_clamp_new())
        adw_clamp_set_maximum_size(clamp.opaque, 720)
        adw_clamp_set_child(clamp.opaque, column)
        gtk_scrolled_window_set_child(widget.opaque, clamp)

        retryButton.onClick { [weak model] in model?.send(.reload) }
        observation = StateObservation { [weak self] in self?.render() }
    }

    private func render() {
        let books = model.books
        let user = model.session?.displayName ?? ""
        let count = books.count == 1 ? tr("1 book") : tr("%@ books", String(books.count))
        switch model.status {
        case .loading:
            gtk_label_set_label(summary, model.syncedCount > 0 ? tr("Loading your books… %@ so far", String(model.syncedCount)) : tr("Loading your books…"))
            gtk_spinner_set_spinning(spinner, 1)
            gtk_widget_set_visible(spinner.widget, 1)
            gtk_widget_set_visible(statusPage, 0)
        case .loaded:
            var line = user.isEmpty ? count : tr("%@ · signed in as %@", count, user)
            if model.isOffline { line = tr("Offline · %@ saved on this computer", count) }
            gtk_label_set_label(summary, line)
            gtk_spinner_set_spinning(spinner, 0)
            gtk_widget_set_visible(spinner.widget, 0)
            gtk_widget_set_visible(statusPage, books.isEmpty ? 1 : 0)
            adw_status_page_set_icon_name(statusPage.opaque, "accessories-dictionary-symbolic")
            adw_status_page_set_title(statusPage.opaque, tr("No Books Yet"))
            adw_status_page_set_description(statusPage.opaque, tr("Books added to your server's library appear here."))
            gtk_widget_set_visible(retryButton.widget, 0)
        case .failed(_, let message):
            gtk_label_set_label(summary, user.isEmpty ? "" : tr("Signed in as %@", user))
            gtk_spinner_set_spinning(spinner, 0)
            gtk_widget_set_visible(spinner.widget, 0)
            gtk_widget_set_visible(statusPage, 1)
            adw_status_page_set_icon_name(statusPage.opaque, "network-offline-symbolic")
            adw_status_page_set_title(statusPage.opaque, tr("Couldn't Load Your Library"))
            adw_status_page_set_description(statusPage.opaque, message)
            gtk_widget_set_visible(retryButton.widget, 1)
        }
        gtk_widget_set_visible(list.widget, books.isEmpty ? 0 : 1)
        guard books != shown else { return }
        shown = books
        while let row = gtk_widget_get_first_child(list.widget) {
            gtk_list_box_remove(list, row)
        }
        for book in books {
            let row = newObject(adw_action_row_new())
            adw_preferences_row_set_title(row.cast(to: AdwPreferencesRow.self), book.title)
            adw_preferences_row_set_use_markup(row.cast(to: AdwPreferencesRow.self), 0)
            adw_action_row_set_subtitle(row.cast(to: AdwActionRow.self), book.authors)
            gtk_list_box_append(list, row)
        }
    }

    /// The titles shown, in order (tests).
    var shownTitles: [String] { shown.map(\.title) }

    func teardown() {
        observation?.cancel()
        observation = nil
    }
}
