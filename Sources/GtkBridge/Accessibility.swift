import CAdwaita

/// Accessible properties for assistive technologies (AT-SPI on Linux).
extension GPointer {
    /// Sets the accessible name (what a screen reader says for the control).
    @MainActor
    public func setAccessibleLabel(_ label: String) {
        setAccessibleString(GTK_ACCESSIBLE_PROPERTY_LABEL, label)
    }

    /// Sets the accessible description (read after the name), or clears it.
    @MainActor
    public func setAccessibleDescription(_ description: String?) {
        if let description {
            setAccessibleString(GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, description)
        } else {
            gtk_accessible_reset_property(opaque, GTK_ACCESSIBLE_PROPERTY_DESCRIPTION)
        }
    }

    @MainActor
    private func setAccessibleString(_ property: GtkAccessibleProperty, _ text: String) {
        var value = GValue()
        g_value_init(&value, GType(16 << G_TYPE_FUNDAMENTAL_SHIFT)) // G_TYPE_STRING
        g_value_set_string(&value, text)
        var properties = [property]
        withUnsafePointer(to: &value) { valuePointer in
            gtk_accessible_update_property_value(opaque, 1, &properties, valuePointer)
        }
        g_value_unset(&value)
    }
}

extension GPointer {
    /// Sets a string GObject property by name (for properties without a
    /// C setter in this GTK version, such as GtkSearchEntry's
    /// `placeholder-text` before 4.10).
    @MainActor
    public func setStringProperty(_ name: String, _ text: String) {
        var value = GValue()
        g_value_init(&value, GType(16 << G_TYPE_FUNDAMENTAL_SHIFT)) // G_TYPE_STRING
        g_value_set_string(&value, text)
        g_object_set_property(object, name, &value)
        g_value_unset(&value)
    }
}
