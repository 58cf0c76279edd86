import CAdwaita
import Foundation
import GtkBridge
import ListenUpAPI
import ListenUpTestSupport
import XCTest
@testable import ListenUpCore
@testable import ListenUpUI

/// The window and jumps: a seek is said in a *Jumped to …* toast whose Undo
/// goes back; Ctrl+Z undoes too; the player's keys (↑/↓ volume, +/− speed,
/// M mute) work, and arrows stay the book grid's while it has the focus.
final class MainWindowJumpTests: XCTestCase {
    /// Runs `steps` every 20 ms in a real window over a signed-in session
    /// whose last book (10 min, left at 0:30) is offered paused; each step
    /// returns whether it is done.
    @MainActor
    private static func run(_ steps: [@MainActor (MainWindow, PlayerModel) -> Bool], file: StaticString = #filePath, line: UInt = #line) throws {
        let server = try XCTUnwrap(URL(string: "http://127.0.0.1:9"))
        let stored = StoredSession(serverURL: server, accessToken: "a", refreshToken: "r", sessionID: "session-1", userID: "user-1",
                                   displayName: "Ada L", email: "ada@example.com", accessExpiresAt: .distantFuture)
        let library = InMemoryLibraryStore()
        var book = try ScriptedServer.book(id: "book-1", title: "The Last Book")
        book.audioFiles = [
            ServerBook.AudioFile(id: "af-1", format: "wav", codec: nil, size: 1, duration: 600_000, bitrate: nil),
        ]
        try library.apply([book], deleting: [], state: LibrarySyncState())
        let listening = InMemoryListeningStore()
        try listening.saveContinueListening([
            ContinueListeningItem(bookID: "book-1", title: "The Last Book", author: nil, position: 30_000, duration: 600_000,
                                  progress: 0.05, lastPlayedAt: Date()),
        ])
        do {
            guard requireGtk() else { return }
            MainContext.installDispatchBridge()
            var dependencies = Dependencies.test(settings: AppSettings(serverURL: server.absoluteString), sessions: .inMemory([stored]))
            dependencies.openLibrary = { _, _ in library }
            dependencies.openListening = { _, _ in listening }
            let navigator = AppNavigator(registry: .standard, dependencies: dependencies)
            let app = newObject(adw_application_new("io.github.listenup.Desktop.JumpWindowTest", G_APPLICATION_NON_UNIQUE))
            var step = 0
            var timedOut = false
            var lastToast: String?
            let activation = app.connect(.activate) {
                let window = MainWindow(application: app, navigator: navigator, pages: .standard, logger: quietLogger)
                window.present()
                navigator.start()
                MainContext.every(.milliseconds(20)) {
                    guard let player = navigator.player, window.nowPlaying?.isShown == true, window.isOnScreen else { return true }
                    guard step < steps.count else {
                        gtk_window_destroy(window.window.cast(to: GtkWindow.self))
                        return false
                    }
                    lastToast = window.lastToast
                    if steps[step](window, player) { step += 1 }
                    return true
                }
            }
            let watchdog = MainContext.timeout(after: .seconds(15)) {
                timedOut = true
                g_application_quit(app.cast(to: GApplication.self))
            }
            var argv: [UnsafeMutablePointer<CChar>?] = [strdup("test"), nil]
            _ = g_application_run(app.cast(to: GApplication.self), 1, &argv)
            activation.disconnect()
            free(argv[0])
            watchdog.cancel()
            g_object_unref(app)
            XCTAssertFalse(timedOut, "stopped at step \(step); last toast: \(lastToast ?? "none")", file: file, line: line)
        }
    }

    func testAJumpsToastUndoesItAndSoDoesControlZ() throws {
        try MainActor.assumeIsolated { try Self.jumpsToastAndControlZ() }
    }

    @MainActor
    private static func jumpsToastAndControlZ() throws {
        var seen: [String] = []
        try run([
            { window, player in
                // Out of the library's search field, which keeps its keys.
                window.nowPlaying?.playButton.grabFocus()
                seen.append("offered at \(player.position)")
                player.send(.seek(400_000))
                return true
            },
            { window, player in
                // (The library may have said it cannot reach the server:
                // the jump's toast comes first all the same.)
                guard let toast = window.jumpToast?.title else { return false }
                seen.append("toast: \(toast); recent: \(player.recentPositions.map(\.position))")
                guard let undo = Self.button(labelled: "Undo", in: window.window) else { return false }
                emit("clicked", on: undo)
                return true
            },
            { window, player in
                guard player.position == 30_000 else { return false }
                seen.append("undone to \(player.position); recent: \(player.recentPositions.map(\.position)); toast \(window.jumpToast == nil ? "gone" : "still there")")
                player.send(.seek(250_000))
                return true
            },
            { window, player in
                guard window.jumpToast?.title == "Jumped to 4:10" else { return false }
                // In the library's search field Ctrl+Z is the field's.
                guard let text = window.window.firstDescendant(ofType: gtk_text_get_type()), gtk_widget_grab_focus(text) != 0 else { return false }
                seen.append("Ctrl+Z in a text field: \(Self.press("<Control>z", in: window) ?? true), at \(player.position)")
                window.nowPlaying?.playButton.grabFocus()
                seen.append("Ctrl+Z: \(Self.press("<Control>z", in: window) ?? false)")
                return true
            },
            { window, player in
                seen.append("undone to \(player.position); toast \(window.jumpToast == nil ? "gone" : "still there")")
                seen.append("Ctrl+Z again: \(Self.press("<Control>z", in: window) ?? false)")
                return true
            },
        ])
        XCTAssertEqual(seen, [
            "offered at 30000",
            "toast: Jumped to 6:40; recent: [30000]",
            "undone to 30000; recent: []; toast gone",
            "Ctrl+Z in a text field: false, at 250000",
            "Ctrl+Z: true",
            "undone to 30000; toast gone",
            "Ctrl+Z again: false",
        ])
    }

    func testThePlayersKeys() throws {
        try MainActor.assumeIsolated { try Self.playersKeys() }
    }

    @MainActor
    private static func playersKeys() throws {
        var seen: [String] = []
        try run([
            { window, player in
                window.nowPlaying?.playButton.grabFocus()
                player.send(.volume(0.5))
                _ = Self.press("Up", in: window)
                seen.append("Up: \(player.volume)")
                _ = Self.press("Down", in: window)
                _ = Self.press("Down", in: window)
                seen.append("Down twice: \(player.volume)")
                _ = Self.press("m", in: window)
                seen.append("M: \(player.volume)")
                _ = Self.press("m", in: window)
                seen.append("M again: \(player.volume)")
                for key in ["plus", "equal", "KP_Add"] { _ = Self.press(key, in: window) }
                seen.append("faster thrice: \(player.rate)")
                for key in ["minus", "KP_Subtract"] { _ = Self.press(key, in: window) }
                seen.append("slower twice: \(player.rate)")
                _ = Self.press("Right", in: window)
                seen.append("Right: \(player.position)")
                return true
            },
            { window, player in
                // The book grid has the focus: its arrows are its own.
                guard let grid = Widget(unchecked: window.window).firstDescendant(ofType: gtk_grid_view_get_type()), gtk_widget_grab_focus(grid) != 0 else {
                    return false
                }
                seen.append("grid focused: Up \(Self.press("Up", in: window) ?? true), Right \(Self.press("Right", in: window) ?? true), "
                    + "M \(Self.press("m", in: window) ?? false)")
                seen.append("volume \(player.volume), at \(player.position)")
                return true
            },
        ])
        XCTAssertEqual(seen, [
            "Up: 0.55", "Down twice: 0.45", "M: 0.0", "M again: 0.45",
            "faster thrice: 1.15", "slower twice: 1.05", "Right: 60000",
            "grid focused: Up false, Right false, M true",
            "volume 0.0, at 60000",
        ])
    }

    /// A button labelled `label` anywhere under `root` (the toast's).
    @MainActor
    static func button(labelled label: String, in root: UnsafeMutablePointer<GtkWidget>) -> UnsafeMutablePointer<GtkWidget>? {
        var child = gtk_widget_get_first_child(root)
        while let current = child {
            if g_type_check_instance_is_a(UnsafeMutableRawPointer(current).assumingMemoryBound(to: GTypeInstance.self), gtk_button_get_type()) != 0,
               let text = gtk_button_get_label(current.cast(to: GtkButton.self)), String(cString: text) == label {
                return current
            }
            if let found = button(labelled: label, in: current) { return found }
            child = gtk_widget_get_next_sibling(current)
        }
        return nil
    }

    /// Runs the window's shortcut for `trigger` as GTK does for the key
    /// press. - Returns: whether it took the key (nil: no such shortcut).
    @MainActor
    static func press(_ trigger: String, in window: MainWindow) -> Bool? {
        guard let wanted = gtk_shortcut_trigger_parse_string(trigger) else { return nil }
        defer { g_object_unref(UnsafeMutableRawPointer(wanted)) }
        let controllers = gtk_widget_observe_controllers(window.window)
        defer { g_object_unref(UnsafeMutableRawPointer(controllers)) }
        for index in 0..<g_list_model_get_n_items(controllers) {
            guard let controller = g_list_model_get_item(controllers, index) else { continue }
            defer { g_object_unref(controller) }
            guard g_type_check_instance_is_a(controller.assumingMemoryBound(to: GTypeInstance.self), gtk_shortcut_controller_get_type()) != 0 else { continue }
            let shortcuts = OpaquePointer(controller)
            for item in 0..<g_list_model_get_n_items(shortcuts) {
                guard let shortcut = g_list_model_get_item(shortcuts, item) else { continue }
                defer { g_object_unref(shortcut) }
                let typed = OpaquePointer(shortcut)
                guard let trigger = gtk_shortcut_get_trigger(typed), gtk_shortcut_trigger_equal(UnsafeRawPointer(trigger), UnsafeRawPointer(wanted)) != 0,
                      let action = gtk_shortcut_get_action(typed) else { continue }
                return gtk_shortcut_action_activate(action, GTK_SHORTCUT_ACTION_EXCLUSIVE, window.window, nil) != 0
            }
        }
        return nil
    }
}
