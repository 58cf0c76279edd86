import CAdwaita
import GtkBridge
import ListenUpCore
import XCTest
@testable import ListenUpUI

/// The real server setup page in a real window: typing, Connect, what shows.
final class ServerSetupPageTests: XCTestCase {
    func testTypingAndConnectShowTheModelsVerdict() throws {
        MainActor.assumeIsolated {
            guard requireGtk() else { return }
            let model = ServerSetupModel()
            let page = ServerSetupPage(model: model)
            let window = TestWindow(child: page.widget, width: 700, height: 600)
            defer { page.teardown(); window.close() }
            let label = { String(cString: gtk_label_get_label(page.field.errorLabel)) }

            // Empty: Connect is off, no error, no notice.
            XCTAssertEqual(gtk_widget_get_sensitive(page.connectButton.widget), 0)
            XCTAssertEqual(gtk_widget_get_visible(page.field.errorLabel.widget), 0)
            XCTAssertEqual(gtk_widget_get_visible(page.noticeRow), 0)

            // Typing reaches the model and turns Connect on.
            gtk_editable_set_text(page.field.entry.opaque, "ftp://files.example.com")
            window.settle()
            XCTAssertEqual(model.urlText, "ftp://files.example.com")
            XCTAssertNotEqual(gtk_widget_get_sensitive(page.connectButton.widget), 0)

            // Connect with a malformed URL: the message under the field.
            emit("clicked", on: page.connectButton.widget)
            window.settle()
            XCTAssertNotEqual(gtk_widget_get_visible(page.field.errorLabel.widget), 0)
            XCTAssertEqual(label(), ServerAddressError.unsupportedScheme("ftp").userMessage)
            XCTAssertTrue(page.field.entry.hasClass(.error))

            // Editing clears it.
            gtk_editable_set_text(page.field.entry.opaque, "listenup.example.com:8080/")
            window.settle()
            XCTAssertEqual(gtk_widget_get_visible(page.field.errorLabel.widget), 0)
            XCTAssertFalse(page.field.entry.hasClass(.error))

            // Enter in the field = Connect: a plain notice, never a fake success.
            emit("activate", on: page.field.entry)
            window.settle()
            XCTAssertNotEqual(gtk_widget_get_visible(page.noticeRow), 0)
            let notice = String(cString: gtk_label_get_label(page.notice))
            XCTAssertTrue(notice.contains("https://listenup.example.com:8080"), notice)
            XCTAssertTrue(notice.contains("can't check servers yet"), notice)
            // The typed text stays as typed (the cursor is not disturbed).
            XCTAssertEqual(page.field.text, "listenup.example.com:8080/")

            // Blank again: Connect off.
            gtk_editable_set_text(page.field.entry.opaque, "   ")
            window.settle()
            XCTAssertEqual(gtk_widget_get_sensitive(page.connectButton.widget), 0)
        }
    }

    func testTeardownStopsRendering() {
        MainActor.assumeIsolated {
            guard requireGtk() else { return }
            let model = ServerSetupModel()
            let page = ServerSetupPage(model: model)
            let window = TestWindow(child: page.widget)
            defer { window.close() }
            page.teardown()
            model.send(.urlChanged("x.example"))
            model.send(.connect)
            window.settle()
            XCTAssertEqual(gtk_widget_get_visible(page.noticeRow), 0, "a torn-down page no longer follows its model")
        }
    }
}
