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
        let action = GObjectRef<OpaquePointer>(taking: g_simple_action_new(name, nil))
        g_action_map_add_action(map, action.pointer)
        connections.append(action.pointer.connect(.actionActivate, handler))
        return action.pointer
    }
}
