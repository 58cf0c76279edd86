import CAdwaita
import GtkBridge

/// The name of an application or window action, typed: each scope is an
/// enum whose cases are its actions, so a menu item, a button and an
/// accelerator name the action by its case and never spell `"win.…"`.
protocol ActionName: RawRepresentable<String>, CaseIterable, Hashable {
    /// The action group's prefix in a detailed name (`app`, `win`).
    static var scope: String { get }
}

extension ActionName {
    /// `scope.name`, as menus, `GtkActionable` and accelerators want it.
    var detailedName: String { "\(Self.scope).\(rawValue)" }
}

/// The window's actions (`win.*`), installed by ``MainWindow``.
enum WindowAction: String, ActionName {
    /// Opens "Pair a Device" (the primary menu, and the links on Sign in
    /// and Server setup).
    case pairDevice = "pair-device"
    /// Signs out (the primary menu, while signed in on the library).
    case signOut = "sign-out"
    case closePlayer = "close-player"

    static let scope = "win"
}

/// The application's actions (`app.*`), installed by ``ListenUpApplication``.
enum AppAction: String, ActionName {
    /// Saves the window state and quits (Ctrl+Q).
    case quit
    /// Opens the preferences (Ctrl+,).
    case preferences
    /// Opens the keyboard shortcuts window (F1, Ctrl+?).
    case shortcuts
    /// Opens the About window.
    case about

    static let scope = "app"
}

/// Actions GTK itself installs on every window (`window.*`).
enum GtkWindowAction: String, ActionName {
    /// Closes the window (`GtkWindow`'s own `window.close`).
    case close

    static let scope = "window"
}

/// The `GSimpleAction`s of one ``ActionName`` type on an action map (the
/// application for `app.*`, a window for `win.*`), all installed at once.
@MainActor
struct InstalledActions<Name: ActionName> {
    private let actions: [Name: OpaquePointer]

    /// Adds one `GSimpleAction` per case of `Name` to `map` (which holds
    /// them). `handler` runs with the activated case as long as the
    /// connections it appends to `connections` live.
    init(on map: OpaquePointer, connections: inout [SignalConnection], _ handler: @escaping @MainActor (Name) -> Void) {
        var actions: [Name: OpaquePointer] = [:]
        for name in Name.allCases {
            let action = GObjectRef<OpaquePointer>(taking: g_simple_action_new(name.rawValue, nil))
            g_action_map_add_action(map, action.pointer)
            connections.append(action.pointer.connect(.actionActivate) { handler(name) })
            actions[name] = action.pointer
        }
        self.actions = actions
    }

    /// The `GSimpleAction` of `name` (nil only if it was never installed).
    subscript(_ name: Name) -> OpaquePointer? { actions[name] }

    /// Enables or disables `name` (menu items and buttons follow).
    func setEnabled(_ name: Name, _ enabled: Bool) {
        guard let action = actions[name] else { return }
        g_simple_action_set_enabled(action, enabled ? 1 : 0)
    }

    /// Whether `name` is enabled.
    func isEnabled(_ name: Name) -> Bool {
        guard let action = actions[name] else { return false }
        return g_action_get_enabled(action) != 0
    }
}
