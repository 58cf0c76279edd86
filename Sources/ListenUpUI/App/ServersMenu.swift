import CAdwaita
import Foundation
import GtkBridge
import ListenUpCore

/// The primary menu's servers: one radio item per saved (server, account)
/// pair, the active one checked (`win.switch-server`, a stateful action
/// whose state is the active pair's id), *Add Server…* and *Remove
/// Server…* (the active pair, after "Remove This Server?",
/// `data/ui/remove-server.ui`). Follows the navigator's saved servers.
@MainActor
final class ServersMenu {
    /// The window's actions this menu installs.
    enum Action: String, ActionName {
        case switchServer = "switch-server"
        case addServer = "add-server"
        case removeServer = "remove-server"

        static let scope = "win"
    }

    private let navigator: AppNavigator
    private let section: OpaquePointer?
    private let parent: Window
    private let switchAction: GObjectRef<OpaquePointer>
    private let addAction: GObjectRef<OpaquePointer>
    private let removeAction: GObjectRef<OpaquePointer>
    private var connections: [SignalConnection] = []
    private var observation: StateObservation?
    /// The items on show (label and id), to rebuild the section only on change.
    private(set) var items: [(label: String, id: String)] = []
    /// "Remove This Server?", while open.
    private(set) var dialog: MessageDialog?
    private var dialogConnection: SignalConnection?
    /// The pair the open dialog asks about.
    private var removing: String?

    /// - Parameters:
    ///   - actionMap: the window (its `win.*` actions).
    ///   - section: the primary menu's `servers-section` (a `GMenu`).
    init(navigator: AppNavigator, actionMap: OpaquePointer, section: OpaquePointer?, parent: Window) {
        self.navigator = navigator
        self.section = section
        self.parent = parent
        let type = g_variant_type_new("s")
        switchAction = GObjectRef(taking: g_simple_action_new_stateful(Action.switchServer.rawValue, type, g_variant_new_string("")))
        g_variant_type_free(type)
        addAction = GObjectRef(taking: g_simple_action_new(Action.addServer.rawValue, nil))
        removeAction = GObjectRef(taking: g_simple_action_new(Action.removeServer.rawValue, nil))
        for action in [switchAction, addAction, removeAction] { g_action_map_add_action(actionMap, action.pointer) }
        connections.append(switchAction.pointer.connect(.actionActivateString) { [weak navigator] id in
            navigator?.switchServer(id: id)
        })
        connections.append(addAction.pointer.connect(.actionActivate) { [weak navigator] in navigator?.addServer() })
        connections.append(removeAction.pointer.connect(.actionActivate) { [weak self] in self?.askToRemoveActive() })
        observation = StateObservation { [weak self] in self?.follow() }
    }

    /// The item's label: the account's name and the server's address.
    static func label(_ server: SavedServer) -> String {
        let address = address(of: server)
        guard let user = server.userDisplayName, !user.isEmpty else { return address }
        // TRANSLATORS: a saved server in the primary menu; the first %@ is the account's name, the second the server's address.
        return tr("%@ on %@", user, address)
    }

    /// The server's host, with its port when it has one.
    static func address(of server: SavedServer) -> String {
        server.url.host.map { host in server.url.port.map { "\(host):\($0)" } ?? host } ?? server.id
    }

    private func follow() {
        let servers = navigator.savedServers
        let active = navigator.activeServerID
        let wanted = servers.map { (label: Self.label($0), id: $0.id) }
        if let section, wanted.map(\.label) != items.map(\.label) || wanted.map(\.id) != items.map(\.id) {
            g_menu_remove_all(section)
            for item in wanted {
                let menuItem = GObjectRef(taking: g_menu_item_new(item.label, nil))
                g_menu_item_set_action_and_target_value(menuItem.pointer, Action.switchServer.detailedName, g_variant_new_string(item.id))
                g_menu_append_item(section, menuItem.pointer)
            }
            items = wanted
        }
        g_simple_action_set_state(switchAction.pointer, g_variant_new_string(active ?? ""))
        g_simple_action_set_enabled(removeAction.pointer, active == nil ? 0 : 1)
    }

    /// The active server's id (the switch action's state).
    var checkedID: String {
        guard let state = g_action_get_state(switchAction.pointer) else { return "" }
        defer { g_variant_unref(state) }
        return g_variant_get_string(state, nil).map { String(cString: $0) } ?? ""
    }

    /// Whether *Remove Server…* can be chosen.
    var canRemove: Bool { g_action_get_enabled(removeAction.pointer) != 0 }

    /// *Remove Server…*: asks first, saying what is deleted.
    func askToRemoveActive() {
        guard dialog == nil, let id = navigator.activeServerID, let server = navigator.savedServers.first(where: { $0.id == id }) else { return }
        removing = id
        let made: MessageDialog = PageTemplates.load("remove-server").child("root")
        let address = Self.address(of: server)
        if let user = server.userDisplayName, !user.isEmpty {
            // TRANSLATORS: the body of “Remove This Server?”; the first %@ is the account's name, the second the server's address.
            made.body = tr("%@ is signed out of %@ on this device, and what is kept here for the account is deleted: its downloads, its saved library and its listening history. The account stays on the server.", user, address)
        } else {
            // TRANSLATORS: the body of “Remove This Server?” before anyone signed in; %@ is the server's address.
            made.body = tr("%@ is taken off this device's list of servers.", address)
        }
        made.window.setTransientFor(parent)
        dialog = made
        dialogConnection = made.connect(.response) { [weak self] response in self?.respond(response) }
        made.window.present()
    }

    /// The dialog's answer: `remove` removes the pair.
    func respond(_ response: String) {
        let id = removing
        dialogConnection?.disconnect()
        (dialogConnection, dialog, removing) = (nil, nil, nil)
        guard response == "remove", let id else { return }
        let navigator = navigator
        Task { await navigator.removeServer(id: id) }
    }

    func stop() {
        observation?.cancel()
        for connection in connections { connection.disconnect() }
        connections.removeAll()
    }
}
