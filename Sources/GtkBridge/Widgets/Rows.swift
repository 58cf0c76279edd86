import CAdwaita

/// `AdwActionRow`: a list row with a title, a subtitle and suffix widgets.
/// The app's own lists use `TextRow` (ListenUpUI); this types the preferences
/// template's fixed rows.
public struct ActionRow: WidgetHandle {
    public let pointer: UnsafeMutablePointer<GtkWidget>
    public init(unchecked pointer: UnsafeMutablePointer<GtkWidget>) { self.pointer = pointer }
    public static var gtkType: GType { adw_action_row_get_type() }
}

/// `AdwPreferencesGroup`: a titled group of rows.
public struct PreferencesGroup: WidgetHandle {
    public let pointer: UnsafeMutablePointer<GtkWidget>
    public init(unchecked pointer: UnsafeMutablePointer<GtkWidget>) { self.pointer = pointer }
    public static var gtkType: GType { adw_preferences_group_get_type() }
}

@MainActor
extension PreferencesGroup {
    private var group: UnsafeMutablePointer<AdwPreferencesGroup> { pointer.cast(to: AdwPreferencesGroup.self) }

    /// The text under the title (nil: none).
    public var groupDescription: String? {
        get { adw_preferences_group_get_description(group).map { String(cString: $0) } }
        nonmutating set { adw_preferences_group_set_description(group, newValue) }
    }

    /// Adds `row` at the end.
    public func add(_ row: some GPointer) { adw_preferences_group_add(group, row.widget) }

    /// Removes `row`.
    public func remove(_ row: some GPointer) { adw_preferences_group_remove(group, row.widget) }
}

/// `AdwPreferencesWindow`.
public struct PreferencesWindowHandle: WidgetHandle {
    public let pointer: UnsafeMutablePointer<GtkWidget>
    public init(unchecked pointer: UnsafeMutablePointer<GtkWidget>) { self.pointer = pointer }
    public static var gtkType: GType { adw_preferences_window_get_type() }
}

@MainActor
extension PreferencesWindowHandle {
    /// Shows `page` (an `AdwPreferencesPage` of this window).
    public func showPage(_ page: some GPointer) {
        adw_preferences_window_set_visible_page(pointer.cast(to: AdwPreferencesWindow.self), page.cast(to: AdwPreferencesPage.self))
    }

    /// Shows `text` in a toast over the window.
    public func showToast(_ text: String) {
        adw_preferences_window_add_toast(pointer.cast(to: AdwPreferencesWindow.self), newObject(adw_toast_new(text)))
    }
}

/// `GtkSwitch`.
public struct Switch: WidgetHandle {
    public let pointer: UnsafeMutablePointer<GtkWidget>
    public init(unchecked pointer: UnsafeMutablePointer<GtkWidget>) { self.pointer = pointer }
    public static var gtkType: GType { gtk_switch_get_type() }
}

@MainActor
extension Switch {
    /// Whether the switch is on. Setting the value it has changes nothing
    /// (no `notify::active`).
    public var isOn: Bool {
        get { gtk_switch_get_active(opaque) != 0 }
        nonmutating set { if newValue != isOn { gtk_switch_set_active(opaque, newValue ? 1 : 0) } }
    }
}

/// `GtkCheckButton` (a radio button when grouped).
public struct CheckButton: WidgetHandle {
    public let pointer: UnsafeMutablePointer<GtkWidget>
    public init(unchecked pointer: UnsafeMutablePointer<GtkWidget>) { self.pointer = pointer }
    public static var gtkType: GType { gtk_check_button_get_type() }
}

@MainActor
extension CheckButton {
    /// Whether the button is checked. Setting the value it has changes
    /// nothing.
    public var isChecked: Bool {
        get { gtk_check_button_get_active(pointer.cast(to: GtkCheckButton.self)) != 0 }
        nonmutating set { if newValue != isChecked { gtk_check_button_set_active(pointer.cast(to: GtkCheckButton.self), newValue ? 1 : 0) } }
    }
}

@MainActor
extension SpinButton {
    /// Sets the numbers the button takes and shows, as
    /// `gtk_spin_button_new_with_range` would (a page is ten steps, the
    /// climb rate one step, numbers only), then `value`.
    public func configure(range: ClosedRange<Double>, step: Double, digits: UInt32, value: Double) {
        let adjustment = gtk_adjustment_new(range.lowerBound, range.lowerBound, range.upperBound, step, 10 * step, 0)
        gtk_spin_button_configure(opaque, adjustment, step, digits)
        gtk_spin_button_set_numeric(opaque, 1)
        gtk_spin_button_set_value(opaque, value)
    }

    /// Sets `value` when it differs from the one shown by more than
    /// rounding (setting the same value would notify again).
    public func show(_ value: Double) {
        if abs(self.value - value) > 0.001 { self.value = value }
    }
}
