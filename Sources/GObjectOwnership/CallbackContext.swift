/// The user data of a C callback that reaches a Swift object: a box, retained
/// for the C side, holding the object weakly.
///
/// The box is what C code keeps: ``retained(_:)`` makes one with a +1
/// reference for the C side, and that reference is dropped by
/// ``destroyNotify`` (a `GDestroyNotify`) or by ``release(_:)`` (from a
/// `GClosureNotify`, whose second argument's type differs from one GLib
/// import to the next, so each caller writes `{ data, _ in
/// CallbackContext.release(data) }`). Where a C API takes no destroy notify
/// (Avahi), the owner calls ``release(_:)`` at the point the API documents
/// that no callback can fire any more, and says so beside the call.
///
/// The object is held weakly, so a connection never keeps its owner alive;
/// a callback that comes after the owner has gone finds nil and does nothing
/// (never a dangling pointer, as `Unmanaged.passUnretained(self)` would give).
///
/// `@unchecked Sendable`: `object` is set once, in `init`, and then only
/// read; Swift's weak references are safe to load from any thread, and
/// callbacks come on whatever thread the C library calls from.
public final class CallbackContext: @unchecked Sendable {
    private weak var object: AnyObject?

    private init(_ object: AnyObject) {
        self.object = object
    }

    /// A new box for `object`, with the reference the C side will own.
    /// - Returns: the user data to hand to C.
    public static func retained(_ object: AnyObject) -> UnsafeMutableRawPointer {
        Unmanaged.passRetained(CallbackContext(object)).toOpaque()
    }

    /// The object behind `data` (a callback's user data), if it is still
    /// alive and a `Target`; the box's count is not touched.
    public static func target<Target: AnyObject>(of data: UnsafeMutableRawPointer?, as type: Target.Type = Target.self) -> Target? {
        guard let data else { return nil }
        return Unmanaged<CallbackContext>.fromOpaque(data).takeUnretainedValue().object as? Target
    }

    /// Drops the C side's reference to the box behind `data` (made by
    /// ``retained(_:)``): once per box, when the C side is done with it.
    public static func release(_ data: UnsafeMutableRawPointer?) {
        guard let data else { return }
        Unmanaged<CallbackContext>.fromOpaque(data).release()
    }

    /// A `GDestroyNotify` that calls ``release(_:)``: pass it beside the
    /// user data wherever GLib takes one (`g_idle_add_full`,
    /// `g_dbus_connection_register_object`, `g_bus_own_name_on_connection`,
    /// `gst_bus_set_sync_handler`, …).
    public static let destroyNotify: @convention(c) (UnsafeMutableRawPointer?) -> Void = { data in
        CallbackContext.release(data)
    }
}
