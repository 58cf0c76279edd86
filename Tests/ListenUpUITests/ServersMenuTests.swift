import CAdwaita
import Foundation
import GtkBridge
import XCTest
@testable import ListenUpCore
@testable import ListenUpUI

/// The primary menu's saved servers: one radio item each, the active one
/// checked; choosing another switches; Remove Server… asks first (Cancel
/// the default, Remove destructive) and only Remove removes.
final class ServersMenuTests: XCTestCase {
    func testTheMenuListsTheServersSwitchesAndAsksBeforeRemoving() throws {
        let a = try XCTUnwrap(URL(string: "http://10.0.0.2:8080")), b = try XCTUnwrap(URL(string: "https://books.example"))
        func stored(_ url: URL, _ user: String, _ name: String) -> StoredSession {
            StoredSession(serverURL: url, accessToken: "a", refreshToken: "r", sessionID: "s-\(user)", userID: user, displayName: name,
                          email: "\(user)@example.com", accessExpiresAt: .distantFuture)
        }
        var settings = AppSettings(serverURL: a.absoluteString)
        settings.servers = [SavedServer(url: a, userID: "u1"), SavedServer(url: b, generation: .krpc, userID: "u2", userDisplayName: "Bea Babbage")]
        let sessions = SessionStore.inMemory([stored(a, "u1", "Ada Lovelace"), stored(b, "u2", "Bea Babbage")])
        MainActor.assumeIsolated {
            guard requireGtk() else { return }
            let navigator = AppNavigator(registry: .standard, dependencies: .test(settings: settings, sessions: sessions))
            navigator.start()
            XCTAssertTrue(MainContext.iterate(until: { navigator.authState.session?.serverURL == a }), navigator.authState.name)
            withApplication("ServersMenuTest") { app in
                let main = MainWindow(application: app, navigator: navigator, pages: .standard, logger: quietLogger)
                defer {
                    gtk_window_destroy(main.window.cast(to: GtkWindow.self))
                    MainContext.drainPending()
                }
                guard let menu = main.serversMenu else { return XCTFail("no servers menu") }
                XCTAssertTrue(MainContext.iterate(until: { menu.items.count == 2 }))
                XCTAssertEqual(menu.items.map(\.label), ["Ada Lovelace on 10.0.0.2:8080", "Bea Babbage on books.example"])
                XCTAssertEqual(menu.checkedID, a.absoluteString)
                XCTAssertTrue(menu.canRemove)

                // Choosing B switches, and B is checked.
                gtk_widget_activate_action_variant(main.window, ServersMenu.Action.switchServer.detailedName, g_variant_new_string(b.absoluteString))
                XCTAssertTrue(MainContext.iterate(until: { navigator.authState.session?.serverURL == b && menu.checkedID == b.absoluteString }),
                              "\(navigator.authState.name) \(menu.checkedID)")

                // Remove Server… asks about B; Cancel keeps it.
                gtk_widget_activate_action_variant(main.window, ServersMenu.Action.removeServer.detailedName, nil)
                guard let shown = menu.dialog else { return XCTFail("nothing asked") }
                XCTAssertEqual(shown.heading, "Remove This Server?")
                XCTAssertTrue(shown.body.contains("Bea Babbage") && shown.body.contains("books.example") && shown.body.contains("downloads"), shown.body)
                XCTAssertEqual(shown.responseLabel("remove"), "Remove")
                XCTAssertEqual(shown.responseAppearance("remove"), ADW_RESPONSE_DESTRUCTIVE)
                XCTAssertEqual(shown.defaultResponse, "cancel")
                XCTAssertEqual(shown.closeResponse, "cancel")
                shown.respond("cancel")
                MainContext.drainPending()
                XCTAssertNil(menu.dialog)
                XCTAssertEqual(navigator.savedServers.count, 2)

                // Remove: B goes, A is active again.
                menu.askToRemoveActive()
                menu.dialog?.respond("remove")
                XCTAssertTrue(MainContext.iterate(until: { menu.items.count == 1 && navigator.authState.session?.serverURL == a }),
                              "\(navigator.authState.name) \(menu.items)")
                XCTAssertEqual(menu.checkedID, a.absoluteString)
                XCTAssertEqual(navigator.savedServers.map(\.id), [a.absoluteString])
            }
        }
    }
}
