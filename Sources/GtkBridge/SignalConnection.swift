import CAdwaita

/// A signal handler installed on a GObject, and the token that removes it.
///
/// The Swift closure travels to GLib as retained user data; GLib calls the
/// destroy notify when the handler is disconnected *or* the object is finalised,
/// and that notify releases the closure. So a handler never outlives its object,
/// and disconnecting twice, or after the object died, is harmless.
///
/// Handlers owned by the widget that emits the signal must capture that widget
/// (and its owners) `weak`, or the closure keeps its own owner alive.
@MainActor
public final class SignalConnection {
    private let instance: GWeakObject
    private let handlerID: gulong

    fileprivate init(instance: some GPointer, handlerID: gulong) {
        self.instance = GWeakObject(instance)
        self.handlerID = handlerID
    }

    /// Whether the handler is still installed on a live object.
    public var isConnected: Bool {
        guard let object = instance.strongReference() else { return false }
        defer { g_object_unref(object) }
        return g_signal_handler_is_connected(object, handlerID) != 0
    }

    /// Removes the handler (its closure is released by GLib right away).
    /// Does nothing if already disconnected or if the object is gone.
    public func disconnect() {
        guard let object = instance.strongReference() else { return }
        defer { g_object_unref(object) }
        if g_signal_handler_is_connected(object, handlerID) != 0 {
            g_signal_handler_disconnect(object, handlerID)
        }
    }
}

/// The name of a GObject signal. Typed names for the ones the app uses, with
/// `.custom` and `.notify` escape hatches.
public struct SignalName: Hashable, Sendable, ExpressibleByStringLiteral {
    /// The detailed signal string GLib sees (`"clicked"`, `"notify::dark"`).
    public let rawValue: String
    public init(_ rawValue: String) { self.rawValue = rawValue }
    public init(stringLiteral value: String) { self.rawValue = value }

    public static let clicked: SignalName = "clicked"
    public static let changed: SignalName = "changed"
    public static let activate: SignalName = "activate"
    public static let destroy: SignalName = "destroy"
    public static let map: SignalName = "map"
    public static let closeRequest: SignalName = "close-request"
    public static let shutdown: SignalName = "shutdown"
    /// `notify::<property>`: a property changed.
    public static func notify(_ property: String) -> SignalName { SignalName("notify::\(property)") }
    /// Any other signal, spelled as GLib spells it.
    public static func custom(_ name: String) -> SignalName { SignalName(name) }
}

/// Boxes a Swift closure so it can travel through a C `gpointer`.
///
/// `@unchecked Sendable`: the box is immutable, and its body is only called
/// from GLib callbacks on the GTK (main) thread, inside `assumeIsolated`.
final class ClosureBox<Body>: @unchecked Sendable {
    let body: Body
    init(_ body: Body) { self.body = body }
}

/// Releases a closure box when GLib drops the handler.
private let releaseBox: GClosureNotify = { data, _ in
    guard let data else { return }
    Unmanaged<AnyObject>.fromOpaque(data).release()
}

extension GPointer {
    /// Connects a handler for a signal whose C signature is
    /// `void (*)(GObject *instance, gpointer user_data)`: `clicked`, `changed`,
    /// `activate`, `destroy`, `map`, `shutdown`, …
    ///
    /// Call on the GTK thread; the handler runs there.
    /// - Returns: the token that disconnects the handler.
    @MainActor @discardableResult
    public func connect(_ signal: SignalName, _ handler: @escaping @MainActor () -> Void) -> SignalConnection {
        let trampoline: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> Void = { _, data in
            guard let data else { return }
            let box = Unmanaged<ClosureBox<@MainActor () -> Void>>.fromOpaque(data).takeUnretainedValue()
            MainActor.assumeIsolated { box.body() }
        }
        return install(signal, unsafeBitCast(trampoline, to: GCallback.self), ClosureBox(handler))
    }

    /// Connects a `notify::<property>` handler (C signature
    /// `void (*)(GObject *, GParamSpec *, gpointer)`).
    @MainActor @discardableResult
    public func connectNotify(_ property: String, _ handler: @escaping @MainActor () -> Void) -> SignalConnection {
        let trampoline: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> Void = { _, _, data in
            guard let data else { return }
            let box = Unmanaged<ClosureBox<@MainActor () -> Void>>.fromOpaque(data).takeUnretainedValue()
            MainActor.assumeIsolated { box.body() }
        }
        return install(.notify(property), unsafeBitCast(trampoline, to: GCallback.self), ClosureBox(handler))
    }

    /// Connects a handler for a signal whose C signature is
    /// `gboolean (*)(GObject *, gpointer)`, such as `close-request`.
    /// The handler's result is the signal's (true stops other handlers).
    @MainActor @discardableResult
    public func connectReturningBool(_ signal: SignalName, _ handler: @escaping @MainActor () -> Bool) -> SignalConnection {
        let trampoline: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> gboolean = { _, data in
            guard let data else { return 0 }
            let box = Unmanaged<ClosureBox<@MainActor () -> Bool>>.fromOpaque(data).takeUnretainedValue()
            return MainActor.assumeIsolated { box.body() } ? 1 : 0
        }
        return install(signal, unsafeBitCast(trampoline, to: GCallback.self), ClosureBox(handler))
    }

    /// Connects a handler whose C trampoline the caller supplies, for signals
    /// with other signatures. `box` is retained until the handler goes away; the
    /// trampoline receives it as its last argument.
    ///
    /// The trampoline's signature must match the signal's exactly.
    @MainActor
    public func connect<Body>(_ signal: SignalName, trampoline: GCallback, body: Body) -> SignalConnection {
        install(signal, trampoline, ClosureBox(body))
    }

    @MainActor
    private func install<Body>(_ signal: SignalName, _ callback: GCallback, _ box: ClosureBox<Body>) -> SignalConnection {
        let data = Unmanaged.passRetained(box as AnyObject).toOpaque()
        let id = g_signal_connect_data(rawPointer, signal.rawValue, callback, data, releaseBox, GConnectFlags(rawValue: 0))
        return SignalConnection(instance: self, handlerID: id)
    }
}

/// Reads the closure a custom trampoline was given by `connect(_:trampoline:body:)`.
/// - Parameter data: the trampoline's `user_data` argument.
public func signalHandlerBody<Body>(_ data: UnsafeMutableRawPointer, as type: Body.Type = Body.self) -> Body {
    Unmanaged<ClosureBox<Body>>.fromOpaque(data).takeUnretainedValue().body
}
