import CAdwaita
import Foundation
import GtkBridge
import ListenUpAPI
import ListenUpTestSupport
import XCTest
@testable import ListenUpCore
@testable import ListenUpUI

/// Downloads beyond the library page: Preferences → Downloads (the space,
/// each download with Remove, and Remove All, which asks first) and the
/// window's toast when a book cannot be downloaded.
final class DownloadsWindowTests: XCTestCase {
    func testPreferencesListTheDownloadsAndRemoveAllAsksFirst() {
        MainActor.assumeIsolated {
            guard requireGtk() else { return }
            let navigator = AppNavigator(registry: .standard, dependencies: .test())
            // The library preview with the `mixed` downloads: the navigator's.
            XCTAssertTrue(navigator.preview(.library, state: "downloads"))
            guard let downloads = navigator.downloads else { return XCTFail("the preview has downloads") }
            withApplication("DownloadsPreferencesTest") { app in
                let main = MainWindow(application: app, navigator: navigator, pages: .standard, logger: quietLogger)
                let preferences = PreferencesWindow(model: navigator.makePreferences(), parent: main.window) {}
                preferences.present()
                defer {
                    gtk_window_destroy(preferences.window.cast(to: GtkWindow.self))
                    gtk_window_destroy(main.window.cast(to: GtkWindow.self))
                    MainContext.drainPending()
                }
                MainContext.iterate(until: { gtk_widget_get_mapped(preferences.window) != 0 })
                let group = preferences.downloads
                XCTAssertEqual(group.titles, downloads.ordered.map(\.download.title))
                let texts = AppFurnitureTests.texts(in: preferences.window)
                XCTAssertTrue(texts.contains { $0.hasPrefix("Downloads use ") }, "\(texts)")
                XCTAssertTrue(texts.contains("Waiting to download"), "\(texts)")
                XCTAssertTrue(texts.contains("Downloaded · 342 MB"), "\(texts)")

                // One book's Remove.
                let first = downloads.ordered.first?.bookID
                if let remove = group.removeButton(at: 0) { emit("clicked", on: remove) }
                XCTAssertTrue(MainContext.iterate(until: { group.titles.count == 4 }), "\(group.titles)")
                XCTAssertNil(first.flatMap { downloads.items[$0] })

                // Remove All asks; Cancel keeps everything.
                XCTAssertNotEqual(gtk_widget_get_sensitive(group.removeAllButton.pointer), 0)
                emit("clicked", on: group.removeAllButton)
                guard let dialog = group.confirmation else { return XCTFail("Remove All asked nothing") }
                XCTAssertEqual(downloads.items.count, 4, "nothing removed before the answer")
                XCTAssertEqual(dialog.heading, "Remove All Downloads?")
                XCTAssertTrue(dialog.body.hasPrefix("4 downloaded books ("), dialog.body)
                XCTAssertEqual(dialog.responseLabel("remove"), "Remove All")
                XCTAssertEqual(dialog.responseAppearance("remove"), ADW_RESPONSE_DESTRUCTIVE)
                XCTAssertEqual(dialog.defaultResponse, "cancel")
                XCTAssertEqual(dialog.closeResponse, "cancel")
                dialog.respond("cancel")
                MainContext.drainPending()
                XCTAssertNil(group.confirmation)
                XCTAssertEqual(downloads.items.count, 4)

                // Remove All, confirmed: every download goes, and the button greys out.
                emit("clicked", on: group.removeAllButton)
                guard let again = group.confirmation else { return XCTFail("Remove All asked nothing") }
                again.respond("remove")
                XCTAssertTrue(MainContext.iterate(until: { downloads.items.isEmpty && group.titles.isEmpty }))
                XCTAssertTrue(MainContext.iterate(until: { !group.removeAllButton.isSensitive }),
                              "nothing left to remove")
            }
        }
    }

    func testABookThatCannotBeDownloadedIsSaidInAToast() throws {
        let server = try XCTUnwrap(URL(string: "http://127.0.0.1:9"))
        let stored = StoredSession(serverURL: server, accessToken: "a", refreshToken: "r", sessionID: "session-1", userID: "user-1",
                                   displayName: "Ada L", email: "ada@example.com", accessExpiresAt: .distantFuture)
        MainActor.assumeIsolated {
            guard requireGtk() else { return }
            let dependencies = Dependencies.test(settings: AppSettings(serverURL: server.absoluteString), sessions: .inMemory([stored]))
            let navigator = AppNavigator(registry: .standard, dependencies: dependencies)
            var toast: String?
            withApplication("DownloadsToastTest") { app in
                let window = MainWindow(application: app, navigator: navigator, pages: .standard, logger: quietLogger)
                window.present()
                navigator.start()
                defer {
                    gtk_window_destroy(window.window.cast(to: GtkWindow.self))
                    MainContext.drainPending()
                }
                guard MainContext.iterate(until: { navigator.downloads != nil }) else { return XCTFail("no downloads after sign-in") }
                MainContext.drainPending()
                // A book the library does not have: refused, and said.
                navigator.downloads?.send(.download(bookID: "no-such-book"))
                let expected = "This book is not in the library any more."
                MainContext.iterate(until: { window.lastToast == expected }, timeout: .seconds(3))
                toast = window.lastToast
            }
            XCTAssertEqual(toast, "This book is not in the library any more.")
        }
    }
}

/// A browse page the library does not have is said in a toast.
final class MissingPageToastTests: XCTestCase {
    func testAPageTheLibraryLacksIsSaidInAToast() throws {
        let server = try XCTUnwrap(URL(string: "http://127.0.0.1:9"))
        let stored = StoredSession(serverURL: server, accessToken: "a", refreshToken: "r", sessionID: "session-1", userID: "user-1",
                                   displayName: "Ada L", email: "ada@example.com", accessExpiresAt: .distantFuture)
        MainActor.assumeIsolated {
            guard requireGtk() else { return }
            let dependencies = Dependencies.test(settings: AppSettings(serverURL: server.absoluteString), sessions: .inMemory([stored]))
            let navigator = AppNavigator(registry: .standard, dependencies: dependencies)
            withApplication("MissingPageToastTest") { app in
                let window = MainWindow(application: app, navigator: navigator, pages: .standard, logger: quietLogger)
                window.present()
                navigator.start()
                defer {
                    gtk_window_destroy(window.window.cast(to: GtkWindow.self))
                    MainContext.drainPending()
                }
                guard MainContext.iterate(until: { navigator.signedIn != nil }), let browse = navigator.signedIn?.browse else {
                    return XCTFail("no session")
                }
                MainContext.drainPending()
                let expected = "That page is not in the library any more."
                browse.send(.open(.series, id: "no-such-series"))
                XCTAssertTrue(MainContext.iterate(until: { window.lastToast == expected }, timeout: .seconds(3)))
                XCTAssertTrue(browse.pages.isEmpty, "nothing opens")
                XCTAssertEqual(window.shownMissingPage, BrowseModel.PageKey(kind: .series, id: "no-such-series"))
                browse.send(.open(.contributor, id: "no-such-person"))
                XCTAssertTrue(MainContext.iterate(until: {
                    window.shownMissingPage == BrowseModel.PageKey(kind: .contributor, id: "no-such-person")
                }, timeout: .seconds(3)), "another page asked for is said too")
                XCTAssertEqual(window.lastToast, expected)
            }
        }
    }
}
