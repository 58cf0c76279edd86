import CAdwaita

/// `GtkLabel`.
public struct Label: WidgetHandle {
    public let pointer: UnsafeMutablePointer<GtkWidget>
    public init(unchecked pointer: UnsafeMutablePointer<GtkWidget>) { self.pointer = pointer }
    public static var gtkType: GType { gtk_label_get_type() }
}

@MainActor
extension Label {
    /// The text shown.
    public var text: String {
        get { String(cString: gtk_label_get_label(opaque)) }
        nonmutating set { gtk_label_set_label(opaque, newValue) }
    }

    /// Shows `text`, or hides the label when it is empty.
    public func show(_ text: String) {
        gtk_label_set_label(opaque, text)
        gtk_widget_set_visible(pointer, text.isEmpty ? 0 : 1)
    }
}

/// `GtkImage`.
public struct Image: WidgetHandle {
    public let pointer: UnsafeMutablePointer<GtkWidget>
    public init(unchecked pointer: UnsafeMutablePointer<GtkWidget>) { self.pointer = pointer }
    public static var gtkType: GType { gtk_image_get_type() }
}

@MainActor
extension Image {
    /// The icon shown, by icon name.
    public func setIcon(_ name: String) { gtk_image_set_from_icon_name(opaque, name) }
}

/// `GtkSpinner`.
public struct Spinner: WidgetHandle {
    public let pointer: UnsafeMutablePointer<GtkWidget>
    public init(unchecked pointer: UnsafeMutablePointer<GtkWidget>) { self.pointer = pointer }
    public static var gtkType: GType { gtk_spinner_get_type() }
}

@MainActor
extension Spinner {
    /// Shows and spins the spinner, or stops and hides it.
    public func run(_ running: Bool) {
        gtk_widget_set_visible(pointer, running ? 1 : 0)
        gtk_spinner_set_spinning(opaque, running ? 1 : 0)
    }
}

/// `GtkStack`.
public struct Stack: WidgetHandle {
    public let pointer: UnsafeMutablePointer<GtkWidget>
    public init(unchecked pointer: UnsafeMutablePointer<GtkWidget>) { self.pointer = pointer }
    public static var gtkType: GType { gtk_stack_get_type() }
}

@MainActor
extension Stack {
    /// The name of the child shown.
    public var visibleChildName: String? {
        get { gtk_stack_get_visible_child_name(opaque).map { String(cString: $0) } }
        nonmutating set { if let newValue { gtk_stack_set_visible_child_name(opaque, newValue) } }
    }
}

/// `GtkBox`.
public struct Box: WidgetHandle {
    public let pointer: UnsafeMutablePointer<GtkWidget>
    public init(unchecked pointer: UnsafeMutablePointer<GtkWidget>) { self.pointer = pointer }
    public static var gtkType: GType { gtk_box_get_type() }
}

@MainActor
extension Box {
    /// Adds `child` at the end.
    public func append(_ child: some GPointer) { gtk_box_append(pointer.cast(to: GtkBox.self), child.widget) }

    /// Removes `child`.
    public func remove(_ child: some GPointer) { gtk_box_remove(pointer.cast(to: GtkBox.self), child.widget) }
}

/// `GtkListBox`.
public struct ListBox: WidgetHandle {
    public let pointer: UnsafeMutablePointer<GtkWidget>
    public init(unchecked pointer: UnsafeMutablePointer<GtkWidget>) { self.pointer = pointer }
    public static var gtkType: GType { gtk_list_box_get_type() }
}

@MainActor
extension ListBox {
    /// Adds `row` at the end (GTK wraps a non-row in a `GtkListBoxRow`).
    public func append(_ row: some GPointer) { gtk_list_box_append(opaque, row.widget) }

    /// Removes `row`.
    public func remove(_ row: some GPointer) { gtk_list_box_remove(opaque, row.widget) }

    /// The row at `index`, if there is one.
    public func row(at index: Int) -> Widget? {
        gtk_list_box_get_row_at_index(opaque, Int32(index)).map { Widget($0) }
    }
}
