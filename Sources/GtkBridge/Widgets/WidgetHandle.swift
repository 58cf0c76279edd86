import CAdwaita

/// A typed view of one GTK widget that the widget tree owns: the layer pages
/// talk to instead of calling `gtk_*` functions on raw pointers.
///
/// A handle is a plain value around the widget's pointer. It adds no
/// reference: the widget lives as long as its parent (or the page's
/// ``GObjectRef`` on its root) keeps it, and a handle must not outlive the
/// page that got it from its ``Template``. Each conforming type names the
/// GType it stands for, so ``Template/child(_:as:)`` checks the template's
/// object before handing it out: a template and its page cannot disagree
/// about what a child is without the first load saying so.
///
/// Handles are used on the GTK thread only (their members are `@MainActor`).
public protocol WidgetHandle: GPointer {
    /// The widget.
    var pointer: UnsafeMutablePointer<GtkWidget> { get }
    /// Wraps a widget known to be of ``gtkType``.
    init(unchecked pointer: UnsafeMutablePointer<GtkWidget>)
    /// The GType a widget must be (or derive from) to be viewed as this.
    static var gtkType: GType { get }
}

extension WidgetHandle {
    public var rawPointer: UnsafeMutableRawPointer { UnsafeMutableRawPointer(pointer) }
}

@MainActor
extension WidgetHandle {
    /// Views `widget` as this type, or nil when it is not one.
    public init?(checking widget: some GPointer) {
        let instance = widget.rawPointer.assumingMemoryBound(to: GTypeInstance.self)
        guard g_type_check_instance_is_a(instance, Self.gtkType) != 0 else { return nil }
        self.init(unchecked: widget.widget)
    }

    /// Whether the widget is shown (its own flag, not its parents').
    public var isVisible: Bool {
        get { gtk_widget_get_visible(pointer) != 0 }
        nonmutating set { gtk_widget_set_visible(pointer, newValue ? 1 : 0) }
    }

    /// Whether the widget takes input.
    public var isSensitive: Bool {
        get { gtk_widget_get_sensitive(pointer) != 0 }
        nonmutating set { gtk_widget_set_sensitive(pointer, newValue ? 1 : 0) }
    }

    /// The tooltip, or nil for none. Setting it asks the X server where the
    /// pointer is: set it when it changes, not on every render.
    public var tooltip: String? {
        get { gtk_widget_get_tooltip_text(pointer).map { String(cString: $0) } }
        nonmutating set { gtk_widget_set_tooltip_text(pointer, newValue) }
    }

    /// Sets the tooltip and the accessible name to the same text (an icon
    /// button's name is its tooltip).
    public func setName(_ name: String) {
        gtk_widget_set_tooltip_text(pointer, name)
        setAccessibleLabel(name)
    }

    /// Whether the widget is on screen (mapped).
    public var isMapped: Bool { gtk_widget_get_mapped(pointer) != 0 }

    /// Whether the widget is its window's focus widget: the keys typed in
    /// that window come here, once it is the active window (under X with no
    /// window manager, another program's window can take that away).
    public var isFocus: Bool { gtk_widget_is_focus(pointer) != 0 }

    /// Moves the keyboard focus here.
    @discardableResult
    public func grabFocus() -> Bool { gtk_widget_grab_focus(pointer) != 0 }

    /// The allocated width in pixels (0 before the first layout).
    public var width: Int { Int(gtk_widget_get_width(pointer)) }

    /// The allocated height in pixels (0 before the first layout).
    public var height: Int { Int(gtk_widget_get_height(pointer)) }

    /// Adds or removes a CSS class by name.
    public func setCSSClass(_ name: String, _ present: Bool) {
        present ? gtk_widget_add_css_class(pointer, name) : gtk_widget_remove_css_class(pointer, name)
    }

    /// Runs a widget action (`"menu.popup"`, a `GtkActionable`'s action).
    public func activateAction(_ name: String) {
        _ = gtk_widget_activate_action_variant(pointer, name, nil)
    }

    /// Asks GTK to draw the widget again.
    public func queueDraw() { gtk_widget_queue_draw(pointer) }
}

/// Any widget, when its exact type does not matter.
public struct Widget: WidgetHandle {
    public let pointer: UnsafeMutablePointer<GtkWidget>
    public init(unchecked pointer: UnsafeMutablePointer<GtkWidget>) { self.pointer = pointer }
    public static var gtkType: GType { gtk_widget_get_type() }

    /// Views any widget pointer as a ``Widget``.
    public init(_ widget: some GPointer) { pointer = widget.widget }
}
