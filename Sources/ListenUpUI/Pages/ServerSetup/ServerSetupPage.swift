import CAdwaita
import GtkBridge
import ListenUpCore

/// Server setup: type the server's address, Connect.
///
/// Layout: a heading over a glass card holding the URL field, the Connect
/// button and the notice line, centred on the backdrop and clamped in width.
@MainActor
final class ServerSetupPage: RoutePage {
    let widget: UnsafeMutablePointer<GtkWidget>
    private let ref: GObjectRef<UnsafeMutablePointer<GtkWidget>>
    private let model: ServerSetupModel
    let field: GlassTextField
    let connectButton: ListenUpButton
    let notice: OpaquePointer
    let noticeRow: UnsafeMutablePointer<GtkWidget>
    private var observation: StateObservation?

    init(model: ServerSetupModel) {
        self.model = model
        widget = newObject(gtk_scrolled_window_new())
        ref = GObjectRef(borrowing: widget)
        gtk_scrolled_window_set_policy(widget.opaque, GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC)
        widget.addClasses(.backdrop)

        let column = newObject(gtk_box_new(GTK_ORIENTATION_VERTICAL, 12))
        gtk_widget_set_valign(column, GTK_ALIGN_CENTER)
        gtk_widget_set_vexpand(column, 1)
        gtk_widget_set_margin_top(column, 36)
        gtk_widget_set_margin_bottom(column, 36)
        gtk_widget_set_margin_start(column, 12)
        gtk_widget_set_margin_end(column, 12)

        let icon = newObject(gtk_image_new_from_icon_name("network-server-symbolic"))
        gtk_image_set_pixel_size(icon.opaque, 64)
        icon.addClasses(StyleClass("server-setup-icon"))

        let title = OpaquePointer(newObject(gtk_label_new(tr("Connect to Your Server"))))
        title.addClasses(.title1)
        gtk_label_set_wrap(title, 1)
        gtk_label_set_justify(title, GTK_JUSTIFY_CENTER)

        let subtitle = OpaquePointer(newObject(gtk_label_new(tr("Enter the address of your ListenUp server to get started."))))
        subtitle.addClasses(.dimLabel)
        gtk_label_set_wrap(subtitle, 1)
        gtk_label_set_justify(subtitle, GTK_JUSTIFY_CENTER)
        gtk_widget_set_margin_bottom(subtitle.widget, 12)

        field = GlassTextField(label: tr("Server Address"), placeholder: "https://listenup.example.com", purpose: GTK_INPUT_PURPOSE_URL)
        connectButton = ListenUpButton(title: tr("Connect"))

        noticeRow = newObject(gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 8))
        noticeRow.addClasses(.notice)
        let noticeIcon = newObject(gtk_image_new_from_icon_name("dialog-information-symbolic"))
        gtk_widget_set_valign(noticeIcon, GTK_ALIGN_START)
        notice = OpaquePointer(newObject(gtk_label_new(nil)))
        gtk_label_set_wrap(notice, 1)
        gtk_label_set_xalign(notice, 0)
        gtk_widget_set_hexpand(notice.widget, 1)
        gtk_box_append(noticeRow.cast(to: GtkBox.self), noticeIcon)
        gtk_box_append(noticeRow.cast(to: GtkBox.self), notice.widget)

        let card = GlassCard(spacing: 16)
        card.append(field.widget)
        card.append(connectButton.widget)
        card.append(noticeRow)

        let clamp = newObject(adw_clamp_new())
        adw_clamp_set_maximum_size(clamp.opaque, 440)
        let column2 = column.cast(to: GtkBox.self)
        gtk_box_append(column2, icon)
        gtk_box_append(column2, title.widget)
        gtk_box_append(column2, subtitle.widget)
        gtk_box_append(column2, card.widget)
        adw_clamp_set_child(clamp.opaque, column)
        gtk_scrolled_window_set_child(widget.opaque, clamp)

        field.onChange { [weak model] text in model?.send(.urlChanged(text)) }
        field.onActivate { [weak model] in
            guard let model, model.canConnect else { return }
            model.send(.connect)
        }
        connectButton.onClick { [weak model] in model?.send(.connect) }
        observation = StateObservation { [weak self] in self?.render() }
    }

    /// Draws the model's state. Runs now and on every change.
    private func render() {
        field.text = model.urlText
        field.errorText = model.fieldError
        connectButton.isEnabled = model.canConnect
        let notice = model.notice
        gtk_label_set_label(self.notice, notice ?? "")
        gtk_widget_set_visible(noticeRow, notice == nil ? 0 : 1)
        // Announce the outcome to screen readers through the button's description.
        connectButton.widget.setAccessibleDescription(notice ?? model.fieldError)
    }

    func focusDefault() {
        field.grabFocus()
    }

    func teardown() {
        observation?.cancel()
        observation = nil
    }
}

