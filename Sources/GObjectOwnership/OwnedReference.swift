internal import CGio

/// A C pointer an ``OwnedReference`` can hold: what GLib calls a `gpointer`.
///
/// GLib's types come into Swift once per C module that includes them
/// (`CAdwaita`, `CGio`, `CGStreamer`, …), and the copies are distinct Swift
/// types; the untyped address is the same in all of them, so this module
/// speaks only in addresses and works for every one.
public protocol ReferencePointer {
    /// The instance's address.
    var objectAddress: UnsafeMutableRawPointer { get }
}

extension UnsafeMutablePointer: ReferencePointer {
    public var objectAddress: UnsafeMutableRawPointer { UnsafeMutableRawPointer(self) }
}

extension OpaquePointer: ReferencePointer {
    public var objectAddress: UnsafeMutableRawPointer { UnsafeMutableRawPointer(self) }
}

extension UnsafeMutableRawPointer: ReferencePointer {
    public var objectAddress: UnsafeMutableRawPointer { self }
}

/// How one kind of reference-counted C object is counted.
///
/// ``gObject`` is every `GObject` (GTK widgets, GIO objects, GStreamer
/// elements and buses: `gst_object_ref`/`gst_object_unref` are GObject's
/// own count plus GStreamer's tracer hooks). Other kinds (a `GstMessage`,
/// a `GstMiniObject`) are described by the module that knows their
/// functions.
public struct ReferenceCounting: Sendable {
    let retain: @Sendable (UnsafeMutableRawPointer) -> Void
    let release: @Sendable (UnsafeMutableRawPointer) -> Void
    let sinkFloating: @Sendable (UnsafeMutableRawPointer) -> Void

    /// A kind of object by its functions.
    /// - Parameters:
    ///   - retain: adds one reference.
    ///   - release: drops one reference.
    ///   - sinkFloating: turns a floating reference into a full one (for
    ///     kinds that have floating references), else does nothing.
    public init(retain: @escaping @Sendable (UnsafeMutableRawPointer) -> Void,
                release: @escaping @Sendable (UnsafeMutableRawPointer) -> Void,
                sinkFloating: @escaping @Sendable (UnsafeMutableRawPointer) -> Void = { _ in }) {
        self.retain = retain
        self.release = release
        self.sinkFloating = sinkFloating
    }

    /// `GObject` and everything derived from it (`GInitiallyUnowned`'s
    /// floating references are sunk when taken).
    public static let gObject = ReferenceCounting(
        retain: { _ = g_object_ref($0) },
        release: { g_object_unref($0) },
        sinkFloating: { if g_object_is_floating($0) != 0 { _ = g_object_ref_sink($0) } }
    )
}

/// An owning reference to a reference-counted C object: the one way the app
/// holds a GObject or a GStreamer object it must keep and then let go.
///
/// The initialiser says who owns what: ``init(taking:counting:)`` adopts a
/// reference the caller already holds (a constructor's result, a
/// "transfer full" return), sinking a floating one; ``init(borrowing:counting:)``
/// adds one of its own. Either way exactly one reference is dropped, in
/// `deinit`, when the last Swift reference to this value goes. A local
/// `OwnedReference` may be released right after its last use, so hand the
/// object over (set it on a pipeline, append it to a parent) before that use
/// ends, or keep the value.
///
/// Threading: `@unchecked Sendable`, because its state is a constant pointer
/// and the one reference it owns, and GLib's and GStreamer's counts are
/// atomic: it may be kept, handed over and released on any thread. That is
/// all it promises. Whether the *object* may be called from another thread
/// is the object's own contract: GStreamer's elements and buses and GIO's
/// `GDBusConnection`, `GSettings` and `GCancellable` say yes; GTK widgets say
/// no, which is why GtkBridge's `GObjectRef`, built on this type, is not
/// `Sendable` and is held by `@MainActor` owners.
public final class OwnedReference<Pointer: ReferencePointer>: @unchecked Sendable {
    /// The referenced instance: valid for as long as this value lives.
    public let pointer: Pointer
    private let counting: ReferenceCounting

    /// Adopts the caller's reference, sinking it first if it is floating.
    /// - Parameters:
    ///   - pointer: a freshly created or transferred-full instance.
    ///   - counting: its kind (GObject unless said otherwise).
    ///   - sinkingFloating: false for a full reference to an object that
    ///     may be floating because somebody else has yet to sink it (what
    ///     `g_weak_ref_get` returns): it is adopted and left floating.
    public init(taking pointer: Pointer, counting: ReferenceCounting = .gObject, sinkingFloating: Bool = true) {
        self.pointer = pointer
        self.counting = counting
        if sinkingFloating { counting.sinkFloating(pointer.objectAddress) }
    }

    /// Adds a reference of its own to an instance somebody else owns.
    /// - Parameters:
    ///   - pointer: an instance the caller may use now (a signal's argument,
    ///     a "transfer none" return).
    ///   - counting: its kind (GObject unless said otherwise).
    public init(borrowing pointer: Pointer, counting: ReferenceCounting = .gObject) {
        self.pointer = pointer
        self.counting = counting
        counting.retain(pointer.objectAddress)
    }

    /// Adopts `pointer`'s reference when there is one (a constructor that
    /// may fail); nil for nil.
    public convenience init?(taking pointer: Pointer?, counting: ReferenceCounting = .gObject) {
        guard let pointer else { return nil }
        self.init(taking: pointer, counting: counting)
    }

    /// The instance with one more reference, for a C function that takes
    /// over the reference it is given ("transfer full" parameters).
    public func newReference() -> Pointer {
        counting.retain(pointer.objectAddress)
        return pointer
    }

    /// Whether this is a reference to `other`.
    public func refers(to other: some ReferencePointer) -> Bool {
        pointer.objectAddress == other.objectAddress
    }

    deinit {
        counting.release(pointer.objectAddress)
    }
}
