import CAdwaita

/// An owning reference to a GObject instance: the one way the app holds a
/// GObject it must keep or release (no raw `g_object_ref`/`g_object_unref`
/// outside this module).
///
/// The initialiser label says who owns what: `init(taking:)` takes over a
/// reference the caller already holds (a constructor's result, a
/// transfer-full return) and sinks a floating one (what a freshly made widget
/// has); `init(borrowing:)` adds a reference of its own. Either way the
/// reference is dropped when this value is released. A local `GObjectRef`
/// may be released right after its last use, so hand the object over
/// (append it to a parent, set it on a widget) before that use ends.
///
/// Threading: GObject reference counting is atomic, so releasing from any thread
/// is safe for the count itself; but the last reference to a *widget* must go on
/// the GTK thread, which is why owners of `GObjectRef`s are `@MainActor` types.
public final class GObjectRef<Pointer: GPointer> {
    /// The referenced instance. Valid for as long as this value lives.
    public let pointer: Pointer

    /// Takes over the caller's reference, sinking it first if it is floating.
    /// - Parameter pointer: a freshly created or transferred-full instance.
    public init(taking pointer: Pointer) {
        self.pointer = pointer
        if g_object_is_floating(pointer.rawPointer) != 0 {
            g_object_ref_sink(pointer.rawPointer)
        }
    }

    /// Adds a reference of its own to an instance somebody else owns.
    public init(borrowing pointer: Pointer) {
        self.pointer = pointer
        g_object_ref(pointer.rawPointer)
    }

    /// The instance with one more reference, for a C function that takes
    /// over the reference it is given ("transfer full" parameters, such as
    /// the model of `gtk_no_selection_new`).
    public func newReference() -> Pointer {
        g_object_ref(pointer.rawPointer)
        return pointer
    }

    deinit {
        g_object_unref(pointer.rawPointer)
    }
}

/// A weak reference to a GObject: tells whether the instance is still alive
/// without keeping it so.
public final class GWeakObject {
    private let storage: UnsafeMutablePointer<GWeakRef>

    /// Starts watching `pointer`.
    public init(_ pointer: some GPointer) {
        storage = .allocate(capacity: 1)
        storage.initialize(to: GWeakRef())
        g_weak_ref_init(storage, pointer.rawPointer)
    }

    /// The instance, held strongly for as long as the result lives, or nil
    /// once it has been finalised.
    public func strongReference() -> GObjectRef<UnsafeMutableRawPointer>? {
        guard let strong = g_weak_ref_get(storage) else { return nil }
        // `g_weak_ref_get` added a reference; the GObjectRef adds its own
        // (never sinking: a floating object stays floating) and this one goes.
        defer { g_object_unref(strong) }
        return GObjectRef(borrowing: strong)
    }

    /// Whether the instance is still alive.
    public var isAlive: Bool {
        guard let strong = g_weak_ref_get(storage) else { return false }
        g_object_unref(strong)
        return true
    }

    deinit {
        g_weak_ref_clear(storage)
        storage.deinitialize(count: 1)
        storage.deallocate()
    }
}
