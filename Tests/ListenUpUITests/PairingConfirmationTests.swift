import CAdwaita
import Foundation
import GtkBridge
import Pairing
import XCTest
@testable import ListenUpUI

/// The "Pair with …?" dialog (`pairing-confirmation.ui` and
/// `PairingConfirmation`): the template's responses and code label, and
/// the texts the confirmation sets, agree with what the user must see.
final class PairingConfirmationTests: XCTestCase {
    func testTheDialogShowsTheDeviceAndTheCodeAndRefusesByDefault() {
        MainActor.assumeIsolated {
            guard requireGtk() else { return }
            let parent = TestWindow(child: newObject(gtk_box_new(GTK_ORIENTATION_VERTICAL, 0)))
            defer { parent.close() }
            var answers: [(UUID, Bool)] = []
            let confirmation = PairingConfirmation { answers.append(($0, $1)) }
            let request = PairingRequest(clientName: "Anna’s Pixel", clientModel: "Pixel 8", comparisonCode: "042917", remoteAddress: "127.0.0.1")
            confirmation.open(request, over: parent.window)
            guard let dialog = confirmation.dialog else { return XCTFail("no dialog") }
            MainContext.iterate(until: { dialog.isMapped })

            XCTAssertEqual(dialog.heading, "Pair with Anna’s Pixel?")
            XCTAssertTrue(dialog.body.hasPrefix("Once paired, Anna’s Pixel (Pixel 8) can see"), dialog.body)
            XCTAssertEqual(dialog.responseLabel("refuse"), "Refuse")
            XCTAssertEqual(dialog.responseLabel("pair"), "Pair")
            XCTAssertEqual(dialog.responseAppearance("pair"), ADW_RESPONSE_SUGGESTED)
            XCTAssertEqual(dialog.responseAppearance("refuse"), ADW_RESPONSE_DEFAULT)
            XCTAssertEqual(dialog.defaultResponse, "refuse", "Enter refuses")
            XCTAssertEqual(dialog.closeResponse, "refuse", "Escape refuses")
            XCTAssertEqual(gtk_window_get_transient_for(dialog.window.pointer.cast(to: GtkWindow.self)).map { UnsafeMutableRawPointer($0) },
                           UnsafeMutableRawPointer(parent.window))
            // The code is the template's label, filled in by the confirmation.
            guard let code = dialog.extraChild.flatMap({ Label(checking: $0) }) else { return XCTFail("no code label") }
            XCTAssertEqual(code.text, "042 917")
            XCTAssertNotEqual(gtk_label_get_selectable(code.opaque), 0)
            XCTAssertNotEqual(gtk_widget_has_css_class(code.pointer, "comparison-code"), 0)

            dialog.respond("pair")
            XCTAssertEqual(answers.map(\.0), [request.id])
            XCTAssertEqual(answers.map(\.1), [true])
            confirmation.respond("refuse")
            XCTAssertEqual(answers.count, 1, "only the first answer counts")
            // As the page does once the model has the answer.
            confirmation.close()
            XCTAssertNil(confirmation.dialog)

            // Another request, from a device without a model; closing answers nothing.
            let other = PairingRequest(clientName: "Tablet", clientModel: "", comparisonCode: "123456", remoteAddress: "127.0.0.1")
            confirmation.open(other, over: parent.window)
            XCTAssertEqual(confirmation.dialog?.heading, "Pair with Tablet?")
            XCTAssertEqual(confirmation.dialog?.body.hasPrefix("Once paired, Tablet can see"), true)
            XCTAssertEqual(confirmation.dialog?.extraChild.flatMap { Label(checking: $0) }?.text, "123 456")
            confirmation.close()
            XCTAssertNil(confirmation.dialog)
            XCTAssertEqual(answers.count, 1)
        }
    }
}
