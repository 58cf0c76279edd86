import CAdwaita
import Foundation
import GtkBridge
import XCTest
@testable import ListenUpCore
@testable import ListenUpUI

/// Alt+1, Alt+2, … show the library's tabs in the switcher's order, over
/// any page open, and a number with no tab does nothing.
final class LibraryTabKeysTests: XCTestCase {
    func testAltNumbersShowTheTabsInOrderAndClosePagesOverThem() {
        MainActor.assumeIsolated {
            guard requireGtk() else { return }
            let model = LibraryModel(dependencies: .test(), session: nil, load: false, send: { _ in })
            model.browseForPreview([])
            let page = LibraryPage(model: model)
            let window = TestWindow(child: page.widget, width: 1000, height: 700)
            defer { page.teardown(); window.close() }
            guard let browser = page.browser else { return XCTFail("the preview browses") }
            XCTAssertEqual(browser.tabsShown, ["home", "books", "series", "authors", "narrators", "genres"])

            XCTAssertTrue(pressShortcut("<Alt>3", on: page.root.pointer))
            XCTAssertEqual(browser.shownTab, .series)
            XCTAssertTrue(MainContext.iterate(until: { browser.browse.shown == .series && browser.isShownTabReady }),
                          "the series are read and shown")
            XCTAssertTrue(pressShortcut("<Alt>1", on: page.root.pointer))
            XCTAssertTrue(browser.homeShown)

            browser.browse.send(.open(.series, id: "series-modern-classics"))
            XCTAssertTrue(MainContext.iterate(until: { browser.topPage != nil }), "a page opens")
            XCTAssertTrue(pressShortcut("<Alt>2", on: page.root.pointer))
            XCTAssertTrue(MainContext.iterate(until: { browser.topPage == nil }), "the tab key closes the pages over the library")
            XCTAssertNil(browser.shownTab, "and shows the books")
            XCTAssertFalse(browser.homeShown)

            XCTAssertFalse(pressShortcut("<Alt>9", on: page.root.pointer), "no ninth tab: the key goes on")
            XCTAssertNil(browser.shownTab)
        }
    }
}
