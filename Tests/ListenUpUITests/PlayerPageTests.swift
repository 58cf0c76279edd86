import CAdwaita
import Foundation
import GtkBridge
import ListenUpAPI
import ListenUpTestSupport
import XCTest
@testable import ListenUpCore
@testable import ListenUpUI

/// The player page in a real window, driven by its own controls: the
/// buttons, the chapter list, the speed and sleep choices reach the model,
/// and the model's state reaches the page.
final class PlayerPageTests: XCTestCase {
    @MainActor
    private static func player() throws -> (PlayerModel, ScriptedEngine) {
        let server = try ScriptedServer(titles: [])
        let library = InMemoryLibraryStore()
        var book = try ScriptedServer.book(id: "book-1", title: "Two Files")
        book.audioFiles = [
            ServerBook.AudioFile(id: "af-1", format: "wav", codec: nil, size: 1, duration: 60_000, bitrate: nil),
            ServerBook.AudioFile(id: "af-2", format: "wav", codec: nil, size: 1, duration: 90_000, bitrate: nil),
        ]
        book.chapters = [
            ServerBook.Chapter(title: "One", audioFileID: "af-1", startTime: 0, endTime: 40_000),
            ServerBook.Chapter(title: "Two", audioFileID: "af-1", startTime: 40_000, endTime: 100_000),
            ServerBook.Chapter(title: "Three", audioFileID: "af-2", startTime: 100_000, endTime: 150_000),
        ]
        try library.apply([book], deleting: [], state: LibrarySyncState())
        let engine = ScriptedEngine()
        var dependencies = Dependencies.test()
        dependencies.openLibrary = { _, _ in library }
        dependencies.makePlaybackEngine = { engine }
        let stored = StoredSession(serverURL: server.baseURL, accessToken: "a", refreshToken: "r", sessionID: "s", userID: "u",
                                   displayName: "Ada", email: "ada@example.com", accessExpiresAt: .distantFuture)
        let model = PlayerModel(dependencies: dependencies, session: Session(stored, connection: server))
        return (model, engine)
    }

    func testTheControlsDriveThePlayer() throws {
        try MainActor.assumeIsolated {
            guard requireGtk() else { return }
            let (model, engine) = try Self.player()
            let page = PlayerPage(model: model)
            let window = TestWindow(child: page.widget, width: 700, height: 900)
            defer { page.teardown(); window.close() }
            model.send(.play(bookID: "book-1"))
            MainContext.iterate(until: { engine.log.value.loaded != nil }, timeout: .seconds(5))
            engine.report(.status(.playing))
            MainContext.iterate(until: { model.status == .playing }, timeout: .seconds(5))
            window.settle()
            XCTAssertEqual(page.playButton.tooltip, "Pause")

            emit("clicked", on: page.playButton)
            XCTAssertEqual(engine.calls.last, "pause", "play/pause pauses")
            emit("clicked", on: page.nextButton)
            XCTAssertEqual(model.chapterIndex, 1, "next chapter")
            emit("clicked", on: page.forwardButton)
            XCTAssertEqual(model.position, 70_000, "30 s on")
            emit("clicked", on: page.backButton)
            XCTAssertEqual(model.position, 60_000, "10 s back")
            emit("clicked", on: page.previousButton)
            XCTAssertEqual(model.position, 40_000, "back to the chapter's start")

            // A row of the chapter list jumps there.
            let third = try XCTUnwrap(page.chapters.row(at: 2))
            emit("activate", on: third)
            window.settle()
            XCTAssertEqual(model.chapterIndex, 2)
            XCTAssertEqual(model.position, 100_000)

            // Speed from the spin button; the menu button shows it.
            page.speedSpin.value = 1.5
            window.settle()
            XCTAssertEqual(model.rate, 1.5)
            XCTAssertEqual(page.speedButton.label, "1.5×")

            // The sleep timer's choices.
            model.send(.sleep(.minutes(15)))
            window.settle()
            XCTAssertNotNil(model.sleepRemaining)

            // The seek bar is the chapter's: 0 at its start, its length at the end.
            var lower = 0.0
            lower = gtk_adjustment_get_lower(gtk_range_get_adjustment(page.seek.cast(to: GtkRange.self)))
            let upper = gtk_adjustment_get_upper(gtk_range_get_adjustment(page.seek.cast(to: GtkRange.self)))
            XCTAssertEqual(lower, 0)
            XCTAssertEqual(upper, 50_000, "chapter three lasts 50 s")
        }
    }

    func testTheNowPlayingBarFollowsThePlayerAndOpensIt() throws {
        try MainActor.assumeIsolated {
            guard requireGtk() else { return }
            let (model, engine) = try Self.player()
            var opened = 0
            let bar = NowPlayingBar(open: { opened += 1 })
            let window = TestWindow(child: bar.widget, width: 700, height: 200)
            defer { bar.teardown(); window.close() }
            bar.show(model)
            window.settle()
            XCTAssertFalse(bar.isShown, "nothing loaded: no bar")
            model.send(.play(bookID: "book-1"))
            MainContext.iterate(until: { engine.log.value.loaded != nil }, timeout: .seconds(5))
            engine.report(.status(.playing))
            MainContext.iterate(until: { model.status == .playing }, timeout: .seconds(5))
            window.settle()
            XCTAssertTrue(bar.isShown)
            // The line is the book's; its tooltip the time left at the speed.
            XCTAssertEqual(bar.progressFraction, 0)
            XCTAssertEqual(bar.timeLeftText, "3 min left at 1.0×", "150 s, rounded to the minute")
            model.send(.seek(75_000))
            model.send(.rate(1.5))
            window.settle()
            XCTAssertEqual(bar.progressFraction, 0.5, accuracy: 0.001, "half the book, not chapter two's start")
            XCTAssertEqual(bar.timeLeftText, "1 min left at 1.5×", "75 s at 1.5× is 50 s")
            emit("clicked", on: bar.openButton)
            XCTAssertEqual(opened, 1)
            emit("clicked", on: bar.playButton)
            XCTAssertEqual(engine.calls.last, "pause")
            bar.setHiddenByRoute(true)
            XCTAssertFalse(bar.isShown, "the player page is up: the bar steps aside")
        }
    }

    /// Recent Positions: insensitive with no jump; a chapter chosen puts
    /// where the book was in the list; choosing it goes back there, and
    /// the place left takes its turn in the list.
    func testRecentPositionsListsWhereTheBookWasAndGoesBack() throws {
        try MainActor.assumeIsolated {
            guard requireGtk() else { return }
            let (model, engine) = try Self.player()
            let page = PlayerPage(model: model)
            let window = TestWindow(child: page.widget, width: 700, height: 900)
            defer { page.teardown(); window.close() }
            model.send(.play(bookID: "book-1"))
            MainContext.iterate(until: { engine.log.value.loaded != nil }, timeout: .seconds(5))
            engine.report(.status(.playing))
            MainContext.iterate(until: { model.status == .playing }, timeout: .seconds(5))
            window.settle()
            XCTAssertFalse(page.recentButton.isSensitive, "no jump yet")

            emit("activate", on: try XCTUnwrap(page.chapters.row(at: 2)))
            window.settle()
            XCTAssertEqual(model.position, 100_000)
            XCTAssertTrue(page.recentButton.isSensitive)
            page.recentButton.popup()
            MainContext.iterate(until: { page.dialog != nil }, timeout: .seconds(2))
            XCTAssertNotNil(page.dialog, "the list is open")
            let row = try XCTUnwrap(page.recentList.row(at: 0))
            XCTAssertNil(page.recentList.row(at: 1))
            XCTAssertEqual(row.descendants(ofType: gtk_label_get_type()).map { Label(unchecked: $0).text }, ["0:00", "One · Left just now"],
                           "the place, then its chapter and when it was left")

            emit("activate", on: row)
            window.settle()
            XCTAssertEqual(model.position, 0, "back where the book was")
            XCTAssertNil(page.dialog, "the list closes")
            XCTAssertEqual(model.recentPositions.map(\.position), [100_000], "the place left joins the list")
        }
    }

    func testHowLongAgoAPlaceWasLeft() {
        MainActor.assumeIsolated {
            let now = Date()
            XCTAssertEqual(PlayerPage.leftText(now.addingTimeInterval(-20), now: now), "Left just now")
            XCTAssertEqual(PlayerPage.leftText(now.addingTimeInterval(-185), now: now), "Left 3 min ago")
            let noon = Calendar.current.date(bySettingHour: 12, minute: 0, second: 0, of: now) ?? now
            XCTAssertTrue(PlayerPage.leftText(noon.addingTimeInterval(-7_200), now: noon).hasPrefix("Left at 10"), "earlier today: the clock time")
        }
    }

    /// A card's Play button plays its book; a finished book says so on its
    /// card; with no player the cards have no Play button.
    func testACardsPlayButtonPlaysItsBook() throws {
        try MainActor.assumeIsolated {
            guard requireGtk() else { return }
            let (player, engine) = try Self.player()
            let books = [
                CachedBook(id: "book-1", title: "Two Files", authors: "Ada", narrators: "", series: "", duration: 150_000,
                           createdAt: Date(timeIntervalSince1970: 0), updatedAt: Date(timeIntervalSince1970: 0)),
                CachedBook(id: "book-2", title: "Done Already", authors: "Ada", narrators: "", series: "", duration: 60_000,
                           createdAt: Date(timeIntervalSince1970: 1), updatedAt: Date(timeIntervalSince1970: 0)),
            ]
            let model = LibraryModel(dependencies: .test(), session: nil, player: player, load: false, send: { _ in })
            model.showForPreview(books, status: .loaded, progress: ["book-2": BookProgress(fraction: 1, finished: true)])
            let page = LibraryPage(model: model)
            let window = TestWindow(child: page.widget, width: 900, height: 700)
            defer { page.teardown(); window.close() }
            @MainActor func cell(_ id: String) -> BookCell? { page.collection.cells.values.first { $0.book?.id == id } }
            MainContext.iterate(until: { cell("book-1") != nil && cell("book-2") != nil }, timeout: .seconds(10))
            let first = try XCTUnwrap(cell("book-1"))
            XCTAssertNotEqual(gtk_widget_get_visible(first.playButton.pointer), 0, "a player: the cards can play")
            XCTAssertEqual(try XCTUnwrap(cell("book-2")).finishedText, "Finished")
            XCTAssertEqual(first.finishedText, "", "a book under way is not finished")

            emit("clicked", on: first.playButton.pointer)
            MainContext.iterate(until: { engine.log.value.loaded != nil }, timeout: .seconds(5))
            XCTAssertEqual(engine.log.value.loaded?.bookID, "book-1")
            XCTAssertNil(model.selection, "the button plays; it does not open the details")
        }
        MainActor.assumeIsolated {
            guard requireGtk() else { return }
            let model = LibraryModel(dependencies: .test(), session: nil, load: false, send: { _ in })
            model.showForPreview(LibraryModel.previewBooks, status: .loaded)
            let page = LibraryPage(model: model)
            let window = TestWindow(child: page.widget, width: 900, height: 700)
            defer { page.teardown(); window.close() }
            MainContext.iterate(until: { !page.collection.cells.isEmpty && page.collection.waitingCellCount == 0 }, timeout: .seconds(10))
            XCTAssertFalse(page.collection.cells.isEmpty)
            XCTAssertTrue(page.collection.cells.values.allSatisfy { gtk_widget_get_visible($0.playButton.pointer) == 0 }, "no player: no Play buttons")
        }
    }
}
