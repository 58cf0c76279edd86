import CAdwaita

/// `GtkButton` (and its subclasses).
public struct Button: WidgetHandle {
    public let pointer: UnsafeMutablePointer<GtkWidget>
    public init(unchecked pointer: UnsafeMutablePointer<GtkWidget>) { self.pointer = pointer }
    public static var gtkType: GType { gtk_button_get_type() }
}

@MainActor
extension Button {
    /// The icon shown, by icon name.
    public func setIcon(_ name: String) { gtk_button_set_icon_name(pointer.cast(to: GtkButton.self), name) }

    /// The text shown.
    public var label: String {
        get { gtk_button_get_label(pointer.cast(to: GtkButton.self)).map { String(cString: $0) } ?? "" }
        nonmutating set { gtk_button_set_label(pointer.cast(to: GtkButton.self), newValue) }
    }
}

/// `GtkMenuButton`.
public struct MenuButton: WidgetHandle {
    public let pointer: UnsafeMutablePointer<GtkWidget>
    public init(unchecked pointer: UnsafeMutablePointer<GtkWidget>) { self.pointer = pointer }
    public static var gtkType: GType { gtk_menu_button_get_type() }
}

@MainActor
extension MenuButton {
    /// The text shown (when the button has no custom child).
    public var label: String {
        get { gtk_menu_button_get_label(opaque).map { String(cString: $0) } ?? "" }
        nonmutating set { gtk_menu_button_set_label(opaque, newValue) }
    }

    /// Closes the button's popover if it is open.
    public func popdown() { gtk_menu_button_popdown(opaque) }

    /// Opens the button's popover.
    public func popup() { gtk_menu_button_popup(opaque) }
}

/// `GtkScale`: a slider.
public struct Scale: WidgetHandle {
    public let pointer: UnsafeMutablePointer<GtkWidget>
    public init(unchecked pointer: UnsafeMutablePointer<GtkWidget>) { self.pointer = pointer }
    public static var gtkType: GType { gtk_scale_get_type() }
}

@MainActor
extension Scale {
    /// The position of the slider.
    public var value: Double {
        get { gtk_range_get_value(pointer.cast(to: GtkRange.self)) }
        nonmutating set { gtk_range_set_value(pointer.cast(to: GtkRange.self), newValue) }
    }

    /// Sets the values the slider spans.
    public func setRange(_ range: ClosedRange<Double>) {
        gtk_range_set_range(pointer.cast(to: GtkRange.self), range.lowerBound, range.upperBound)
    }

    /// Adds a mark at `value`, labelled under the slider.
    public func addMark(at value: Double, _ label: String) {
        gtk_scale_add_mark(pointer.cast(to: GtkScale.self), value, GTK_POS_BOTTOM, label)
    }
}

/// `GtkSpinButton`.
public struct SpinButton: WidgetHandle {
    public let pointer: UnsafeMutablePointer<GtkWidget>
    public init(unchecked pointer: UnsafeMutablePointer<GtkWidget>) { self.pointer = pointer }
    public static var gtkType: GType { gtk_spin_button_get_type() }
}

@MainActor
extension SpinButton {
    /// The number shown.
    public var value: Double {
        get { gtk_spin_button_get_value(opaque) }
        nonmutating set { gtk_spin_button_set_value(opaque, newValue) }
    }
}
