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
            MainContext.installDispatchBridge()
            let navigator = AppNavigator(registry: .standard, dependencies: .test())
            let app = newObject(adw_application_new("io.github.listenup.Desktop.WindowTest", G_APPLICATION_NON_UNIQUE))
            let recorder = PageRecorder()
            var timedOut = false
            app.connect(.activate) {
                let window = MainWindow(application: app, navigator: navigator, pages: .standard, logger: quietLogger)
                window.present()
                MainContext.idle {
                    recorder.record(window)
                    navigator.start()
                    // The window hears of the change one main-queue hop later.
                    Task { @MainActor in
                        recorder.record(window)
                        gtk_window_destroy(window.window.cast(to: GtkWindow.self))
                    }
                }
            }
            let watchdog = MainContext.timeout(after: .seconds(5)) {
                timedOut = true
                g_application_quit(app.cast(to: GApplication.self))
            }
            var argv: [UnsafeMutablePointer<CChar>?] = [strdup("test"), nil]
            _ = g_application_run(app.cast(to: GApplication.self), 1, &argv)
            free(argv[0])
            watchdog.cancel()
            g_object_unref(app)
            XCTAssertFalse(timedOut)
            XCTAssertEqual(recorder.pages, ["LoadingPage", "ServerSetupPage"])
        }
    }
}

@MainActor
private final class PageRecorder {
    var pages: [String] = []
    func record(_ window: MainWindow) {
        pages.append(window.currentPage.map { String(describing: type(of: $0)) } ?? "none")
    }
}
