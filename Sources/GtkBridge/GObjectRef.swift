import CAdwaita
import GObjectOwnership

/// An owning reference to a GObject instance on the GTK side: GObjectOwnership's
/// `OwnedReference` (the one way the app holds a GObject it must keep or
/// release), typed with a GtkBridge pointer and kept off other threads.
///
/// The initialiser label says who owns what: `init(taking:)` takes over a
/// reference the caller already holds (a constructor's result, a
/// transfer-full return) and sinks a floating one (what a freshly made widget
/// has); `init(borrowing:)` adds a reference of its own. Either way the
/// reference is dropped when this value is released. A local `GObjectRef`
/// may be released right after its last use, so hand the object over
/// (append it to a parent, set it on a widget) before that use ends.
///
/// Threading: not `Sendable`. The count itself is atomic, but the last
/// reference to a *widget* must go on the GTK thread, which is why owners
/// of `GObjectRef`s are `@MainActor` types (the `OwnedReference` inside
/// never leaves this value).
public final class GObjectRef<Pointer: GPointer> {
    /// The referenced instance. Valid for as long as this value lives.
    public let pointer: Pointer
    private let owned: OwnedReference<UnsafeMutableRawPointer>

    /// Takes over the caller's reference, sinking it first if it is floating.
    /// - Parameter pointer: a freshly created or transferred-full instance.
    public init(taking pointer: Pointer) {
        self.pointer = pointer
        owned = OwnedReference(taking: pointer.rawPointer)
    }

    /// Adds a reference of its own to an instance somebody else owns.
    public init(borrowing pointer: Pointer) {
        self.pointer = pointer
        owned = OwnedReference(borrowing: pointer.rawPointer)
    }

    fileprivate init(pointer: Pointer, owned: OwnedReference<UnsafeMutableRawPointer>) {
        self.pointer = pointer
        self.owned = owned
    }

    /// The instance with one more reference, for a C function that takes
    /// over the reference it is given ("transfer full" parameters, such as
    /// the model of `gtk_no_selection_new`).
    public func newReference() -> Pointer {
        _ = owned.newReference()
        return pointer
    }
}

@available(*, unavailable)
extension GObjectRef: Sendable {}

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
        // `g_weak_ref_get` returns a reference of its own, which the
        // GObjectRef takes over without sinking: a floating object (a widget
        // not yet given to a parent) stays floating, for its parent to sink.
        guard let strong = g_weak_ref_get(storage) else { return nil }
        return GObjectRef(pointer: strong, owned: OwnedReference(taking: strong, sinkingFloating: false))
    }

    /// Whether the instance is still alive.
    public var isAlive: Bool {
        strongReference() != nil
    }

    deinit {
        g_weak_ref_clear(storage)
        storage.deinitialize(count: 1)
        storage.deallocate()
    }
}
