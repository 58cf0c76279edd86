import CAdwaita
import Foundation
import GtkBridge
import ListenUpCore

/// The library's toolbar: the search field, the Downloaded filter, the
/// Finished filter and sort drop-downs and the grid/list toggles. It only builds and names the
/// controls; the page connects them to its model.
@MainActor
final class LibraryToolbar {
    /// The toolbar (a horizontal box).
    let widget: UnsafeMutablePointer<GtkWidget>
    /// The `GtkSearchEntry` (no search delay: each change searches).
    let searchEntry: UnsafeMutablePointer<GtkWidget>
    /// The `GtkDropDown` of ``sorts``.
    let sortDropDown: UnsafeMutablePointer<GtkWidget>
    /// Shows the books as a grid of cards.
    let gridToggle: UnsafeMutablePointer<GtkWidget>
    /// Shows the books as a list of rows.
    let listToggle: UnsafeMutablePointer<GtkWidget>
    /// Shows only the downloaded books (hidden with no downloads).
    let downloadedToggle: UnsafeMutablePointer<GtkWidget>
    /// The `GtkDropDown` of ``finishedChoices``.
    let finishedDropDown: UnsafeMutablePointer<GtkWidget>

    /// The Finished filter's choices, in the drop-down's order.
    static let finishedChoices: [(Bool?, String)] = [(nil, tr("All Books")), (false, tr("Not Finished")), (true, tr("Finished"))]

    /// The sort choices, in the drop-down's order.
    static let sorts: [(LibrarySort, String)] = [
        (.title, tr("Title")), (.author, tr("Author")), (.recentlyAdded, tr("Recently Added")), (.duration, tr("Duration")),
    ]

    init() {
        widget = newObject(gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 8))
        gtk_widget_set_margin_top(widget, 12)
        gtk_widget_set_margin_bottom(widget, 12)
        gtk_widget_set_margin_start(widget, 18)
        gtk_widget_set_margin_end(widget, 18)
        searchEntry = newObject(gtk_search_entry_new())
        gtk_widget_set_hexpand(searchEntry, 1)
        gtk_search_entry_set_search_delay(searchEntry.opaque, 0)
        searchEntry.setStringProperty("placeholder-text", tr("Search title, author, narrator or series"))
        searchEntry.setAccessibleLabel(tr("Search Library"))
        // A NULL-terminated C array of the names, alive for the call.
        sortDropDown = Self.dropDown(Self.sorts.map(\.1))
        finishedDropDown = Self.dropDown(Self.finishedChoices.map(\.1))
        finishedDropDown.setAccessibleLabel(tr("Show Books"))
        finishedDropDown.firstDescendant(ofType: gtk_toggle_button_get_type())?.setAccessibleLabel(tr("Show Books"))
        gtk_widget_set_tooltip_text(finishedDropDown, tr("Show Books"))
        sortDropDown.setAccessibleLabel(tr("Sort By"))
        // The drop-down's own button is what takes focus; name it as well.
        sortDropDown.firstDescendant(ofType: gtk_toggle_button_get_type())?.setAccessibleLabel(tr("Sort By"))
        gtk_widget_set_tooltip_text(sortDropDown, tr("Sort By"))
        gridToggle = newObject(gtk_toggle_button_new())
        gtk_button_set_icon_name(gridToggle.cast(to: GtkButton.self), "view-grid-symbolic")
        gtk_widget_set_tooltip_text(gridToggle, tr("Grid"))
        gridToggle.setAccessibleLabel(tr("Show as Grid"))
        listToggle = newObject(gtk_toggle_button_new())
        gtk_button_set_icon_name(listToggle.cast(to: GtkButton.self), "view-list-symbolic")
        gtk_widget_set_tooltip_text(listToggle, tr("List"))
        listToggle.setAccessibleLabel(tr("Show as List"))
        gtk_toggle_button_set_group(listToggle.cast(to: GtkToggleButton.self), gridToggle.cast(to: GtkToggleButton.self))
        let layoutBox = newObject(gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 0))
        layoutBox.addClasses(StyleClass("linked"))
        gtk_box_append(layoutBox.cast(to: GtkBox.self), gridToggle)
        gtk_box_append(layoutBox.cast(to: GtkBox.self), listToggle)
        // An icon, as the layout toggles: a label would leave the search
        // field no room beside the details panel in longer languages.
        downloadedToggle = newObject(gtk_toggle_button_new())
        gtk_button_set_icon_name(downloadedToggle.cast(to: GtkButton.self), "document-save-symbolic")
        gtk_widget_set_tooltip_text(downloadedToggle, tr("Show Only Downloaded Books"))
        downloadedToggle.setAccessibleLabel(tr("Downloaded"))
        downloadedToggle.setAccessibleDescription(tr("Show Only Downloaded Books"))
        downloadedToggle.addClasses(StyleClass("downloaded-filter"))
        gtk_widget_set_visible(downloadedToggle, 0)
        let box = widget.cast(to: GtkBox.self)
        gtk_box_append(box, searchEntry)
        gtk_box_append(box, downloadedToggle)
        gtk_box_append(box, finishedDropDown)
        gtk_box_append(box, sortDropDown)
        gtk_box_append(box, layoutBox)
    }

    /// Shows `sort` as the chosen order, and names the drop-down's item
    /// after it (the item shown in the button can take focus too: a private
    /// GtkListItemWidget, found by its type name).
    func showSort(_ sort: LibrarySort) {
        guard let index = Self.sorts.firstIndex(where: { $0.0 == sort }) else { return }
        gtk_drop_down_set_selected(sortDropDown.opaque, guint(index))
        Self.nameShownItem(of: sortDropDown, Self.sorts[index].1)
    }

    /// Names the item a drop-down's button shows (it can take focus too: a
    /// private GtkListItemWidget, found by its type name).
    private static func nameShownItem(of dropDown: UnsafeMutablePointer<GtkWidget>, _ name: String) {
        let itemType = g_type_from_name("GtkListItemWidget")
        guard itemType != 0 else { return }
        dropDown.firstDescendant(ofType: gtk_toggle_button_get_type())?.firstDescendant(ofType: itemType)?.setAccessibleLabel(name)
    }

    /// Shows `filter` as the chosen one.
    func showFilter(_ filter: LibraryFilter) {
        let active: gboolean = filter == .downloaded ? 1 : 0
        if gtk_toggle_button_get_active(downloadedToggle.cast(to: GtkToggleButton.self)) != active {
            gtk_toggle_button_set_active(downloadedToggle.cast(to: GtkToggleButton.self), active)
        }
    }

    /// Shows `finished` as the Finished filter's choice.
    func showFinished(_ finished: Bool?) {
        guard let index = Self.finishedChoices.firstIndex(where: { $0.0 == finished }) else { return }
        if gtk_drop_down_get_selected(finishedDropDown.opaque) != guint(index) {
            gtk_drop_down_set_selected(finishedDropDown.opaque, guint(index))
        }
        Self.nameShownItem(of: finishedDropDown, Self.finishedChoices[index].1)
    }

    /// A `GtkDropDown` of `names`.
    private static func dropDown(_ names: [String]) -> UnsafeMutablePointer<GtkWidget> {
        // A NULL-terminated C array of the names, alive for the call.
        let copies = names.map { strdup($0) }
        let array: [UnsafePointer<CChar>?] = copies.map { $0.map { UnsafePointer($0) } } + [nil]
        let dropDown = newObject(gtk_drop_down_new_from_strings(array))
        for copy in copies { free(copy) }
        return dropDown
    }

    /// Shows `layout` as the chosen one.
    func showLayout(_ layout: LibraryLayout) {
        gtk_toggle_button_set_active(gridToggle.cast(to: GtkToggleButton.self), layout == .grid ? 1 : 0)
        gtk_toggle_button_set_active(listToggle.cast(to: GtkToggleButton.self), layout == .list ? 1 : 0)
    }
}
