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

/// Makes a widget of `type` with the accessible role `role`.
///
/// The role is construct-only, so widgets whose default role is wrong for
/// their use (an error message is an `alert`, which screen readers announce
/// as it appears) are made here rather than with their `_new` function.
@MainActor
public func newWidget(of type: GType, role: GtkAccessibleRole) -> UnsafeMutablePointer<GtkWidget> {
    var value = GValue()
    g_value_init(&value, gtk_accessible_role_get_type())
    g_value_set_enum(&value, gint(role.rawValue))
    defer { g_value_unset(&value) }
    let object: UnsafeMutablePointer<GObject>? = "accessible-role".withCString { name in
        var names: [UnsafePointer<CChar>?] = [name]
        return withUnsafePointer(to: &value) { g_object_new_with_properties(type, 1, &names, $0) }
    }
    return UnsafeMutableRawPointer(newObject(object)).assumingMemoryBound(to: GtkWidget.self)
}

extension GPointer {
    /// The first descendant of this widget (depth first) that is a `type`;
    /// for naming the inner parts of composite widgets (the scrolled window
    /// inside an `AdwStatusPage`) that have no accessor of their own.
    @MainActor
    public func firstDescendant(ofType type: GType) -> UnsafeMutablePointer<GtkWidget>? {
        var found: UnsafeMutablePointer<GtkWidget>?
        walkDescendants(ofType: type) { found = $0; return false }
        return found
    }

    /// Every descendant of this widget (depth first) that is a `type`.
    @MainActor
    public func descendants(ofType type: GType) -> [UnsafeMutablePointer<GtkWidget>] {
        var found: [UnsafeMutablePointer<GtkWidget>] = []
        walkDescendants(ofType: type) { found.append($0); return true }
        return found
    }

    /// Calls `visit` with each descendant that is a `type`, depth first,
    /// until it returns false. Returns false when `visit` stopped the walk.
    @MainActor @discardableResult
    private func walkDescendants(ofType type: GType, _ visit: (UnsafeMutablePointer<GtkWidget>) -> Bool) -> Bool {
        var child = gtk_widget_get_first_child(widget)
        while let current = child {
            if g_type_check_instance_is_a(UnsafeMutableRawPointer(current).assumingMemoryBound(to: GTypeInstance.self), type) != 0,
               !visit(current) {
                return false
            }
            if !current.walkDescendants(ofType: type, visit) { return false }
            child = gtk_widget_get_next_sibling(current)
        }
        return true
    }
}
