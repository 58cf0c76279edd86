import CAdwaita

/// `AdwActionRow`: a list row with a title, a subtitle and suffix widgets.
public struct ActionRow: WidgetHandle {
    public let pointer: UnsafeMutablePointer<GtkWidget>
    public init(unchecked pointer: UnsafeMutablePointer<GtkWidget>) { self.pointer = pointer }
    public static var gtkType: GType { adw_action_row_get_type() }
}

@MainActor
extension ActionRow {
    /// A new row showing `title` and `subtitle` as plain text (never as
    /// markup: a book or server name with an `&` is shown as it is).
    /// - Parameters:
    ///   - activatable: whether activating the row (click, Enter) emits
    ///     the list's `row-activated`.
    ///   - suffixIcon: an icon at the row's end (an arrow, a mark).
    public init(title: String, subtitle: String? = nil, activatable: Bool = false, suffixIcon: String? = nil) {
        self.init(unchecked: newObject(adw_action_row_new()))
        adw_preferences_row_set_use_markup(pointer.cast(to: AdwPreferencesRow.self), 0)
        adw_preferences_row_set_title(pointer.cast(to: AdwPreferencesRow.self), title)
        if let subtitle { adw_action_row_set_subtitle(pointer.cast(to: AdwActionRow.self), subtitle) }
        if activatable { gtk_list_box_row_set_activatable(pointer.cast(to: GtkListBoxRow.self), 1) }
        if let suffixIcon { addSuffix(Image(unchecked: newObject(gtk_image_new_from_icon_name(suffixIcon)))) }
    }

    /// Adds `widget` at the row's end.
    public func addSuffix(_ widget: some GPointer) {
        adw_action_row_add_suffix(pointer.cast(to: AdwActionRow.self), widget.widget)
    }

    /// Activates the row as a click would.
    public func activate() { _ = gtk_widget_activate(pointer) }
}
