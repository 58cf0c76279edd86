import Foundation
import CAdwaita
import GtkBridge
import ListenUpCore
import XCTest
@testable import ListenUpUI

/// The window follows the navigator: each route change shows that route's page.
final class MainWindowTests: XCTestCase {
    func testWindowFollowsTheNavigator() {
        MainActor.assumeIsolated {
            guard requireGtk() else { return }
            // Fades are what this test looks at.
            GtkRuntime.setAnimationsEnabled(true)
            defer { GtkRuntime.setAnimationsEnabled(false) }
            MainContext.installDispatchBridge()
            let navigator = AppNavigator(registry: .standard, dependencies: .test())
            let app = newObject(adw_application_new("io.github.listenup.Desktop.WindowTest", G_APPLICATION_NON_UNIQUE))
            let recorder = PageRecorder()
            var timedOut = false
            var shown: MainWindow?
            let activation = app.connect(.activate) {
                let window = MainWindow(application: app, navigator: navigator, pages: .standard, logger: quietLogger)
                shown = window
                window.present()
                // Not an idle callback: with animations on, the loading
                // page's spinner draws every frame and starves idle priority.
                MainContext.timeout(after: .zero) {
                    recorder.record(window)
                    navigator.start()
                    // The window hears of the change one main-queue hop later.
                    Task { @MainActor in
                        recorder.record(window)
                        navigator.update(.needsLogin(KnownServer(url: URL(fileURLWithPath: "/"))))
                        Task { @MainActor in
                            recorder.record(window)
                            gtk_window_destroy(window.window.cast(to: GtkWindow.self))
                        }
                    }
                }
            }
            let watchdog = MainContext.timeout(after: .seconds(15)) {
                timedOut = true
                // No window left behind for the next test.
                if let shown { gtk_window_destroy(shown.window.cast(to: GtkWindow.self)) }
                g_application_quit(app.cast(to: GApplication.self))
            }
            var argv: [UnsafeMutablePointer<CChar>?] = [strdup("test"), nil]
            _ = g_application_run(app.cast(to: GApplication.self), 1, &argv)
            activation.disconnect() // the handler stays connected until here
            free(argv[0])
            watchdog.cancel()
            g_object_unref(app)
            XCTAssertFalse(timedOut)
            XCTAssertEqual(recorder.pages, ["LoadingPage", "ServerSetupPage", "LoginPage"])
            // The first screen replaces the loading page at once; later
            // screens fade in.
            XCTAssertEqual(recorder.fading, [false, false, true])
        }
    }
}

extension MainWindowTests {
    /// The primary menu shows on every screen; signed in, its Sign Out wipes the
    /// session and lands on Sign in, where Sign Out is disabled.
    func testSignOutFromThePrimaryMenu() throws {
        let server = try XCTUnwrap(URL(string: "http://127.0.0.1:9"))
        let stored = StoredSession(serverURL: server, accessToken: "a", refreshToken: "r", sessionID: "session-1", userID: "user-1",
                                   displayName: "Ada L", email: "ada@example.com", accessExpiresAt: .distantFuture)
        let sessions = SessionStore.inMemory([stored])
        MainActor.assumeIsolated {
            guard requireGtk() else { return }
            MainContext.installDispatchBridge()
            let navigator = AppNavigator(registry: .standard, dependencies: .test(
                settings: AppSettings(serverURL: server.absoluteString), sessions: sessions))
            let app = newObject(adw_application_new("io.github.listenup.Desktop.SignOutTest", G_APPLICATION_NON_UNIQUE))
            var seen: [(page: String, menu: Bool, signOut: Bool)] = []
            var timedOut = false
            var shown: MainWindow?
            let activation = app.connect(.activate) {
                let window = MainWindow(application: app, navigator: navigator, pages: .standard, logger: quietLogger)
                shown = window
                window.present()
                navigator.start()
                // Step on GLib timers (not inside a main-queue job), so the
                // navigator's own tasks run in between.
                var step = 0
                MainContext.every(.milliseconds(20)) {
                    let page = String(describing: window.currentPage.map { type(of: $0) })
                    switch step {
                    case 0 where navigator.activeRoute == .library && page.contains("LibraryPage"):
                        seen.append((page, window.menuButton.isVisible, window.actions?.isEnabled(.signOut) == true))
                        gtk_widget_activate_action_variant(window.window, WindowAction.signOut.detailedName, nil)
                        step = 1
                    case 1 where navigator.activeRoute == .login && page.contains("LoginPage"):
                        seen.append((page, window.menuButton.isVisible, window.actions?.isEnabled(.signOut) == true))
                        gtk_window_destroy(window.window.cast(to: GtkWindow.self))
                        return false
                    default:
                        break
                    }
                    return true
                }
            }
            let watchdog = MainContext.timeout(after: .seconds(10)) {
                timedOut = true
                // No window left behind for the next test.
                if let shown { gtk_window_destroy(shown.window.cast(to: GtkWindow.self)) }
                g_application_quit(app.cast(to: GApplication.self))
            }
            var argv: [UnsafeMutablePointer<CChar>?] = [strdup("test"), nil]
            _ = g_application_run(app.cast(to: GApplication.self), 1, &argv)
            activation.disconnect() // the handler stays connected until here
            free(argv[0])
            watchdog.cancel()
            g_object_unref(app)
            XCTAssertFalse(timedOut)
            XCTAssertEqual(seen.map(\.page), ["Optional(ListenUpUI.LibraryPage)", "Optional(ListenUpUI.LoginPage)"])
            XCTAssertEqual(seen.map(\.menu), [true, true])
            XCTAssertEqual(seen.map(\.signOut), [true, false])
        }
        let left = LockedValue<StoredSession?>(stored)
        let done = DispatchSemaphore(value: 0)
        Task.detached { left.value = await sessions.load(server); done.signal() }
        done.wait()
        XCTAssertNil(left.value, "Sign Out wipes the stored session")
    }
}

@MainActor
private final class PageRecorder {
    var pages: [String] = []
    var fading: [Bool] = []
    func record(_ window: MainWindow) {
        pages.append(window.currentPage.map { String(describing: type(of: $0)) } ?? "none")
        fading.append(window.isFading)
    }
}
