import CAdwaita

// The handles the library's templates need (library-page.ui, book-details.ui,
// download-control.ui, continue-item.ui).

/// `GtkSearchEntry`.
public struct SearchEntry: WidgetHandle {
    public let pointer: UnsafeMutablePointer<GtkWidget>
    public init(unchecked pointer: UnsafeMutablePointer<GtkWidget>) { self.pointer = pointer }
    public static var gtkType: GType { gtk_search_entry_get_type() }
}

@MainActor
extension SearchEntry {
    /// The text in the field.
    public var text: String {
        get { String(cString: gtk_editable_get_text(opaque)) }
        nonmutating set { gtk_editable_set_text(opaque, newValue) }
    }

    /// Keys typed while `widget` (or a child without a use for them) has
    /// the focus go to the field.
    public func captureKeys(from widget: some GPointer) {
        gtk_search_entry_set_key_capture_widget(opaque, widget.widget)
    }

    /// Moves the focus into the field without selecting its text (typing
    /// and Backspace go on where they were).
    /// (The same name as ``Entry/focusWithoutSelecting()``.)
    public func focusWithoutSelecting() {
        guard let text = gtk_editable_get_delegate(opaque) else { return }
        gtk_text_grab_focus_without_selecting(UnsafeMutablePointer<GtkText>(text))
    }
}

/// `GtkDropDown`.
public struct DropDown: WidgetHandle {
    public let pointer: UnsafeMutablePointer<GtkWidget>
    public init(unchecked pointer: UnsafeMutablePointer<GtkWidget>) { self.pointer = pointer }
    public static var gtkType: GType { gtk_drop_down_get_type() }
}

@MainActor
extension DropDown {
    /// The position of the chosen item.
    public var selected: Int {
        get { Int(gtk_drop_down_get_selected(opaque)) }
        nonmutating set { gtk_drop_down_set_selected(opaque, guint(newValue)) }
    }

    /// The button that opens the list (it takes the focus).
    public var button: Widget? {
        firstDescendant(ofType: ToggleButton.gtkType).map { Widget($0) }
    }
}

/// `GtkToggleButton`.
public struct ToggleButton: WidgetHandle {
    public let pointer: UnsafeMutablePointer<GtkWidget>
    public init(unchecked pointer: UnsafeMutablePointer<GtkWidget>) { self.pointer = pointer }
    public static var gtkType: GType { gtk_toggle_button_get_type() }
}

@MainActor
extension ToggleButton {
    /// Whether the button is pressed in.
    public var isActive: Bool {
        get { gtk_toggle_button_get_active(pointer.cast(to: GtkToggleButton.self)) != 0 }
        nonmutating set { gtk_toggle_button_set_active(pointer.cast(to: GtkToggleButton.self), newValue ? 1 : 0) }
    }
}

/// `GtkProgressBar`.
public struct ProgressBar: WidgetHandle {
    public let pointer: UnsafeMutablePointer<GtkWidget>
    public init(unchecked pointer: UnsafeMutablePointer<GtkWidget>) { self.pointer = pointer }
    public static var gtkType: GType { gtk_progress_bar_get_type() }
}

@MainActor
extension ProgressBar {
    /// How much of the bar is filled, 0…1.
    public var fraction: Double {
        get { gtk_progress_bar_get_fraction(opaque) }
        nonmutating set { gtk_progress_bar_set_fraction(opaque, newValue) }
    }

    /// Moves the bar's block a step (work going on of an unknown length).
    public func pulse() { gtk_progress_bar_pulse(opaque) }
}

/// `GtkRevealer`.
public struct Revealer: WidgetHandle {
    public let pointer: UnsafeMutablePointer<GtkWidget>
    public init(unchecked pointer: UnsafeMutablePointer<GtkWidget>) { self.pointer = pointer }
    public static var gtkType: GType { gtk_revealer_get_type() }
}

@MainActor
extension Revealer {
    /// Whether the child is to be shown (the transition runs towards it).
    public var revealChild: Bool {
        get { gtk_revealer_get_reveal_child(opaque) != 0 }
        nonmutating set { gtk_revealer_set_reveal_child(opaque, newValue ? 1 : 0) }
    }

    /// Whether the child is fully shown (the transition has ended there).
    public var isChildRevealed: Bool { gtk_revealer_get_child_revealed(opaque) != 0 }
}

/// `GtkScrolledWindow`.
public struct ScrolledWindow: WidgetHandle {
    public let pointer: UnsafeMutablePointer<GtkWidget>
    public init(unchecked pointer: UnsafeMutablePointer<GtkWidget>) { self.pointer = pointer }
    public static var gtkType: GType { gtk_scrolled_window_get_type() }
}

@MainActor
extension ScrolledWindow {
    /// Shows `child`, in place of the one shown before (GTK puts a child
    /// that cannot scroll itself in a `GtkViewport` on the window's own
    /// adjustments, so the scroll position carries over).
    public func setChild(_ child: some GPointer) { gtk_scrolled_window_set_child(opaque, child.widget) }
}

/// `AdwStatusPage`.
public struct StatusPage: WidgetHandle {
    public let pointer: UnsafeMutablePointer<GtkWidget>
    public init(unchecked pointer: UnsafeMutablePointer<GtkWidget>) { self.pointer = pointer }
    public static var gtkType: GType { adw_status_page_get_type() }
}

@MainActor
extension StatusPage {
    /// Sets the icon (by name), the title and the description.
    public func show(icon: String, title: String, description: String) {
        adw_status_page_set_icon_name(opaque, icon)
        adw_status_page_set_title(opaque, title)
        adw_status_page_set_description(opaque, description)
    }

    /// The icon's name; nil for none.
    public var iconName: String? {
        get { adw_status_page_get_icon_name(opaque).map { String(cString: $0) } }
        nonmutating set { adw_status_page_set_icon_name(opaque, newValue) }
    }

    /// The title.
    public var title: String { adw_status_page_get_title(opaque).map { String(cString: $0) } ?? "" }

    /// The description.
    public var statusDescription: String { adw_status_page_get_description(opaque).map { String(cString: $0) } ?? "" }

    /// Its inner scrolled window (it can take the focus).
    public var scrolledWindow: Widget? { firstDescendant(ofType: ScrolledWindow.gtkType).map { Widget($0) } }
}

/// `AdwButtonContent`: an icon and a label, as a button's child.
public struct ButtonContent: WidgetHandle {
    public let pointer: UnsafeMutablePointer<GtkWidget>
    public init(unchecked pointer: UnsafeMutablePointer<GtkWidget>) { self.pointer = pointer }
    public static var gtkType: GType { adw_button_content_get_type() }
}

@MainActor
extension ButtonContent {
    /// The text shown.
    public var label: String {
        get { adw_button_content_get_label(opaque).map { String(cString: $0) } ?? "" }
        nonmutating set { adw_button_content_set_label(opaque, newValue) }
    }
}

@MainActor
extension ActionRow {
    /// The title, shown as plain text (no markup).
    public var title: String {
        get { String(cString: adw_preferences_row_get_title(pointer.cast(to: AdwPreferencesRow.self))) }
        nonmutating set { adw_preferences_row_set_title(pointer.cast(to: AdwPreferencesRow.self), newValue) }
    }

    /// The line under the title.
    public var subtitle: String {
        get { adw_action_row_get_subtitle(pointer.cast(to: AdwActionRow.self)).map { String(cString: $0) } ?? "" }
        nonmutating set { adw_action_row_set_subtitle(pointer.cast(to: AdwActionRow.self), newValue) }
    }
}

@MainActor
extension Box {
    /// Adds `child` at the start.
    public func prepend(_ child: some GPointer) { gtk_box_prepend(pointer.cast(to: GtkBox.self), child.widget) }

    /// Adds `child` right after `sibling` (at the start when nil).
    public func insert(_ child: some GPointer, after sibling: (some GPointer)?) {
        gtk_box_insert_child_after(pointer.cast(to: GtkBox.self), child.widget, sibling?.widget)
    }

    /// Removes every child.
    public func removeAll() {
        while let child = gtk_widget_get_first_child(pointer) { gtk_box_remove(pointer.cast(to: GtkBox.self), child) }
    }
}

@MainActor
extension Stack {
    /// Adds `child` as the page named `name`, after the others.
    public func add(_ child: some GPointer, named name: String) { gtk_stack_add_named(opaque, child.widget, name) }
}

@MainActor
extension WidgetHandle {
    /// How the widget sits across the room it is given.
    public var halign: GtkAlign {
        get { gtk_widget_get_halign(pointer) }
        nonmutating set { gtk_widget_set_halign(pointer, newValue) }
    }

    /// The room kept free under the widget, in pixels.
    public var marginBottom: Int {
        get { Int(gtk_widget_get_margin_bottom(pointer)) }
        nonmutating set { gtk_widget_set_margin_bottom(pointer, Int32(newValue)) }
    }

    /// Whether this widget is inside `ancestor` (at any depth; not itself).
    public func isInside(_ ancestor: some GPointer) -> Bool {
        gtk_widget_is_ancestor(pointer, ancestor.widget) != 0
    }

    /// The widget holding the keyboard focus in this widget's window, if any.
    public var windowFocus: Widget? {
        guard let root = gtk_widget_get_root(pointer), let focus = gtk_root_get_focus(root) else { return nil }
        return Widget(focus)
    }

    /// The child that holds the focus, or contains it (nil: none does).
    public var focusChild: Widget? { gtk_widget_get_focus_child(pointer).map { Widget($0) } }
}
