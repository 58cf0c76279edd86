import CAdwaita
import Foundation
import GtkBridge
import ListenUpCore

/// The library's toolbar: the search field, the Downloaded filter, the
/// Finished filter and sort drop-downs and the grid/list toggles. The
/// controls are in the library page's template (`library-page.ui`); this
/// names what the template cannot and shows the model's choices; the page
/// connects them to its model.
@MainActor
final class LibraryToolbar {
    /// The search field (no search delay: each change searches).
    let searchEntry: SearchEntry
    /// The drop-down of ``sorts``.
    let sortDropDown: DropDown
    /// Shows the books as a grid of cards.
    let gridToggle: ToggleButton
    /// Shows the books as a list of rows.
    let listToggle: ToggleButton
    /// Shows only the downloaded books (hidden with no downloads).
    let downloadedToggle: ToggleButton
    /// The drop-down of ``finishedChoices``.
    let finishedDropDown: DropDown

    /// The Finished filter's choices, in the drop-down's order (the
    /// template's `finished` lists the same texts).
    static let finishedChoices: [(Bool?, String)] = [(nil, tr("All Books")), (false, tr("Not Finished")), (true, tr("Finished"))]

    /// The sort choices, in the drop-down's order (the template's `sort`
    /// lists the same texts).
    static let sorts: [(LibrarySort, String)] = [
        (.title, tr("Title")), (.author, tr("Author")), (.recentlyAdded, tr("Recently Added")), (.duration, tr("Duration")),
    ]

    /// - Parameter template: the library page's, which holds the controls.
    init(template: Template) {
        (searchEntry, sortDropDown, finishedDropDown) = (template.child("search"), template.child("sort"), template.child("finished"))
        (gridToggle, listToggle, downloadedToggle) = (template.child("grid"), template.child("list"), template.child("downloaded"))
        // The drop-downs' own buttons are what take focus; name them as well.
        finishedDropDown.button?.setAccessibleLabel(tr("Show Books"))
        sortDropDown.button?.setAccessibleLabel(tr("Sort By"))
    }

    /// Shows `sort` as the chosen order, and names the drop-down's item
    /// after it (the item shown in the button can take focus too: a private
    /// GtkListItemWidget, found by its type name).
    func showSort(_ sort: LibrarySort) {
        guard let index = Self.sorts.firstIndex(where: { $0.0 == sort }) else { return }
        sortDropDown.selected = index
        Self.nameShownItem(of: sortDropDown, Self.sorts[index].1)
    }

    /// Names the item a drop-down's button shows (it can take focus too: a
    /// private GtkListItemWidget, found by its type name).
    static func nameShownItem(of dropDown: DropDown, _ name: String) {
        let itemType = g_type_from_name("GtkListItemWidget")
        guard itemType != 0 else { return }
        dropDown.button?.firstDescendant(ofType: itemType)?.setAccessibleLabel(name)
    }

    /// Shows `filter` as the chosen one.
    func showFilter(_ filter: LibraryFilter) {
        let active = filter == .downloaded
        if downloadedToggle.isActive != active { downloadedToggle.isActive = active }
    }

    /// Shows `finished` as the Finished filter's choice.
    func showFinished(_ finished: Bool?) {
        guard let index = Self.finishedChoices.firstIndex(where: { $0.0 == finished }) else { return }
        if finishedDropDown.selected != index { finishedDropDown.selected = index }
        Self.nameShownItem(of: finishedDropDown, Self.finishedChoices[index].1)
    }

    /// Shows `layout` as the chosen one.
    func showLayout(_ layout: LibraryLayout) {
        gridToggle.isActive = layout == .grid
        listToggle.isActive = layout == .list
    }
}
