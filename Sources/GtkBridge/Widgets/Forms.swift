import CAdwaita

/// `GtkEntry`.
public struct Entry: WidgetHandle {
    public let pointer: UnsafeMutablePointer<GtkWidget>
    public init(unchecked pointer: UnsafeMutablePointer<GtkWidget>) { self.pointer = pointer }
    public static var gtkType: GType { gtk_entry_get_type() }
}

@MainActor
extension Entry {
    private var entry: UnsafeMutablePointer<GtkEntry> { pointer.cast(to: GtkEntry.self) }

    /// The text typed.
    public var text: String {
        get { String(cString: gtk_editable_get_text(opaque)) }
        nonmutating set { gtk_editable_set_text(opaque, newValue) }
    }

    /// The hint shown while the entry is empty.
    public var placeholder: String {
        get { gtk_entry_get_placeholder_text(entry).map { String(cString: $0) } ?? "" }
        nonmutating set { gtk_entry_set_placeholder_text(entry, newValue) }
    }

    /// What the text is (an email, a URL, a password), for input methods.
    public var purpose: GtkInputPurpose {
        get { gtk_entry_get_input_purpose(entry) }
        nonmutating set { gtk_entry_set_input_purpose(entry, newValue) }
    }

    /// Whether the text is shown (false: dots, for a password).
    public var isTextVisible: Bool {
        get { gtk_entry_get_visibility(entry) != 0 }
        nonmutating set { gtk_entry_set_visibility(entry, newValue ? 1 : 0) }
    }

    /// Sets the icon at the end of the entry and its tooltip.
    public func setSecondaryIcon(_ name: String, tooltip: String) {
        gtk_entry_set_icon_from_icon_name(entry, GTK_ENTRY_ICON_SECONDARY, name)
        gtk_entry_set_icon_tooltip_text(entry, GTK_ENTRY_ICON_SECONDARY, tooltip)
    }

    /// Takes the keyboard focus without selecting the text.
    public func focusWithoutSelecting() { _ = gtk_entry_grab_focus_without_selecting(entry) }
}
