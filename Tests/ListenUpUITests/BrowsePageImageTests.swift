import CAdwaita
import Foundation
import GtkBridge
import XCTest
@testable import ListenUpCore
@testable import ListenUpUI

/// A browse page's picture in a real window: a person's initials until
/// their photo arrives (and for good when there is none), a series' cover
/// only once it has arrived, and neither on a genre's page.
final class BrowsePageImageTests: XCTestCase {
    @MainActor
    private static func open(_ name: String) -> (LibraryPage, TestWindow, BrowsePageView)? {
        guard let state = LibraryModel.browsePreviews.first(where: { $0.name == name }) else {
            XCTFail("no preview \(name)")
            return nil
        }
        let model = LibraryModel(dependencies: .test(), session: nil, load: false, send: { _ in })
        state.apply(model)
        let page = LibraryPage(model: model)
        let window = TestWindow(child: page.widget, width: 1000, height: 700)
        guard MainContext.iterate(until: { page.isContentReady && page.browser?.topPage != nil }),
              let top = page.browser?.topPage else {
            XCTFail("\(name): the page opens")
            page.teardown()
            window.close()
            return nil
        }
        window.settle()
        return (page, window, top)
    }

    func testAPersonsPhotoReplacesTheirInitialsOnceItArrives() {
        MainActor.assumeIsolated {
            guard requireGtk(), let (page, window, top) = Self.open("contributor-photo") else { return }
            defer { page.teardown(); window.close() }
            XCTAssertTrue(top.avatar.isVisible)
            XCTAssertEqual(top.avatar.text, "Ursula K. Le Guin", "the initials come from the name")
            XCTAssertTrue(MainContext.iterate(until: { top.avatar.hasCustomImage }), "the photo arrives")
            XCTAssertFalse(top.cover.isVisible, "a person has no cover")
        }
    }

    func testWithoutAPhotoThePersonKeepsTheirInitials() {
        MainActor.assumeIsolated {
            guard requireGtk(), let (page, window, top) = Self.open("contributor-page") else { return }
            defer { page.teardown(); window.close() }
            XCTAssertTrue(top.avatar.isVisible)
            _ = MainContext.iterate(until: { false }, timeout: .milliseconds(200))
            XCTAssertFalse(top.avatar.hasCustomImage, "no loader, no photo: the initials stay")
        }
    }

    func testASeriesCoverShowsOnlyOnceItHasArrived() {
        MainActor.assumeIsolated {
            guard requireGtk() else { return }
            if let (page, window, top) = Self.open("series-cover") {
                XCTAssertFalse(top.avatar.isVisible, "a series has no avatar")
                XCTAssertTrue(MainContext.iterate(until: { top.cover.isVisible && top.coverPicture.hasPaintable }), "the cover arrives")
                page.teardown()
                window.close()
            }
            if let (page, window, top) = Self.open("series-page") {
                _ = MainContext.iterate(until: { false }, timeout: .milliseconds(200))
                XCTAssertFalse(top.cover.isVisible, "no cover, no empty frame")
                page.teardown()
                window.close()
            }
            if let (page, window, top) = Self.open("genre-page") {
                XCTAssertFalse(top.avatar.isVisible || top.cover.isVisible, "a genre has no picture")
                page.teardown()
                window.close()
            }
        }
    }
}
