import CAdwaita
import Foundation
import GtkBridge
import XCTest
@testable import ListenUpCore
@testable import ListenUpUI

/// An invite link opened while signed in: the window asks before signing
/// out (Cancel is the default), and only Sign Out leads to the invite.
final class InviteSignOutDialogTests: XCTestCase {
    static let link = "listenup://join/Zm9vYmFyYmF6cXV4cXV1eA"

    func testTheDialogAsksAndOnlySignOutLeadsToTheInvite() throws {
        let serverURL = try XCTUnwrap(URL(string: "https://books.example"))
        MainActor.assumeIsolated {
            guard requireGtk() else { return }
            let navigator = AppNavigator(registry: .standard, dependencies: .test())
            // A session whose connection never reaches a network.
            let connection = Dependencies.test().connect(to: KnownServer(url: serverURL))
            navigator.update(.authenticated(Session(serverURL: serverURL, userID: "u-1", displayName: "Ada Lovelace", connection: connection)))
            withApplication("InviteSignOutDialogTest") { app in
                let main = MainWindow(application: app, navigator: navigator, pages: .standard, logger: quietLogger)
                defer {
                    gtk_window_destroy(main.window.cast(to: GtkWindow.self))
                    MainContext.drainPending()
                }
                let dialog = InviteSignOutDialog(navigator: navigator)
                guard case .signedIn(let server, let account) = navigator.openInvite(link: Self.link) else {
                    return XCTFail("signed in, the link waits")
                }
                dialog.ask(Self.link, server: server, account: account, over: main.window)
                guard let shown = dialog.dialog else { return XCTFail("nothing asked") }
                XCTAssertEqual(shown.heading, "Sign Out to Use This Invite?")
                XCTAssertEqual(shown.body, "You are signed in to books.example as Ada Lovelace. An invite creates a new account: sign out first to use it.")
                XCTAssertEqual(shown.responseLabel("sign-out"), "Sign Out")
                XCTAssertEqual(shown.responseAppearance("sign-out"), ADW_RESPONSE_SUGGESTED)
                XCTAssertEqual(shown.defaultResponse, "cancel")
                XCTAssertEqual(shown.closeResponse, "cancel")

                // Cancel keeps the session.
                shown.respond("cancel")
                MainContext.drainPending()
                XCTAssertNil(dialog.dialog)
                XCTAssertEqual(navigator.activeRoute, .library)

                // Sign Out: the session ends, then the invite page opens with the link.
                dialog.ask(Self.link, server: server, account: account, over: main.window)
                dialog.dialog?.respond("sign-out")
                XCTAssertTrue(MainContext.iterate(until: { navigator.activeRoute == .invite }), "\(navigator.authState.name)")
                guard case .acceptingInvite(let start) = navigator.authState else { return XCTFail("no invite") }
                XCTAssertEqual(start.link, Self.link)
            }
        }
    }
}
