import CAdwaita
import GtkBridge
import XCTest
@testable import ListenUpUI

/// Typed actions: every case is installed under its name, activating one
/// runs the handler with that case, and detailed names carry their scope.
final class ActionsTests: XCTestCase {
    func testDetailedNamesCarryTheirScope() {
        XCTAssertEqual(WindowAction.pairDevice.detailedName, "win.pair-device")
        XCTAssertEqual(WindowAction.signOut.detailedName, "win.sign-out")
        XCTAssertEqual(AppAction.preferences.detailedName, "app.preferences")
        XCTAssertEqual(GtkWindowAction.close.detailedName, "window.close")
    }

    func testEveryCaseIsInstalledAndActivatesItsOwnHandler() {
        MainActor.assumeIsolated {
            guard requireGtk() else { return }
            let group = GObjectRef(taking: OpaquePointer(newObject(g_simple_action_group_new())))
            var connections: [SignalConnection] = []
            var activated: [WindowAction] = []
            let actions = InstalledActions<WindowAction>(on: group.pointer, connections: &connections) { activated.append($0) }
            for action in WindowAction.allCases {
                XCTAssertNotNil(g_action_map_lookup_action(group.pointer, action.rawValue), action.rawValue)
                g_action_group_activate_action(group.pointer, action.rawValue, nil)
            }
            XCTAssertEqual(activated, WindowAction.allCases)
            actions.setEnabled(.signOut, false)
            XCTAssertFalse(actions.isEnabled(.signOut))
            XCTAssertTrue(actions.isEnabled(.pairDevice))
            connections.removeAll()
            g_action_group_activate_action(group.pointer, WindowAction.pairDevice.rawValue, nil)
            XCTAssertEqual(activated.count, WindowAction.allCases.count, "dropped connections run nothing")
        }
    }
}
