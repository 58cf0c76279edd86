import CAdwaita
import GtkBridge
import ListenUpCore

/// The layout the set-up pages share: on the glass backdrop, a centred
/// column (clamped to 440 px) with an icon, a title and a subtitle over a
/// glass card. The page fills the card.
@MainActor
final class FormPageLayout {
    /// The root widget (a scrolled window).
    let widget: UnsafeMutablePointer<GtkWidget>
    /// The glass card under the heading.
    let card: GlassCard
    /// The column, for extra sections after the card.
    let column: UnsafeMutablePointer<GtkWidget>
    private let subtitleLabel: OpaquePointer
    private let ref: GObjectRef<UnsafeMutablePointer<GtkWidget>>

    init(icon: String, title: String, subtitle: String, iconClass: StyleClass = StyleClass("page-icon")) {
        widget = newObject(gtk_scrolled_window_new())
        ref = GObjectRef(borrowing: widget)
        gtk_scrolled_window_set_policy(widget.opaque, GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC)
        widget.addClasses(.backdrop)
        // The scrolled page can take focus (to scroll by keyboard): name it
        // after the page, as a screen reader announces it.
        widget.setAccessibleLabel(title)

        column = newObject(gtk_box_new(GTK_ORIENTATION_VERTICAL, 12))
        gtk_widget_set_valign(column, GTK_ALIGN_CENTER)
        gtk_widget_set_vexpand(column, 1)
        gtk_widget_set_margin_top(column, 36)
        gtk_widget_set_margin_bottom(column, 36)
        gtk_widget_set_margin_start(column, 12)
        gtk_widget_set_margin_end(column, 12)

        // Under GTK 4.8's GL renderer an icon of at most 128 px whose top row
        // has paint (network-server, phone) shows a faint 1-px line at its
        // left edge: the icon atlas fills its left padding column with the
        // icon's first row (gsk/gl/gskgliconlibrary.c, "Padding left", no
        // GL_UNPACK_ROW_LENGTH), and the edge samples it. The cairo renderer
        // (RendererChoice, with no GPU) draws no such line.
        let image = newObject(gtk_image_new_from_icon_name(icon))
        gtk_image_set_pixel_size(image.opaque, 64)
        image.addClasses(iconClass, StyleClass("page-icon"))

        let titleLabel = OpaquePointer(newObject(gtk_label_new(title)))
        titleLabel.addClasses(.title1)
        gtk_label_set_wrap(titleLabel, 1)
        gtk_label_set_justify(titleLabel, GTK_JUSTIFY_CENTER)

        subtitleLabel = OpaquePointer(newObject(gtk_label_new(subtitle)))
        subtitleLabel.addClasses(.dimLabel)
        gtk_label_set_wrap(subtitleLabel, 1)
        gtk_label_set_justify(subtitleLabel, GTK_JUSTIFY_CENTER)
        gtk_widget_set_margin_bottom(subtitleLabel.widget, 12)

        card = GlassCard(spacing: 16)

        let box = column.cast(to: GtkBox.self)
        gtk_box_append(box, image)
        gtk_box_append(box, titleLabel.widget)
        gtk_box_append(box, subtitleLabel.widget)
        gtk_box_append(box, card.widget)

        let clamp = newObject(adw_clamp_new())
        adw_clamp_set_maximum_size(clamp.opaque, 440)
        adw_clamp_set_child(clamp.opaque, column)
        gtk_scrolled_window_set_child(widget.opaque, clamp)
    }

    /// Changes the subtitle (e.g. to name the server).
    var subtitle: String {
        get { String(cString: gtk_label_get_label(subtitleLabel)) }
        set { gtk_label_set_label(subtitleLabel, newValue) }
    }

    /// Appends a widget to the column, after the card.
    func appendToColumn(_ child: some GPointer) {
        gtk_box_append(column.cast(to: GtkBox.self), child.widget)
    }
}

/// A line of text with an icon on a tinted background: status and errors
/// below a form's button. Hidden while empty.
@MainActor
final class NoticeRow {
    let widget: UnsafeMutablePointer<GtkWidget>
    let label: OpaquePointer
    private let icon: UnsafeMutablePointer<GtkWidget>

    init() {
        // An alert, so screen readers announce each status or error as it appears.
        widget = newWidget(of: gtk_box_get_type(), role: GTK_ACCESSIBLE_ROLE_ALERT)
        gtk_orientable_set_orientation(OpaquePointer(widget), GTK_ORIENTATION_HORIZONTAL)
        gtk_box_set_spacing(widget.cast(to: GtkBox.self), 8)
        widget.addClasses(.notice)
        icon = newObject(gtk_image_new_from_icon_name("dialog-information-symbolic"))
        gtk_widget_set_valign(icon, GTK_ALIGN_START)
        label = OpaquePointer(newObject(gtk_label_new(nil)))
        gtk_label_set_wrap(label, 1)
        gtk_label_set_xalign(label, 0)
        gtk_widget_set_hexpand(label.widget, 1)
        gtk_box_append(widget.cast(to: GtkBox.self), icon)
        gtk_box_append(widget.cast(to: GtkBox.self), label.widget)
        gtk_widget_set_visible(widget, 0)
    }

    /// Shows `text` (nil hides the row); `isError` uses the error styling and icon.
    func show(_ text: String?, isError: Bool = false) {
        // A new message while one is shown: hide first, so the alert appears
        // again and is announced again.
        if text != nil, text != self.text, isVisible { gtk_widget_set_visible(widget, 0) }
        gtk_label_set_label(label, text ?? "")
        widget.setAccessibleLabel(text ?? "")
        gtk_widget_set_visible(widget, text == nil ? 0 : 1)
        widget.setClass(.error, isError)
        gtk_image_set_from_icon_name(icon.opaque, isError ? "dialog-warning-symbolic" : "dialog-information-symbolic")
    }

    var text: String { String(cString: gtk_label_get_label(label)) }
    var isVisible: Bool { gtk_widget_get_visible(widget) != 0 }
}

/// "Pair a Device…" as a link under a form: it runs the window's
/// ``WindowAction/pairDevice`` action (the primary menu's entry), so it needs no model.
@MainActor
enum PairDeviceLink {
    static func make() -> UnsafeMutablePointer<GtkWidget> {
        let button = newObject(gtk_button_new_with_label(tr("Pair a Device…")))
        button.addClasses(.flat)
        gtk_widget_set_halign(button, GTK_ALIGN_CENTER)
        gtk_actionable_set_action_name(OpaquePointer(button), WindowAction.pairDevice.detailedName)
        button.setAccessibleDescription(tr("Show a QR code that a phone or tablet can scan to pair with this computer"))
        return button
    }
}
