internal import CGio
import Foundation
import GObjectOwnership

/// Why a settings schema could not be opened.
public enum SettingsStoreError: Error, Equatable, Sendable, CustomStringConvertible {
    /// No schema source (`GSETTINGS_SCHEMA_DIR`, the XDG data folders or the
    /// extra folders given) holds the schema.
    case schemaNotFound(id: String, searched: [String])

    public var description: String {
        switch self {
        case .schemaNotFound(let id, let searched):
            "GSettings schema \(id) not found (searched the default sources and \(searched.isEmpty ? "no other folder" : searched.joined(separator: ", ")))"
        }
    }
}

/// One schema's settings through GIO's `GSettings`: the one Swift type that
/// calls GIO's settings API.
///
/// Reads and writes keys by name; enum keys are read and written by nick.
/// Writes are checked against the schema first (a value outside an enum's
/// choices or of the wrong type is refused, never a GLib critical).
///
/// `GSettings` may be used from any thread (GIO locks inside), but the change
/// signals, which this type does not use, would be delivered on the thread
/// that made it; the store additionally serialises its own calls.
public final class SettingsStore: @unchecked Sendable {
    /// Where values are kept.
    public enum Backend: Sendable, Equatable {
        /// GLib's default: dconf on a GNOME desktop, `GSETTINGS_BACKEND` when
        /// set. Where GLib would fall back to its memory backend (no dconf),
        /// the keyfile backend is used instead, so nothing is lost on exit.
        case `default`
        /// A key file at this path (what GLib's `keyfile` backend and Flatpak
        /// use); created on the first write.
        case keyfile(path: String)
        /// Memory only (tests).
        case memory
    }

    /// The schema id.
    public let schemaID: String
    /// The folder the schema was found in, when GLib says (nil for a schema
    /// found through the default sources).
    public let schemaDirectory: String?
    /// The backend in use, by GLib's type name (`DConfSettingsBackend`,
    /// `GKeyfileSettingsBackend`, `GMemorySettingsBackend`).
    public let backendName: String

    /// The key file settings go to because dconf needs a D-Bus session bus
    /// and none answers (an SSH session, a container, a service); nil
    /// otherwise. The app says so once.
    public let keyfileWithoutSessionBus: String?

    private let owned: OwnedReference<UnsafeMutablePointer<CGio.GSettings>>
    private var settings: UnsafeMutablePointer<CGio.GSettings> { owned.pointer }
    private let schema: OpaquePointer
    private let lock = NSLock()

    /// Opens `schemaID`, looking first in GLib's default schema sources, then
    /// in each of `extraSchemaDirectories` (folders holding a
    /// `gschemas.compiled`).
    public init(schemaID: String, extraSchemaDirectories: [String] = [], backend: Backend = .default) throws {
        var found: OpaquePointer?
        var foundIn: String?
        let defaultSource = g_settings_schema_source_get_default()
        if let defaultSource {
            found = g_settings_schema_source_lookup(defaultSource, schemaID, 1)
        }
        for directory in extraSchemaDirectories where found == nil {
            guard FileManager.default.fileExists(atPath: directory + "/gschemas.compiled") else { continue }
            var error: UnsafeMutablePointer<GError>?
            guard let source = g_settings_schema_source_new_from_directory(directory, defaultSource, 0, &error) else {
                g_error_free(error)
                continue
            }
            found = g_settings_schema_source_lookup(source, schemaID, 0)
            if found != nil { foundIn = directory }
            g_settings_schema_source_unref(source)
        }
        guard let found else {
            throw SettingsStoreError.schemaNotFound(id: schemaID, searched: extraSchemaDirectories)
        }
        var keyfileForLackOfBus: String?
        // Each a reference of its own (a new backend, or GLib's default).
        let chosen: UnsafeMutablePointer<GSettingsBackend>? = switch backend {
        case .default: Self.defaultBackend(noBusKeyfile: &keyfileForLackOfBus)
        case .keyfile(let path): g_keyfile_settings_backend_new(path, "/", nil)
        case .memory: g_memory_settings_backend_new()
        }
        // nil means GLib's default backend, which is then the one in use.
        let inUse = OwnedReference(taking: chosen ?? g_settings_backend_get_default())
        backendName = inUse.map { Self.typeName($0.pointer) } ?? "unknown"
        // GSettings keeps a reference to the backend of its own.
        owned = OwnedReference(taking: g_settings_new_full(found, inUse?.pointer, nil))
        schema = found
        self.schemaID = schemaID
        schemaDirectory = foundIn
        keyfileWithoutSessionBus = keyfileForLackOfBus
    }

    deinit {
        g_settings_sync()
        g_settings_schema_unref(schema)
        // `owned` lets the settings object go after this.
    }

    /// GLib's default backend, unless it cannot keep what is written: then
    /// the key file GLib's own `keyfile` backend would use
    /// (`$XDG_CONFIG_HOME/glib-2.0/settings/keyfile`). That is the case for
    /// the memory backend GLib falls back to when dconf is missing and
    /// `GSETTINGS_BACKEND` is unset, and for dconf with no session bus to
    /// reach its service (it would log "failed to commit changes" and lose
    /// every write); the second case is reported in `noBusKeyfile`.
    private static func defaultBackend(noBusKeyfile: inout String?) -> UnsafeMutablePointer<GSettingsBackend>? {
        // One variable, as GLib reads it (not Foundation's copy of the whole environment).
        if g_getenv("GSETTINGS_BACKEND") != nil { return nil }
        guard let standard = OwnedReference(taking: g_settings_backend_get_default()) else { return nil }
        let path = String(cString: g_get_user_config_dir()) + "/glib-2.0/settings/keyfile"
        switch typeName(standard.pointer) {
        case "GMemorySettingsBackend":
            return g_keyfile_settings_backend_new(path, "/", nil)
        case "DConfSettingsBackend" where !sessionBusAnswers():
            noBusKeyfile = path
            return g_keyfile_settings_backend_new(path, "/", nil)
        default:
            return nil
        }
    }

    /// Whether a D-Bus session bus can be reached (dconf writes through a
    /// service on it). With no `DBUS_SESSION_BUS_ADDRESS` GLib tries the
    /// runtime directory's `bus` socket, then X11 autolaunch.
    private static func sessionBusAnswers() -> Bool {
        var error: UnsafeMutablePointer<GError>?
        // A reference of its own, let go at once: only the answer matters.
        guard OwnedReference(taking: g_bus_get_sync(G_BUS_TYPE_SESSION, nil, &error)) != nil else {
            g_error_free(error)
            return false
        }
        return true
    }

    private static func typeName(_ backend: UnsafeMutablePointer<GSettingsBackend>) -> String {
        backend.withMemoryRebound(to: GTypeInstance.self, capacity: 1) { String(cString: g_type_name_from_instance($0)) }
    }

    /// Whether the schema has `key`.
    public func hasKey(_ key: String) -> Bool {
        g_settings_schema_has_key(schema, key) != 0
    }

    /// A string or enum key's value (an enum's nick); nil for an unknown key
    /// or one of another type.
    public func string(_ key: String) -> String? {
        lock.withLock {
            guard let value = value(key, type: "s") else { return nil }
            defer { g_variant_unref(value) }
            return String(cString: g_variant_get_string(value, nil))
        }
    }

    /// An `i` key's value.
    public func integer(_ key: String) -> Int? {
        lock.withLock {
            guard let value = value(key, type: "i") else { return nil }
            defer { g_variant_unref(value) }
            return Int(g_variant_get_int32(value))
        }
    }

    /// A `b` key's value.
    public func bool(_ key: String) -> Bool? {
        lock.withLock {
            guard let value = value(key, type: "b") else { return nil }
            defer { g_variant_unref(value) }
            return g_variant_get_boolean(value) != 0
        }
    }

    /// A `d` key's value.
    public func double(_ key: String) -> Double? {
        lock.withLock {
            guard let value = value(key, type: "d") else { return nil }
            defer { g_variant_unref(value) }
            return g_variant_get_double(value)
        }
    }

    /// The value of an `a{ss}` key (a dictionary of strings), or nil for an
    /// unknown key or another type.
    public func stringDictionary(_ key: String) -> [String: String]? {
        lock.withLock {
            guard let value = value(key, type: "a{ss}") else { return nil }
            defer { g_variant_unref(value) }
            var result: [String: String] = [:]
            for index in 0..<g_variant_n_children(value) {
                guard let entry = g_variant_get_child_value(value, index) else { continue }
                defer { g_variant_unref(entry) }
                guard let name = g_variant_get_child_value(entry, 0), let text = g_variant_get_child_value(entry, 1) else { continue }
                defer { g_variant_unref(name); g_variant_unref(text) }
                result[String(cString: g_variant_get_string(name, nil))] = String(cString: g_variant_get_string(text, nil))
            }
            return result
        }
    }

    /// Sets an `a{ss}` key (its entries in key order, so the same
    /// dictionary is always the same value).
    @discardableResult
    public func set(_ key: String, stringDictionary: [String: String]) -> Bool {
        let entries: [OpaquePointer?] = stringDictionary.keys.sorted().map { name in
            g_variant_new_dict_entry(g_variant_new_string(name), g_variant_new_string(stringDictionary[name] ?? ""))
        }
        let type = g_variant_type_new("{ss}")
        defer { g_variant_type_free(type) }
        guard let array = entries.withUnsafeBufferPointer({ g_variant_new_array(type, $0.baseAddress, gsize($0.count)) }) else {
            return false
        }
        return write(key, array)
    }

    /// Sets a string or enum key. Returns false (and changes nothing) for an
    /// unknown key, another type, a value outside the key's range (an enum's
    /// choices), or a backend that refuses the write.
    @discardableResult
    public func set(_ key: String, string: String) -> Bool { write(key, g_variant_new_string(string)) }

    /// Sets an `i` key (false outside `Int32` or the key's range).
    @discardableResult
    public func set(_ key: String, integer: Int) -> Bool {
        guard let narrow = Int32(exactly: integer) else { return false }
        return write(key, g_variant_new_int32(narrow))
    }

    /// Sets a `d` key (false outside the key's range).
    @discardableResult
    public func set(_ key: String, double: Double) -> Bool { write(key, g_variant_new_double(double)) }

    /// Sets a `b` key.
    @discardableResult
    public func set(_ key: String, bool: Bool) -> Bool { write(key, g_variant_new_boolean(bool ? 1 : 0)) }

    /// Puts `key` back to the schema's default.
    public func reset(_ key: String) {
        guard hasKey(key) else { return }
        lock.withLock { g_settings_reset(settings, key) }
    }

    /// Makes pending writes reach the backend's storage (dconf, the key file).
    public func flush() { g_settings_sync() }

    /// The value of `key` if it exists with the variant type `type`.
    private func value(_ key: String, type: String) -> OpaquePointer? {
        // g_settings_schema_get_key aborts on an unknown key: ask first.
        guard g_settings_schema_has_key(schema, key) != 0, let schemaKey = g_settings_schema_get_key(schema, key) else { return nil }
        defer { g_settings_schema_key_unref(schemaKey) }
        guard String(cString: g_variant_type_peek_string(g_settings_schema_key_get_value_type(schemaKey))).hasPrefix(type)
        else { return nil }
        return g_settings_get_value(settings, key)
    }

    private func write(_ key: String, _ value: OpaquePointer) -> Bool {
        let floating = g_variant_ref_sink(value)
        defer { g_variant_unref(floating) }
        return lock.withLock {
            guard g_settings_schema_has_key(schema, key) != 0, let schemaKey = g_settings_schema_get_key(schema, key) else { return false }
            defer { g_settings_schema_key_unref(schemaKey) }
            guard g_variant_is_of_type(floating, g_settings_schema_key_get_value_type(schemaKey)) != 0,
                  g_settings_schema_key_range_check(schemaKey, floating) != 0 else { return false }
            return g_settings_set_value(settings, key, floating) != 0
        }
    }
}
