import CAdwaita
import Foundation
import GtkBridge
import XCTest
@testable import ListenUpCore
@testable import ListenUpUI

/// The details panel's download control and the cards' download button, in
/// each state of the preview downloads (`mixed`: book-0 not downloaded,
/// book-1 downloading at 40 %, book-4 queued, book-5 paused by the network,
/// book-9 refused for lack of space, book-2 done): what they show, what
/// their buttons send, and that they follow a change.
final class DownloadControlTests: XCTestCase {
    @MainActor
    private static func controls(_ downloads: DownloadsModel, ids: [String],
                                 sent: @escaping @MainActor (DownloadsModel.Intent) -> Void) -> ([String: DownloadControl], TestWindow) {
        let box = newObject(gtk_box_new(GTK_ORIENTATION_VERTICAL, 12))
        var made: [String: DownloadControl] = [:]
        for id in ids {
            let control = DownloadControl(bookID: id, size: 512_300_000, downloads: downloads, send: sent)
            gtk_box_append(box.cast(to: GtkBox.self), control.box.pointer)
            made[id] = control
        }
        return (made, TestWindow(child: box, width: 340, height: 700))
    }

    func testTheControlShowsEachStateAndItsButtonsSendTheirIntents() {
        MainActor.assumeIsolated {
            guard requireGtk() else { return }
            let downloads = DownloadsModel.preview("mixed", dependencies: .test())
            var sent: [DownloadsModel.Intent] = []
            let ids = ["book-0", "book-1", "book-4", "book-5", "book-9", "book-2"]
            let (controls, window) = Self.controls(downloads, ids: ids) { sent.append($0) }
            defer { controls.values.forEach { $0.teardown() }; window.close() }
            func control(_ id: String) -> DownloadControl {
                guard let control = controls[id] else { fatalError("no control for \(id)") }
                return control
            }

            XCTAssertEqual(control("book-0").shownButtons, ["Download (512 MB)"])
            XCTAssertEqual(control("book-0").statusText, "")
            XCTAssertEqual(control("book-1").shownButtons, ["Pause", "Cancel"])
            XCTAssertEqual(control("book-1").statusText, "128 MB of 321 MB · 40 %")
            XCTAssertEqual(control("book-4").shownButtons, ["Cancel"])
            XCTAssertEqual(control("book-4").statusText, "Waiting to download")
            XCTAssertEqual(control("book-5").shownButtons, ["Resume", "Cancel"])
            XCTAssertEqual(control("book-5").statusText, DownloadRules.network.message + "\nPaused · 292 MB of 405 MB")
            XCTAssertEqual(control("book-9").shownButtons, ["Try Again", "Cancel"])
            XCTAssertTrue(control("book-9").statusText.hasPrefix("Not enough space to download this book"), control("book-9").statusText)
            XCTAssertEqual(control("book-2").shownButtons, ["Remove Download"])
            XCTAssertEqual(control("book-2").statusText, "Downloaded · 342 MB")

            // Each button shown sends its intent for its book.
            for id in ids {
                let made = control(id)
                for button in [made.downloadButton, made.pauseButton, made.resumeButton, made.retryButton, made.cancelButton, made.removeButton]
                where button.isVisible {
                    emit("clicked", on: button)
                }
            }
            XCTAssertEqual(sent, [
                .download(bookID: "book-0"),
                .pause(bookID: "book-1"), .cancel(bookID: "book-1"),
                .cancel(bookID: "book-4"),
                .resume(bookID: "book-5"), .cancel(bookID: "book-5"),
                .download(bookID: "book-9"), .cancel(bookID: "book-9"),
                .remove(bookID: "book-2"),
            ])
        }
    }

    func testTheControlFollowsItsBookAndNoOther() {
        MainActor.assumeIsolated {
            guard requireGtk() else { return }
            let downloads = DownloadsModel.preview("mixed", dependencies: .test())
            let (controls, window) = Self.controls(downloads, ids: ["book-2", "book-1"], sent: { downloads.send($0) })
            defer { controls.values.forEach { $0.teardown() }; window.close() }
            guard let done = controls["book-2"], let running = controls["book-1"] else { return XCTFail("no controls") }
            emit("clicked", on: done.removeButton)
            XCTAssertTrue(MainContext.iterate(until: { done.shownButtons == ["Download (512 MB)"] }), "\(done.shownButtons)")
            emit("clicked", on: running.pauseButton)
            XCTAssertTrue(MainContext.iterate(until: { running.shownButtons == ["Resume", "Cancel"] }), "\(running.shownButtons)")
            XCTAssertEqual(running.statusText, "Paused · 128 MB of 321 MB")
        }
    }

    func testTheCardButtonNamesWhatAClickDoesInEachState() {
        MainActor.assumeIsolated {
            guard requireGtk() else { return }
            let downloads = DownloadsModel.preview("mixed", dependencies: .test())
            let expected: [(String, String, DownloadButton.State, String?, DownloadsModel.Intent?)] = [
                ("book-0", "The Left Hand of Darkness", .available, "Download The Left Hand of Darkness", .download(bookID: "book-0")),
                ("book-1", "Middlemarch", .downloading, "Pause download of Middlemarch", .pause(bookID: "book-1")),
                ("book-4", "Project Hail Mary", .waiting, "Pause download of Project Hail Mary", .pause(bookID: "book-4")),
                ("book-5", "Wolf Hall", .paused, "Resume download of Wolf Hall", .resume(bookID: "book-5")),
                ("book-9", "Dune", .failed, "Try downloading Dune again", .download(bookID: "book-9")),
                ("book-2", "Piranesi", .downloaded, nil, nil),
            ]
            let box = newObject(gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 4))
            var buttons: [DownloadButton] = []
            var sent: [DownloadsModel.Intent] = []
            for (id, title, _, _, _) in expected {
                let button = DownloadButton(size: 30)
                button.onIntent = { sent.append($0) }
                button.show(downloads.items[id], bookID: id, title: title)
                gtk_box_append(box.cast(to: GtkBox.self), button.widget)
                buttons.append(button)
            }
            let window = TestWindow(child: box, width: 300, height: 60)
            defer { window.close() }
            for ((id, _, state, name, intent), button) in zip(expected, buttons) {
                XCTAssertEqual(button.state, state, id)
                XCTAssertEqual(button.intent, intent, id)
                let ringShown = gtk_widget_get_visible(button.ring.widget) != 0
                XCTAssertEqual(ringShown, [.downloading, .waiting, .paused].contains(state), "\(id): the ring shows a download under way")
                if let name {
                    XCTAssertEqual(button.accessibleName, name)
                    XCTAssertTrue(button.button.isVisible, id)
                    XCTAssertFalse(button.mark.isVisible, id)
                    emit("clicked", on: button.button)
                } else {
                    XCTAssertFalse(button.button.isVisible, "a downloaded book has no button")
                    XCTAssertTrue(button.mark.isVisible, "but the downloaded mark")
                }
            }
            XCTAssertEqual(sent, expected.compactMap(\.4))
            XCTAssertEqual(buttons[1].ring.fraction, 0.4, accuracy: 0.001)
            XCTAssertEqual(buttons[3].ring.fraction, 0.72, accuracy: 0.001)
        }
    }

    /// `download-button.ui` and `DownloadButton`: the sizes follow the
    /// cell's, the ring sits over the icon inside the button, and a card's
    /// button goes on the cover's lower left corner.
    func testTheCardButtonsTreeHasItsSizesAndTheRingInsideTheButton() {
        MainActor.assumeIsolated {
            guard requireGtk() else { return }
            let button = DownloadButton(size: 32)
            var width: Int32 = 0, height: Int32 = 0
            gtk_widget_get_size_request(button.button.pointer, &width, &height)
            XCTAssertEqual([width, height], [32, 32])
            gtk_widget_get_size_request(button.mark.pointer, &width, &height)
            XCTAssertEqual([width, height], [26, 26])
            XCTAssertTrue(Widget(button.ring.widget).isInside(button.button), "the ring is on the button's face")
            XCTAssertEqual(button.mark.tooltip, "Downloaded")
            XCTAssertFalse(button.mark.isVisible)
            button.placeOnCover()
            let box = Widget(button.widget)
            gtk_widget_get_size_request(button.widget, &width, &height)
            XCTAssertEqual(height, 36)
            XCTAssertEqual([box.halign, box.valign], [GTK_ALIGN_START, GTK_ALIGN_END])
            XCTAssertEqual([box.marginStart, box.marginBottom], [8, 8])
        }
    }
}
