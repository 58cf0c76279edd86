import CAdwaita

/// `GtkWindow` (and `AdwApplicationWindow`, a subclass).
public struct Window: WidgetHandle {
    public let pointer: UnsafeMutablePointer<GtkWidget>
    public init(unchecked pointer: UnsafeMutablePointer<GtkWidget>) { self.pointer = pointer }
    public static var gtkType: GType { gtk_window_get_type() }
}

@MainActor
extension Window {
    private var window: UnsafeMutablePointer<GtkWindow> { pointer.cast(to: GtkWindow.self) }

    /// The application the window belongs to (it keeps the app running).
    public func setApplication(_ application: some GPointer) {
        gtk_window_set_application(window, application.cast(to: GtkApplication.self))
    }

    /// The size the window opens at, or had before it was maximised.
    public var defaultSize: (width: Int, height: Int) {
        get {
            var width: Int32 = 0, height: Int32 = 0
            gtk_window_get_default_size(window, &width, &height)
            return (Int(width), Int(height))
        }
        nonmutating set { gtk_window_set_default_size(window, Int32(newValue.width), Int32(newValue.height)) }
    }

    /// Whether the window is maximised.
    public var isMaximized: Bool { gtk_window_is_maximized(window) != 0 }

    /// Maximises the window.
    public func maximize() { gtk_window_maximize(window) }

    /// Shows the window and raises it.
    public func present() { gtk_window_present(window) }

    /// The window's icon, by name from the icon theme (X11 shows it; Wayland
    /// shells take the icon from the desktop entry).
    public func setIconName(_ name: String) { gtk_window_set_icon_name(window, name) }

    /// Closes the window for good (it leaves GTK's list of toplevels).
    public func destroy() { gtk_window_destroy(window) }

    /// Whether the keyboard focus is in a widget of this window that takes
    /// typing or arrow keys of its own: a text field, a text view, a slider.
    public var focusTakesKeys: Bool {
        guard let focus = gtk_root_get_focus(opaque), gtk_widget_is_ancestor(focus, pointer) != 0 else { return false }
        let instance = UnsafeMutableRawPointer(focus).assumingMemoryBound(to: GTypeInstance.self)
        return [gtk_editable_get_type(), gtk_text_view_get_type(), gtk_range_get_type()]
            .contains { g_type_check_instance_is_a(instance, $0) != 0 }
    }

    /// Whether the keyboard focus is where the arrow keys move through
    /// something: a widget that takes keys (``focusTakesKeys``), or one
    /// inside a list, a grid, a flow box or a popover (a menu).
    public var focusTakesArrows: Bool {
        if focusTakesKeys { return true }
        guard let focus = gtk_root_get_focus(opaque), gtk_widget_is_ancestor(focus, pointer) != 0 else { return false }
        return [gtk_list_view_get_type(), gtk_grid_view_get_type(), gtk_column_view_get_type(), gtk_list_box_get_type(),
                gtk_flow_box_get_type(), gtk_popover_get_type()]
            .contains { gtk_widget_get_ancestor(focus, $0) != nil }
    }

    /// Adds keyboard shortcuts that act before the focused widget sees the
    /// keys (the capture phase). Each handler returns whether it handled
    /// the key.
    /// - Parameter shortcuts: triggers in `gtk_shortcut_trigger_parse_string`
    ///   syntax (`"space"`, `"<Control>Left"`) and their handlers.
    public func addCaptureShortcuts(_ shortcuts: [(String, @MainActor () -> Bool)]) {
        let controller: OpaquePointer = newObject(gtk_shortcut_controller_new())
        gtk_event_controller_set_propagation_phase(controller, GTK_PHASE_CAPTURE)
        for (trigger, handler) in shortcuts { Shortcuts.add(trigger, to: controller, handler) }
        gtk_widget_add_controller(pointer, controller)
    }

    /// The window's surface once realized: whether it is mapped and not
    /// minimized (on X11 a window manager minimizes by unmapping).
    public var isSurfaceOnScreen: Bool {
        guard let surface = gtk_native_get_surface(opaque) else { return false }
        let minimized = gdk_toplevel_get_state(surface).rawValue & GDK_TOPLEVEL_STATE_MINIMIZED.rawValue != 0
        return gdk_surface_get_mapped(surface) != 0 && !minimized
    }

    /// Connects `handler` to changes of the surface's mapping and state;
    /// empty before the window is realized.
    public func watchSurface(_ handler: @escaping @MainActor () -> Void) -> [SignalConnection] {
        guard let surface = gtk_native_get_surface(opaque) else { return [] }
        return [surface.connect(.notify("mapped"), handler), surface.connect(.notify("state"), handler)]
    }
}

/// `AdwToastOverlay`: transient messages over a child.
public struct ToastOverlay: WidgetHandle {
    public let pointer: UnsafeMutablePointer<GtkWidget>
    public init(unchecked pointer: UnsafeMutablePointer<GtkWidget>) { self.pointer = pointer }
    public static var gtkType: GType { adw_toast_overlay_get_type() }
}

@MainActor
extension ToastOverlay {
    /// Shows `text` for libadwaita's default time.
    public func show(_ text: String) {
        adw_toast_overlay_add_toast(opaque, newObject(adw_toast_new(text)))
    }

    /// Shows `text` with a button labelled `button` for `seconds`; returns
    /// the connection of `action` to the button (drop it to disconnect).
    public func show(_ text: String, button: String, seconds: Int, action: @escaping @MainActor () -> Void) -> SignalConnection {
        let toast: OpaquePointer = newObject(adw_toast_new(text))
        adw_toast_set_button_label(toast, button)
        adw_toast_set_timeout(toast, guint(seconds))
        let connection = toast.connect(.buttonClicked, action)
        adw_toast_overlay_add_toast(opaque, toast)
        return connection
    }

    /// Gives the close buttons of the toasts shown an accessible name:
    /// libadwaita 1.2's has an icon and no name (a screen reader says
    /// "button"). Call after showing a toast, and once more when idle (its
    /// widget may come a main loop turn later).
    public func nameCloseButtons(_ name: String) {
        let toastType = g_type_from_name("AdwToastWidget")
        guard toastType != 0, let toast = firstDescendant(ofType: toastType) else { return }
        var child = gtk_widget_get_first_child(toast)
        while let current = child {
            if let button = Button(checking: current), gtk_button_get_label(button.pointer.cast(to: GtkButton.self)) == nil {
                button.setAccessibleLabel(name)
            }
            child = gtk_widget_get_next_sibling(current)
        }
    }
}

@MainActor
extension Stack {
    /// Adds `child` (not shown until it is made the visible child).
    public func add(_ child: some GPointer) { _ = gtk_stack_add_child(opaque, child.widget) }

    /// Removes `child`.
    public func remove(_ child: some GPointer) { gtk_stack_remove(opaque, child.widget) }

    /// Shows `child`, with the stack's transition or, when `animated` is
    /// false, at once.
    public func show(_ child: some GPointer, animated: Bool = true) {
        let transition = gtk_stack_get_transition_type(opaque)
        if !animated { gtk_stack_set_transition_type(opaque, GTK_STACK_TRANSITION_TYPE_NONE) }
        gtk_stack_set_visible_child(opaque, child.widget)
        gtk_stack_set_transition_type(opaque, transition)
    }

    /// Whether a transition is running.
    public var isTransitionRunning: Bool { gtk_stack_get_transition_running(opaque) != 0 }
}

/// A `GtkApplication`'s inhibition of the session's suspend, held while a
/// value of this type holds a cookie.
@MainActor
public struct SuspendInhibition {
    private let application: UnsafeMutablePointer<GtkApplication>
    private var cookie: guint = 0

    public init(application: some GPointer) {
        self.application = application.cast(to: GtkApplication.self)
    }

    /// Whether suspend is inhibited.
    public var isActive: Bool { cookie != 0 }

    /// Inhibits suspend (once) for `window`, saying why, or lifts it.
    public mutating func set(_ active: Bool, window: Window, reason: String) {
        if active, cookie == 0 {
            cookie = gtk_application_inhibit(application, window.pointer.cast(to: GtkWindow.self), GTK_APPLICATION_INHIBIT_SUSPEND, reason)
        } else if !active, cookie != 0 {
            gtk_application_uninhibit(application, cookie)
            cookie = 0
        }
    }
}
