import CAdwaita

/// A signal handler installed on a GObject, and the token that owns it.
///
/// The Swift closure travels to GLib as retained user data; GLib calls the
/// destroy notify when the handler is disconnected *or* the object is finalised,
/// and that notify releases the closure. So a handler never outlives its object.
///
/// The token owns the handler: it is disconnected by ``disconnect()`` or when
/// the token goes away (its `deinit`), whichever comes first. Keep the tokens
/// in the object whose lifetime the handler should share (a page's
/// `[SignalConnection]`); dropping them disconnects. Disconnecting twice, or
/// after the object died, is harmless.
///
/// Handlers owned by the widget that emits the signal must capture that widget
/// (and its owners) `weak`, or the closure keeps its own owner alive.
///
/// Threading: GTK thread only. The token's last reference must go there too
/// (its deinit is isolated to the main actor).
@MainActor
public final class SignalConnection {
    private let instance: GWeakObject
    /// The id GLib gave the handler (for `g_signal_handler_is_connected` in tests).
    public let handlerID: gulong

    fileprivate init(instance: some GPointer, handlerID: gulong) {
        self.instance = GWeakObject(instance)
        self.handlerID = handlerID
    }

    /// Disconnects the handler: a dropped token leaves nothing behind.
    isolated deinit {
        disconnect()
    }

    /// Whether the handler is still installed on a live object.
    public var isConnected: Bool {
        guard let object = instance.strongReference() else { return false }
        return g_signal_handler_is_connected(object.pointer, handlerID) != 0
    }

    /// Removes the handler (its closure is released by GLib right away).
    /// Does nothing if already disconnected or if the object is gone.
    public func disconnect() {
        guard let object = instance.strongReference() else { return }
        if g_signal_handler_is_connected(object.pointer, handlerID) != 0 {
            g_signal_handler_disconnect(object.pointer, handlerID)
        }
    }
}

/// Boxes a Swift closure so it can travel through a C `gpointer`.
///
/// `@unchecked Sendable`: the box is immutable, and its body is only called
/// from GLib callbacks on the GTK (main) thread, inside `assumeIsolated`.
final class ClosureBox<Body>: @unchecked Sendable {
    let body: Body
    init(_ body: Body) { self.body = body }
}

/// The handler a trampoline was given as user data by ``GPointer/connect(_:_:)``.
/// Only the trampolines in `Signal.swift` call this, each with the handler
/// type of its own declarations.
func boxedHandler<Body>(_ data: UnsafeMutableRawPointer, as type: Body.Type) -> Body {
    Unmanaged<ClosureBox<Body>>.fromOpaque(data).takeUnretainedValue().body
}

/// Releases a closure box when GLib drops the handler.
private let releaseBox: GClosureNotify = { data, _ in
    guard let data else { return }
    Unmanaged<AnyObject>.fromOpaque(data).release()
}

extension GPointer {
    /// Connects `handler` to `signal` on this instance. The handler's type is
    /// the one the signal declares, so the compiler checks it.
    ///
    /// Call on the GTK thread; the handler runs there. Traps if the instance
    /// has no signal of that name with the declared C signature (a
    /// programming error, like a wrong trampoline would be, but caught at the
    /// connect rather than deep inside libgobject).
    /// - Parameters:
    ///   - signal: the signal, as declared on ``Signal``.
    ///   - handler: runs on each emission while the returned token lives.
    /// - Returns: the token that owns the handler: keep it, or the handler is
    ///   disconnected at once.
    @MainActor
    public func connect<Handler>(_ signal: Signal<Handler>, _ handler: Handler) -> SignalConnection {
        precondition(signal.matches(self), "\(signal.name) is not a signal with the declared signature on this instance")
        let data = Unmanaged.passRetained(ClosureBox(handler) as AnyObject).toOpaque()
        let id = g_signal_connect_data(rawPointer, signal.name, signal.callback, data, releaseBox, GConnectFlags(rawValue: 0))
        return SignalConnection(instance: self, handlerID: id)
    }
}
