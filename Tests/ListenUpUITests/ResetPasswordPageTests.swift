import CAdwaita
import Foundation
import GtkBridge
import XCTest
@testable import ListenUpCore
@testable import ListenUpUI

/// Reset Password as a real page in a real window, and Sign in's *Forgot
/// Password?*: shown only where the server can reset passwords; each step
/// shows its own fields; typing reaches the model; an ended request says
/// why; Back to Sign In sends its event.
final class ResetPasswordPageTests: XCTestCase {
    static let krpc = KnownServer(url: URL(string: "http://127.0.0.1:9")!, generation: .krpc)

    func testSignInOffersTheResetOnlyWhereTheServerCan() {
        MainActor.assumeIsolated {
            guard requireGtk() else { return }
            let events = LockedValue<[AuthEvent]>([])
            let rest = LoginModel(server: KnownServer(url: Self.krpc.url, generation: .restV1), dependencies: .test(), send: { _ in })
            let restPage = LoginPage(model: rest)
            let model = LoginModel(server: Self.krpc, dependencies: .test(), send: { event in events.withLock { $0.append(event) } })
            let page = LoginPage(model: model)
            let window = TestWindow(child: page.widget, width: 600, height: 700)
            defer { page.teardown(); restPage.teardown(); window.close(); rest.deactivate(); model.deactivate() }
            window.settle()
            XCTAssertFalse(Widget(restPage.forgotPasswordButton.pointer).isVisible, "REST v1 has no password reset")
            XCTAssertTrue(Widget(page.forgotPasswordButton.pointer).isVisible)
            gtk_editable_set_text(page.emailField.entry.opaque, "ada@example.com")
            window.settle()
            emit("clicked", on: page.forgotPasswordButton)
            XCTAssertEqual(events.value, [.forgotPassword(email: "ada@example.com")])
        }
    }

    func testEachStepShowsItsFields() {
        MainActor.assumeIsolated {
            guard requireGtk() else { return }
            let events = LockedValue<[AuthEvent]>([])
            let model = ResetPasswordModel(server: Self.krpc, email: "ada@", dependencies: .test(),
                                           send: { event in events.withLock { $0.append(event) } })
            let page = ResetPasswordPage(model: model)
            let window = TestWindow(child: page.widget, width: 600, height: 800)
            defer { page.teardown(); window.close(); model.deactivate() }
            window.settle()
            XCTAssertTrue(Widget(page.fields[.email]?.widget ?? page.widget).isVisible)
            XCTAssertFalse(Widget(page.fields[.code]?.widget ?? page.widget).isVisible)
            emit("clicked", on: page.primaryButton.widget)
            window.settle()
            XCTAssertEqual(model.step, .enterEmail, "an invalid email is not sent")
            XCTAssertEqual(page.fields[.email]?.errorLabel.isVisible, true)

            model.showForPreview(step: .waiting)
            window.settle()
            XCTAssertTrue(page.spinner.isSpinning)
            XCTAssertFalse(Widget(page.fields[.email]?.widget ?? page.widget).isVisible)
            XCTAssertFalse(Widget(page.primaryButton.widget).isVisible, "nothing to press while an administrator decides")

            model.observe(.approved)
            window.settle()
            XCTAssertEqual(model.step, .enterCode)
            XCTAssertTrue(Widget(page.fields[.code]?.widget ?? page.widget).isVisible)
            XCTAssertEqual(page.primaryButton.title, "Change Password")
            gtk_editable_set_text(page.fields[.code]?.entry.opaque, "abcd-2345")
            gtk_editable_set_text(page.fields[.password]?.entry.opaque, "difference-engine")
            gtk_editable_set_text(page.fields[.confirmation]?.entry.opaque, "difference")
            window.settle()
            XCTAssertEqual(model.code, "abcd-2345")
            XCTAssertEqual(model.passwordLength, 17)
            emit("clicked", on: page.primaryButton.widget)
            window.settle()
            XCTAssertEqual(page.fields[.confirmation]?.errorLabel.text, "The passwords don't match.")

            model.observe(.denied)
            window.settle()
            XCTAssertEqual(page.noticeRow.text, "An administrator denied this reset. Ask them, then start again.")
            XCTAssertEqual(page.primaryButton.title, "Start Again")
            emit("clicked", on: page.backButton)
            XCTAssertEqual(events.value, [.backToSignIn])
        }
    }
}
