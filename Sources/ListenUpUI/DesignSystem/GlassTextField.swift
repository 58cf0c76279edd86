import CAdwaita
import GtkBridge
import ListenUpCore

/// A labelled text field on glass: label above, placeholder inside, error
/// text under the field. The label is the entry's accessible name; an error
/// becomes its accessible description, so screen readers announce it.
@MainActor
public final class GlassTextField {
    /// The field's root widget (a vertical `GtkBox`).
    public let widget: UnsafeMutablePointer<GtkWidget>
    /// The `GtkEntry`.
    public let entry: UnsafeMutablePointer<GtkWidget>
    private let ref: GObjectRef<UnsafeMutablePointer<GtkWidget>>
    let errorLabel: OpaquePointer
    private var connections: [SignalConnection] = []

    /// - Parameters:
    ///   - label: shown above the field; the accessible name.
    ///   - placeholder: shown in the empty field.
    ///   - purpose: the kind of text, for on-screen keyboards and input methods.
    ///   - isSecret: a password: the text is hidden, with an eye icon that shows it.
    public init(label: String, placeholder: String, purpose: GtkInputPurpose = GTK_INPUT_PURPOSE_FREE_FORM, isSecret: Bool = false) {
        widget = newObject(gtk_box_new(GTK_ORIENTATION_VERTICAL, 6))
        ref = GObjectRef(borrowing: widget)
        widget.addClasses(.textField)

        let title = OpaquePointer(newObject(gtk_label_new(label)))
        gtk_label_set_xalign(title, 0)
        title.addClasses(.heading)

        entry = newObject(gtk_entry_new())
        gtk_entry_set_placeholder_text(entry.cast(to: GtkEntry.self), placeholder)
        gtk_entry_set_input_purpose(entry.cast(to: GtkEntry.self), purpose)
        // The label above names the entry (its mnemonic widget, a labelled-by
        // relation); a label property as well would make screen readers say it twice.
        if isSecret {
            let field = entry.cast(to: GtkEntry.self)
            gtk_entry_set_visibility(field, 0)
            gtk_entry_set_input_purpose(field, GTK_INPUT_PURPOSE_PASSWORD)
            gtk_entry_set_icon_from_icon_name(field, GTK_ENTRY_ICON_SECONDARY, "view-reveal-symbolic")
            gtk_entry_set_icon_tooltip_text(field, GTK_ENTRY_ICON_SECONDARY, tr("Show Password"))
        }
        gtk_label_set_mnemonic_widget(title, entry)

        // An alert: screen readers announce the error as it appears.
        errorLabel = OpaquePointer(newWidget(of: gtk_label_get_type(), role: GTK_ACCESSIBLE_ROLE_ALERT))
        gtk_label_set_xalign(errorLabel, 0)
        gtk_label_set_wrap(errorLabel, 1)
        errorLabel.addClasses(.error, .caption)
        gtk_widget_set_visible(errorLabel.widget, 0)

        let box = widget.cast(to: GtkBox.self)
        gtk_box_append(box, title.widget)
        gtk_box_append(box, entry)
        gtk_box_append(box, errorLabel.widget)
        if isSecret { watchRevealIcon() }
    }

    /// The entry's text.
    public var text: String {
        get { String(cString: gtk_editable_get_text(entry.opaque)) }
        set {
            // Only write real changes: setting the same text moves the cursor.
            if newValue != text { gtk_editable_set_text(entry.opaque, newValue) }
        }
    }

    /// The error under the field, or nil for none.
    public var errorText: String? {
        didSet {
            guard errorText != oldValue else { return }
            gtk_label_set_label(errorLabel, errorText ?? "")
            gtk_widget_set_visible(errorLabel.widget, errorText == nil ? 0 : 1)
            entry.setClass(.error, errorText != nil)
            entry.setAccessibleDescription(errorText)
        }
    }

    /// Runs `action` with the new text on each edit.
    public func onChange(_ action: @escaping @MainActor (String) -> Void) {
        connections.append(entry.connect(.changed) { [weak self] in
            guard let self else { return }
            action(self.text)
        })
    }

    /// Toggles showing a secret field's text when its eye icon is pressed.
    private func watchRevealIcon() {
        connections.append(entry.connect(.iconPress) { [weak self] _ in
            guard let self else { return }
            let field = self.entry.cast(to: GtkEntry.self)
            let shown = gtk_entry_get_visibility(field) == 0
            gtk_entry_set_visibility(field, shown ? 1 : 0)
            gtk_entry_set_icon_from_icon_name(field, GTK_ENTRY_ICON_SECONDARY, shown ? "view-conceal-symbolic" : "view-reveal-symbolic")
            gtk_entry_set_icon_tooltip_text(field, GTK_ENTRY_ICON_SECONDARY, shown ? tr("Hide Password") : tr("Show Password"))
        })
    }

    /// Runs `action` when Enter is pressed in the field.
    public func onActivate(_ action: @escaping @MainActor () -> Void) {
        connections.append(entry.connect(.activate, action))
    }

    /// Moves keyboard focus to the entry, caret at the end, nothing selected
    /// (selecting all would make the next keystroke wipe a restored address).
    public func grabFocus() {
        gtk_entry_grab_focus_without_selecting(entry.cast(to: GtkEntry.self))
    }
}
