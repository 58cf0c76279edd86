import CAdwaita
import Foundation
import GtkBridge
import ListenUpAPI
import ListenUpTestSupport
import Pairing
import XCTest
@testable import ListenUpCore
@testable import ListenUpUI

/// The window and the session's player: the bar offers the book listened
/// to last, the position is reported every second only while the window
/// is on screen, and a paired device's command is announced in a toast.
final class MainWindowPlayerTests: XCTestCase {
    func testTheWindowOffersTheLastBookAndWatchesThePositionOnlyOnScreen() throws {
        let server = try XCTUnwrap(URL(string: "http://127.0.0.1:9"))
        let stored = StoredSession(serverURL: server, accessToken: "a", refreshToken: "r", sessionID: "session-1", userID: "user-1",
                                   displayName: "Ada L", email: "ada@example.com", accessExpiresAt: .distantFuture)
        let library = InMemoryLibraryStore()
        var book = try ScriptedServer.book(id: "book-1", title: "The Last Book")
        book.audioFiles = [
            ServerBook.AudioFile(id: "af-1", format: "wav", codec: nil, size: 1, duration: 60_000, bitrate: nil),
        ]
        try library.apply([book], deleting: [], state: LibrarySyncState())
        let listening = InMemoryListeningStore()
        try listening.saveContinueListening([
            ContinueListeningItem(bookID: "book-1", title: "The Last Book", author: nil, position: 30_000, duration: 60_000,
                                  progress: 0.5, lastPlayedAt: Date()),
        ])
        MainActor.assumeIsolated {
            guard requireGtk() else { return }
            MainContext.installDispatchBridge()
            var dependencies = Dependencies.test(settings: AppSettings(serverURL: server.absoluteString), sessions: .inMemory([stored]))
            dependencies.openLibrary = { _, _ in library }
            dependencies.openListening = { _, _ in listening }
            let navigator = AppNavigator(registry: .standard, dependencies: dependencies)
            let app = newObject(adw_application_new("io.github.listenup.Desktop.PlayerWindowTest", G_APPLICATION_NON_UNIQUE))
            var seen: [String] = []
            var timedOut = false
            let activation = app.connect(.activate) {
                let window = MainWindow(application: app, navigator: navigator, pages: .standard, logger: quietLogger)
                window.present()
                navigator.start()
                var step = 0
                MainContext.every(.milliseconds(20)) {
                    guard let player = navigator.player else { return true }
                    switch step {
                    case 0 where window.nowPlaying?.isShown == true && window.isOnScreen:
                        seen.append("offered \(player.nowPlaying?.title ?? "-") \(player.status) at \(player.position)")
                        seen.append("shown: watched \(player.isPositionWatched)")
                        gtk_widget_set_visible(window.window, 0)
                        step = 1
                    case 1 where !window.isOnScreen:
                        seen.append("hidden: watched \(player.isPositionWatched)")
                        gtk_widget_set_visible(window.window, 1)
                        step = 2
                    case 2 where window.isOnScreen:
                        seen.append("shown again: watched \(player.isPositionWatched)")
                        // A paired device pauses: the window says who did.
                        let remote = dependencies.playerRemote
                        Task { try? await remote.perform(.pause, from: RemoteDevice(id: "device-1", name: "My Phone")) }
                        step = 3
                    case 3 where window.lastToast != nil:
                        seen.append("toast: \(window.lastToast ?? "")")
                        // Another device listened further: offered after a pause.
                        player.positionOffer = PlayerModel.PositionNotice(id: UUID(), bookID: "book-1", position: 45_000, device: nil,
                                                                          listenedAt: Date())
                        step = 4
                    case 4 where window.lastToast?.hasPrefix("Continue") == true:
                        seen.append("toast: \(window.lastToast ?? "")")
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
                g_application_quit(app.cast(to: GApplication.self))
            }
            var argv: [UnsafeMutablePointer<CChar>?] = [strdup("test"), nil]
            _ = g_application_run(app.cast(to: GApplication.self), 1, &argv)
            activation.disconnect() // the handler stays connected until here
            free(argv[0])
            watchdog.cancel()
            g_object_unref(app)
            XCTAssertFalse(timedOut, "\(seen)")
            XCTAssertEqual(seen, [
                "offered The Last Book paused at 30000",
                "shown: watched true",
                "hidden: watched false",
                "shown again: watched true",
                "toast: Paused from My Phone",
                "toast: Continue from 0:45 (listened on another device)",
            ])
        }
    }
}
