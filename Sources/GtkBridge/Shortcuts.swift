import CAdwaita

/// Keyboard shortcuts with Swift handlers, on a `GtkShortcutController`.
@MainActor
public enum Shortcuts {
    /// Adds a shortcut to `controller` that runs `handler`.
    ///
    /// The controller owns the shortcut, and the shortcut's callback action
    /// owns the handler: it is released when the controller is finalised.
    /// Call on the GTK thread; the handler runs there.
    /// - Parameters:
    ///   - trigger: the keys, as `gtk_shortcut_trigger_parse_string` reads them
    ///     (`"<Control>f"`, `"Escape"`).
    ///   - controller: a `GtkShortcutController`.
    ///   - handler: returns whether it used the key (false lets it go on).
    public static func add(_ trigger: String, to controller: OpaquePointer, _ handler: @escaping @MainActor () -> Bool) {
        let box = Unmanaged.passRetained(ClosureBox<@MainActor () -> Bool>(handler)).toOpaque()
        let action = gtk_callback_action_new(shortcutCallback, box, releaseShortcutBox)
        let shortcut = gtk_shortcut_new(gtk_shortcut_trigger_parse_string(trigger), action)
        gtk_shortcut_controller_add_shortcut(controller, shortcut)
    }

    /// Adds a shortcut that works wherever the focus is in `widget`'s
    /// window (a controller of global scope on `widget`).
    public static func addGlobal(_ trigger: String, to widget: some GPointer, _ handler: @escaping @MainActor () -> Bool) {
        let controller: OpaquePointer = newObject(gtk_shortcut_controller_new())
        gtk_shortcut_controller_set_scope(controller, GTK_SHORTCUT_SCOPE_GLOBAL)
        add(trigger, to: controller, handler)
        gtk_widget_add_controller(widget.widget, controller)
    }
}

private let shortcutCallback: GtkShortcutFunc = { _, _, data in
    guard let data else { return 0 }
    let body = boxedHandler(data, as: (@MainActor () -> Bool).self)
    return MainActor.assumeIsolated { body() } ? 1 : 0
}

private let releaseShortcutBox: GDestroyNotify = { data in
    guard let data else { return }
    Unmanaged<ClosureBox<@MainActor () -> Bool>>.fromOpaque(data).release()
}
