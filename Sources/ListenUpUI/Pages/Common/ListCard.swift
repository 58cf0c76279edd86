import CAdwaita
import GtkBridge
import ListenUpCore

/// A glass card that lists things under a heading, for a form page's
/// column below its main card: the heading (with an optional accessory,
/// such as a spinner, at its end), a dim caption line for status or
/// emptiness, and a boxed list. Server setup lists the servers on the
/// network in one; Pair a Device, the paired devices.
@MainActor
final class ListCard {
    /// The card (append it to the page's column). Its tree is
    /// `data/ui/list-card.ui`.
    var widget: UnsafeMutablePointer<GtkWidget> { root.pointer }
    private let root: Box
    private let ref: GObjectRef<UnsafeMutablePointer<GtkWidget>>
    /// The caption under the heading.
    let caption: Label
    /// The boxed `GtkListBox` (rows are not selectable).
    let list: ListBox

    /// - Parameters:
    ///   - title: the heading.
    ///   - caption: the caption's first text (empty for none yet).
    ///   - listLabel: the list's accessible name.
    ///   - accessory: shown at the end of the heading's line.
    init(title: String, caption text: String?, listLabel: String, accessory: UnsafeMutablePointer<GtkWidget>? = nil) {
        let ui = PageTemplates.load("list-card")
        (root, ref) = ui.root("root")
        (caption, list) = (ui.child("caption"), ui.child("list"))
        ui.child("title", as: Label.self).text = title
        caption.text = text ?? ""
        list.setAccessibleLabel(listLabel)
        if let accessory { ui.child("header", as: Box.self).append(accessory) }
    }
}
