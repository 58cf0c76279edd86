import CAdwaita
import GtkBridge

/// `GSimpleAction`s with a Swift handler, added to an action map (the
/// application for `app.*`, a window for `win.*`).
@MainActor
enum Actions {
    /// Adds the action `name` to `map` and returns it (the map holds it).
    /// The handler runs on activation as long as the returned connection
    /// lives in `connections`.
    @discardableResult
    static func add(_ name: String, to map: OpaquePointer, connections: inout [SignalConnection],
                    _ handler: @escaping @MainActor () -> Void) -> OpaquePointer {
        let action: OpaquePointer = g_simple_action_new(name, nil)
        g_action_map_add_action(map, action)
        g_object_unref(UnsafeMutableRawPointer(action))
        connections.append(UnsafeMutableRawPointer(action).connect(.activate, trampoline: actionActivateTrampoline, body: handler))
        return action
    }
}

/// `activate (GSimpleAction *action, GVariant *parameter, gpointer data)`.
private let actionActivateTrampoline: GCallback = unsafeBitCast(
    { (_: UnsafeMutableRawPointer?, _: UnsafeMutableRawPointer?, data: UnsafeMutableRawPointer?) in
        guard let data else { return }
        let body = signalHandlerBody(data, as: (@MainActor () -> Void).self)
        MainActor.assumeIsolated { body() }
    } as @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> Void,
    to: GCallback.self
)
