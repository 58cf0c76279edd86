import CAdwaita

/// GVariants for the app's D-Bus calls and answers (the Shell search
/// provider, the Background portal): Swift cannot call GLib's varargs
/// constructors. Every value made here is floating, for the call or the
/// answer to take.
enum Variant {
    static func tuple(_ children: [OpaquePointer?]) -> OpaquePointer? {
        children.withUnsafeBufferPointer { g_variant_new_tuple($0.baseAddress, gsize($0.count)) }
    }

    static func stringArray(_ items: [String]) -> OpaquePointer? {
        array(of: "s", items.map { g_variant_new_string($0) })
    }

    /// `a{sv}` of `entries` (each value wrapped in a variant).
    static func dictionary(_ entries: [(String, OpaquePointer?)]) -> OpaquePointer? {
        array(of: "{sv}", entries.map { key, value in g_variant_new_dict_entry(g_variant_new_string(key), g_variant_new_variant(value)) })
    }

    /// An array of `children`, each of `type` (a GVariant type string).
    static func array(of type: String, _ children: [OpaquePointer?]) -> OpaquePointer? {
        let elementType = g_variant_type_new(type)
        defer { g_variant_type_free(elementType) }
        return children.withUnsafeBufferPointer { g_variant_new_array(elementType, $0.baseAddress, gsize($0.count)) }
    }

    /// The strings of the `as` at `child` of `tuple`.
    static func strings(_ tuple: OpaquePointer?, child: Int) -> [String] {
        guard let tuple, g_variant_n_children(tuple) > gsize(child), let array = g_variant_get_child_value(tuple, gsize(child)) else { return [] }
        defer { g_variant_unref(array) }
        return (0..<Int(g_variant_n_children(array))).compactMap { index in
            guard let value = g_variant_get_child_value(array, gsize(index)) else { return nil }
            defer { g_variant_unref(value) }
            return String(cString: g_variant_get_string(value, nil))
        }
    }

    /// The string at `child` of `tuple` ("" when there is none).
    static func string(_ tuple: OpaquePointer?, child: Int) -> String {
        guard let tuple, g_variant_n_children(tuple) > gsize(child), let value = g_variant_get_child_value(tuple, gsize(child)) else { return "" }
        defer { g_variant_unref(value) }
        return String(cString: g_variant_get_string(value, nil))
    }
}
