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
