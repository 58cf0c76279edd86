import CAdwaita
import Foundation
import GObjectOwnership
import ListenUpCore

extension ShellSearchProvider {
    /// `org.gnome.Shell.SearchProvider2`, as GNOME Shell's
    /// `data/dbus-interfaces/org.gnome.ShellSearchProvider2.xml` describes it.
    static let introspection = """
    <node>
      <interface name="org.gnome.Shell.SearchProvider2">
        <method name="GetInitialResultSet">
          <arg type="as" name="terms" direction="in"/>
          <arg type="as" name="results" direction="out"/>
        </method>
        <method name="GetSubsearchResultSet">
          <arg type="as" name="previous_results" direction="in"/>
          <arg type="as" name="terms" direction="in"/>
          <arg type="as" name="results" direction="out"/>
        </method>
        <method name="GetResultMetas">
          <arg type="as" name="identifiers" direction="in"/>
          <arg type="aa{sv}" name="metas" direction="out"/>
        </method>
        <method name="ActivateResult">
          <arg type="s" name="identifier" direction="in"/>
          <arg type="as" name="terms" direction="in"/>
          <arg type="u" name="timestamp" direction="in"/>
        </method>
        <method name="LaunchSearch">
          <arg type="as" name="terms" direction="in"/>
          <arg type="u" name="timestamp" direction="in"/>
        </method>
      </interface>
    </node>
    """
}

/// The metas the provider answers with: a result's line and its icon.
/// Every value made here is floating, for the answer to take.
enum ShellVariant {
    /// `aa{sv}`: for each result its `id`, `name`, `description` and its
    /// icon (`icon`, a serialized GIcon: the cached cover's file, else a
    /// themed icon for its kind).
    static func metas(_ shown: [DesktopSearch.Shown]) -> OpaquePointer? {
        Variant.array(of: "a{sv}", shown.map { item -> OpaquePointer? in
            var entries: [(String, OpaquePointer?)] = [
                ("id", g_variant_new_string(item.meta.result.identifier)),
                ("name", g_variant_new_string(item.meta.name)),
                ("description", g_variant_new_string(item.meta.description)),
            ]
            let icon = serializedIcon(item)
            if let icon { entries.append(("icon", icon)) }
            let meta = Variant.dictionary(entries)
            // The dictionary took a reference of its own.
            if let icon { g_variant_unref(icon) }
            return meta
        })
    }

    /// The icon of a result, serialized (a reference of its own, not floating).
    private static func serializedIcon(_ item: DesktopSearch.Shown) -> OpaquePointer? {
        let made: OpaquePointer?
        if let file = item.coverFile {
            guard let location = OwnedReference(taking: g_file_new_for_path(file.path)) else { return nil }
            made = g_file_icon_new(location.pointer)
        } else {
            made = g_themed_icon_new(themedIcon(item.meta.result.kind))
        }
        guard let icon = OwnedReference(taking: made) else { return nil }
        return g_icon_serialize(icon.pointer)
    }

    /// The icon of a result with no cover of its own.
    static func themedIcon(_ kind: DesktopSearchResult.Kind) -> String {
        switch kind {
        case .book: "audio-x-generic"
        case .series: "view-list-bullet-symbolic"
        case .person: "avatar-default-symbolic"
        }
    }
}
