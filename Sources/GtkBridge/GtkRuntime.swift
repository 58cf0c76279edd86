import CAdwaita

/// Start-up facts about GTK in this process.
public enum GtkRuntime {
    /// Initialises GTK if a display can be opened.
    ///
    /// `gtk_init_check()` returns true on a second call even after a failed
    /// first one, so this also checks that a default display exists.
    /// - Returns: whether GTK is usable (a display is open).
    @MainActor
    public static func initialize() -> Bool {
        gtk_init_check() != 0 && gdk_display_get_default() != nil
    }

    /// Whether the default display composites (translucency is real), false
    /// with no display.
    @MainActor
    public static var displayIsComposited: Bool {
        guard let display = gdk_display_get_default() else { return false }
        return gdk_display_is_composited(display) != 0
    }

    /// Whether the default display is an X11 one (false with no display,
    /// and on Wayland). By the display object's type name, so the X11
    /// backend's headers are not needed.
    @MainActor
    public static var displayIsX11: Bool {
        guard let display = gdk_display_get_default(), let name = g_type_name(display.object.pointee.g_type_instance.g_class.pointee.g_type)
        else { return false }
        return String(cString: name) == "GdkX11Display"
    }

    /// Sets GTK's `gtk-enable-animations` for the default display; tests turn
    /// animations off so rendered colours are final, not mid-transition.
    @MainActor
    public static func setAnimationsEnabled(_ enabled: Bool) {
        guard let settings = gtk_settings_get_default() else { return }
        var value = GValue()
        g_value_init(&value, GType(5 << G_TYPE_FUNDAMENTAL_SHIFT)) // G_TYPE_BOOLEAN
        g_value_set_boolean(&value, enabled ? 1 : 0)
        g_object_set_property(settings.object, "gtk-enable-animations", &value)
        g_value_unset(&value)
    }
}
