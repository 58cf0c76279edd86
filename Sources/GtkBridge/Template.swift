import CAdwaita

/// One widget tree described in a GtkBuilder file (`data/ui/*.ui`), loaded
/// from the app's GResource bundle: how a page gets its widgets.
///
/// The `.ui` file says what the tree is (widgets, layout, style classes,
/// fixed texts and accessible names); the page's Swift code keeps only the
/// behaviour, reaching the widgets it drives through ``child(_:as:)`` by
/// their `id`, as typed ``WidgetHandle``s, and connecting their signals
/// with the typed ``Signal``s. A missing id or a child of another type is a
/// programming error that the first load of the template reports (every
/// page is built by the UI tests), so the lookup traps instead of returning
/// an optional every page would have to unwrap.
///
/// Ownership: the builder holds the objects it made until it goes; the page
/// keeps its root with a ``GObjectRef`` (``root(_:as:)`` returns it
/// referenced) and the tree keeps the rest.
@MainActor
public struct Template {
    /// The resource path of the `.ui` file.
    public let path: String
    private let builder: GObjectRef<OpaquePointer>

    /// Loads the tree in the resource at `path`; its translatable texts are
    /// looked up in the gettext `domain`.
    ///
    /// Traps when the resource is missing or malformed: both are build
    /// errors (`build-aux/compile-data` bundles and checks every file).
    public init(resource path: String, domain: String) {
        self.path = path
        let builder = GObjectRef(taking: newObject(gtk_builder_new()))
        gtk_builder_set_translation_domain(builder.pointer, domain)
        var error: UnsafeMutablePointer<GError>?
        if gtk_builder_add_from_resource(builder.pointer, path, &error) == 0 {
            let message = error.map { String(cString: $0.pointee.message) } ?? "unknown error"
            g_clear_error(&error)
            fatalError("The template \(path) did not load: \(message)")
        }
        self.builder = builder
    }

    /// The object with `id`, viewed as `type`.
    public func child<W: WidgetHandle>(_ id: String, as type: W.Type = W.self) -> W {
        guard let object = gtk_builder_get_object(builder.pointer, id) else {
            fatalError("The template \(path) has no object with id \(id)")
        }
        guard let handle = W(checking: object) else {
            let actual = String(cString: g_type_name(object.pointee.g_type_instance.g_class.pointee.g_type))
            fatalError("In \(path), \(id) is a \(actual), not a \(String(cString: g_type_name(W.gtkType)))")
        }
        return handle
    }

    /// The object with `id` that is no widget (a menu, a menu section),
    /// borrowed: whoever holds it in the tree keeps it alive.
    public func object(_ id: String) -> OpaquePointer? {
        gtk_builder_get_object(builder.pointer, id).map { OpaquePointer($0) }
    }

    /// Whether the template has an object with `id`.
    public func contains(_ id: String) -> Bool {
        gtk_builder_get_object(builder.pointer, id) != nil
    }

    /// The tree's root (the object with `id`), with a reference of the
    /// caller's own: the page keeps it for as long as it lives.
    public func root<W: WidgetHandle>(_ id: String, as type: W.Type = W.self) -> (W, GObjectRef<UnsafeMutablePointer<GtkWidget>>) {
        let handle = child(id, as: type)
        return (handle, GObjectRef(borrowing: handle.pointer))
    }
}

/// The app's compiled GResource bundle of templates.
public enum TemplateBundle {
    /// Registers the bundle at `path` with GIO, so ``Template`` finds its
    /// resources. Returns false (and registers nothing) when the file cannot
    /// be read as a bundle.
    @MainActor
    public static func register(path: String) -> Bool {
        var error: UnsafeMutablePointer<GError>?
        guard let resource = g_resource_load(path, &error) else {
            g_clear_error(&error)
            return false
        }
        g_resources_register(resource)
        g_resource_unref(resource)
        return true
    }

    /// Whether a resource exists at `path` in the registered bundles.
    public static func contains(_ path: String) -> Bool {
        g_resources_get_info(path, G_RESOURCE_LOOKUP_FLAGS_NONE, nil, nil, nil) != 0
    }
}
