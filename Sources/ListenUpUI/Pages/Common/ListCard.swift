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
    /// The card (append it to the page's column).
    var widget: UnsafeMutablePointer<GtkWidget> { card.widget }
    /// The caption under the heading.
    let caption: OpaquePointer
    /// The boxed `GtkListBox` (rows are not selectable).
    let list: OpaquePointer
    private let card: GlassCard

    /// - Parameters:
    ///   - title: the heading.
    ///   - caption: the caption's first text (empty for none yet).
    ///   - listLabel: the list's accessible name.
    ///   - accessory: shown at the end of the heading's line.
    init(title: String, caption text: String?, listLabel: String, accessory: UnsafeMutablePointer<GtkWidget>? = nil) {
        card = GlassCard(spacing: 8)
        let heading = OpaquePointer(newObject(gtk_label_new(title)))
        heading.addClasses(.heading)
        gtk_label_set_xalign(heading, 0)
        caption = OpaquePointer(newObject(gtk_label_new(text)))
        caption.addClasses(.dimLabel, .caption)
        gtk_label_set_wrap(caption, 1)
        gtk_label_set_xalign(caption, 0)
        list = OpaquePointer(newObject(gtk_list_box_new()))
        gtk_list_box_set_selection_mode(list, GTK_SELECTION_NONE)
        list.addClasses(StyleClass("boxed-list"))
        list.widget.setAccessibleLabel(listLabel)
        if let accessory {
            let header = newObject(gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 8))
            gtk_widget_set_hexpand(heading.widget, 1)
            gtk_box_append(header.cast(to: GtkBox.self), heading.widget)
            gtk_box_append(header.cast(to: GtkBox.self), accessory)
            card.append(header)
        } else {
            card.append(heading)
        }
        card.append(caption.widget)
        card.append(list.widget)
        gtk_widget_set_margin_top(card.widget, 8)
    }
}
