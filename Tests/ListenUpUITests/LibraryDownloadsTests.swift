import CAdwaita
import Foundation
import GtkBridge
import XCTest
@testable import ListenUpCore
@testable import ListenUpUI

/// The library page with downloads: the cards' buttons follow the model
/// (only the changed book's cell is touched), the Downloaded filter and its
/// empty state, the heading's total, and the details panel's control.
final class LibraryDownloadsTests: XCTestCase {
    @MainActor
    private static func makePage(downloads: String, filter: LibraryFilter = .all,
                                 layout: LibraryLayout = .grid) -> (LibraryModel, DownloadsModel, LibraryPage, TestWindow) {
        let dependencies = Dependencies.test()
        let store = DownloadsModel.preview(downloads, dependencies: dependencies)
        let model = LibraryModel(dependencies: dependencies, session: nil, downloads: store, load: false, send: { _ in })
        model.showForPreview(LibraryModel.previewBooks, status: .loaded, layout: layout, filter: filter)
        let page = LibraryPage(model: model)
        let window = TestWindow(child: page.widget, width: 1100, height: 900)
        MainContext.iterate(until: { page.collection.waitingCellCount == 0 && page.collection.knowsTheScreen })
        return (model, store, page, window)
    }

    func testCardsShowEachBooksDownloadAndFollowOnlyTheBooksThatChanged() {
        MainActor.assumeIsolated {
            guard requireGtk() else { return }
            for layout in LibraryLayout.allCases {
                let (_, downloads, page, window) = Self.makePage(downloads: "mixed", layout: layout)
                defer { page.teardown(); window.close() }
                let states = ["book-0", "book-1", "book-4", "book-5", "book-9", "book-2"].map { page.collection.downloadButton(of: $0)?.state }
                XCTAssertEqual(states, [.available, .downloading, .waiting, .paused, .failed, .downloaded], "\(layout)")
                XCTAssertEqual(page.collection.downloadButton(of: "book-1")?.accessibleName, "Pause download of Middlemarch")

                // Progress of one book reaches only its cell.
                var items = downloads.items
                items["book-1"]?.bytes += 10_000_000
                XCTAssertEqual(page.collection.showDownloads(items), ["book-1"])
                XCTAssertEqual(page.collection.showDownloads(items), [], "nothing changed, nothing redrawn")

                // A click on the card sends its intent to the downloads.
                guard let button = page.collection.downloadButton(of: "book-1") else { return XCTFail("no cell for book-1") }
                emit("clicked", on: button.button)
                XCTAssertEqual(downloads.items["book-1"]?.status, .paused)
                XCTAssertTrue(MainContext.iterate(until: { button.state == .paused }), "the cell follows the model")
                XCTAssertEqual(button.accessibleName, "Resume download of Middlemarch")
            }
        }
    }

    func testTheDownloadedFilterItsEmptyStateAndShowAll() {
        MainActor.assumeIsolated {
            guard requireGtk() else { return }
            let (model, downloads, page, window) = Self.makePage(downloads: "mixed")
            defer { page.teardown(); window.close() }
            XCTAssertTrue(page.downloadedToggle.isVisible, "shown when there are downloads")
            emit("clicked", on: page.downloadedToggle)
            XCTAssertEqual(model.filter, .downloaded)
            XCTAssertEqual(page.shownTitles, ["Piranesi"])
            XCTAssertTrue(MainContext.iterate(until: { page.collection.positionCount == 1 }))
            XCTAssertEqual(page.summary.text, "1 of 10 books")

            // The last downloaded book goes: "No Downloaded Books", and Show
            // All Books turns the filter off.
            downloads.send(.remove(bookID: "book-2"))
            XCTAssertTrue(MainContext.iterate(until: { model.visible.isEmpty }))
            window.settle()
            XCTAssertEqual(page.statusPage.title, "No Downloaded Books")
            XCTAssertNotEqual(gtk_widget_get_visible(page.showAllButton.widget), 0)
            emit("clicked", on: page.showAllButton.widget)
            XCTAssertEqual(model.filter, .all)
            window.settle()
            XCTAssertFalse(page.downloadedToggle.isActive, "the toggle follows")
            XCTAssertEqual(page.shownTitles.count, 10)
        }
    }

    func testWithoutDownloadsThereIsNoFilterAndNoButton() {
        MainActor.assumeIsolated {
            guard requireGtk() else { return }
            let model = LibraryModel(dependencies: .test(), session: nil, load: false, send: { _ in })
            model.showForPreview(LibraryModel.previewBooks, status: .loaded)
            let page = LibraryPage(model: model)
            let window = TestWindow(child: page.widget, width: 1000, height: 700)
            defer { page.teardown(); window.close() }
            MainContext.iterate(until: { page.collection.waitingCellCount == 0 && page.collection.knowsTheScreen })
            XCTAssertFalse(page.downloadedToggle.isVisible)
            XCTAssertEqual(page.downloadsTotal.shownText, nil)
            let button = page.collection.downloadButton(of: "book-0")
            XCTAssertNotNil(button)
            XCTAssertEqual(button.map { gtk_widget_get_visible($0.widget) }, 0)
        }
    }

    func testTheHeadingShowsTheTotalWhileBooksDownload() {
        MainActor.assumeIsolated {
            guard requireGtk() else { return }
            let (_, downloads, page, window) = Self.makePage(downloads: "mixed")
            defer { page.teardown(); window.close() }
            // book-1 (128.4 of 321 MB) and book-4 (queued, 0 of 384 MB).
            XCTAssertEqual(page.downloadsTotal.shownText, "2 books downloading · 18 %")
            downloads.send(.cancel(bookID: "book-4"))
            XCTAssertTrue(MainContext.iterate(until: { page.downloadsTotal.shownText == "1 book downloading · 40 %" }),
                          page.downloadsTotal.shownText ?? "hidden")
            downloads.send(.pause(bookID: "book-1"))
            XCTAssertTrue(MainContext.iterate(until: { page.downloadsTotal.shownText == nil }), "hidden when nothing downloads")
        }
    }

    func testTheDetailsPanelHasTheControlOfTheSelectedBook() {
        MainActor.assumeIsolated {
            guard requireGtk() else { return }
            let dependencies = Dependencies.test()
            let downloads = DownloadsModel.preview("mixed", dependencies: dependencies)
            let model = LibraryModel(dependencies: dependencies, session: nil, downloads: downloads, load: false, send: { _ in })
            model.showForPreview(LibraryModel.previewBooks, status: .loaded, selected: "book-0")
            let page = LibraryPage(model: model)
            let window = TestWindow(child: page.widget, width: 1100, height: 800)
            defer { page.teardown(); window.close() }
            XCTAssertTrue(MainContext.iterate(until: { page.details.downloadControl != nil }))
            // Three files of 100 MB each, as the preview book's details say.
            XCTAssertEqual(page.details.downloadControl?.shownButtons, ["Download (300 MB)"])
        }
    }
}
