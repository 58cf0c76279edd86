import CGio

/// GVariant constructors Swift can call (no varargs).
enum Variant {
    static func string(_ text: String) -> OpaquePointer? { g_variant_new_string(text) }

    static func stringArray(_ items: [String]) -> OpaquePointer? {
        let children: [OpaquePointer?] = items.map { g_variant_new_string($0) }
        return withType("s") { type in
            children.withUnsafeBufferPointer { buffer in
                g_variant_new_array(type, buffer.baseAddress, gsize(buffer.count))
            }
        }
    }

    /// `a{sv}` of `entries` (each value wrapped in a variant).
    static func dictionary(_ entries: [(String, OpaquePointer?)]) -> OpaquePointer? {
        let children: [OpaquePointer?] = entries.map { key, value in
            g_variant_new_dict_entry(g_variant_new_string(key), g_variant_new_variant(value))
        }
        return withType("{sv}") { type in
            children.withUnsafeBufferPointer { g_variant_new_array(type, $0.baseAddress, gsize($0.count)) }
        }
    }

    static func tuple(_ children: [OpaquePointer?]) -> OpaquePointer? {
        children.withUnsafeBufferPointer { g_variant_new_tuple($0.baseAddress, gsize($0.count)) }
    }

    static func int64(_ tuple: OpaquePointer, child: Int) -> Int64 {
        guard let value = g_variant_get_child_value(tuple, gsize(child)) else { return 0 }
        defer { g_variant_unref(value) }
        return Int64(g_variant_get_int64(value))
    }

    static func string(_ tuple: OpaquePointer, child: Int) -> String {
        guard let value = g_variant_get_child_value(tuple, gsize(child)) else { return "" }
        defer { g_variant_unref(value) }
        return String(cString: g_variant_get_string(value, nil))
    }

    private static func withType<Result>(_ text: String, _ body: (OpaquePointer?) -> Result) -> Result {
        let type = g_variant_type_new(text)
        defer { g_variant_type_free(type) }
        return body(type)
    }
}
