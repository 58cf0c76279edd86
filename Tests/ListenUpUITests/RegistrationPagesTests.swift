import CAdwaita
import Foundation
import GtkBridge
import XCTest
@testable import ListenUpCore
@testable import ListenUpUI

/// Create Account, Waiting for Approval and Declined as real pages in a real
/// window, and Sign in's *Create Account…*: shown only where the server
/// takes accounts; typing reaches the model, errors show under their
/// fields, and each way back sends its event.
final class RegistrationPagesTests: XCTestCase {
    func testSignInOffersCreateAccountOnlyWhereTheServerTakesAccounts() {
        MainActor.assumeIsolated {
            guard requireGtk() else { return }
            let events = LockedValue<[AuthEvent]>([])
            let model = LoginModel(server: nil, dependencies: .test(), send: { event in events.withLock { $0.append(event) } })
            let page = LoginPage(model: model)
            let window = TestWindow(child: page.widget, width: 600, height: 700)
            defer { page.teardown(); window.close() }
            XCTAssertFalse(Widget(page.createAccountButton.pointer).isVisible, "hidden until the server says")
            model.showForPreview(email: "", password: false, status: .editing, registration: .closed)
            window.settle()
            XCTAssertFalse(Widget(page.createAccountButton.pointer).isVisible)
            model.showForPreview(email: "", password: false, status: .editing, registration: .approval)
            window.settle()
            XCTAssertTrue(Widget(page.createAccountButton.pointer).isVisible)
            emit("clicked", on: page.createAccountButton)
            XCTAssertEqual(events.value, [.createAccount])
        }
    }

    func testCreateAccountChecksItsFieldsAndGoesBack() {
        MainActor.assumeIsolated {
            guard requireGtk() else { return }
            let events = LockedValue<[AuthEvent]>([])
            let model = CreateAccountModel(server: .init(url: URL(string: "http://127.0.0.1:9")!), dependencies: .test(),
                                           send: { event in events.withLock { $0.append(event) } })
            let page = CreateAccountPage(model: model)
            let window = TestWindow(child: page.widget, width: 600, height: 800)
            defer { page.teardown(); window.close() }
            let name = page.fields[.displayName], email = page.fields[.email], password = page.fields[.password]
            gtk_editable_set_text(name?.entry.opaque, "Grace Hopper")
            gtk_editable_set_text(email?.entry.opaque, "grace@")
            gtk_editable_set_text(password?.entry.opaque, "short")
            window.settle()
            XCTAssertEqual(model.displayName, "Grace Hopper")
            XCTAssertEqual(model.passwordLength, 5)
            emit("clicked", on: page.createButton.widget)
            window.settle()
            XCTAssertEqual(model.status, .editing, "an invalid form is not sent")
            XCTAssertEqual(email?.errorLabel.isVisible, true)
            XCTAssertEqual(password?.errorLabel.text, "Use at least 8 characters.")
            XCTAssertEqual(name?.errorLabel.isVisible, false)
            emit("clicked", on: page.backButton)
            XCTAssertEqual(events.value, [.backToSignIn])
        }
    }

    func testWaitingShowsTheAccountAndCancelGoesBack() {
        MainActor.assumeIsolated {
            guard requireGtk() else { return }
            let events = LockedValue<[AuthEvent]>([])
            let model = AwaitingApprovalModel(pending: nil, dependencies: .test(), send: { event in events.withLock { $0.append(event) } })
            model.showForPreview(status: .waiting, problem: "Couldn't reach the server.")
            let page = AwaitingApprovalPage(model: model)
            let window = TestWindow(child: page.widget, width: 600, height: 700)
            defer { page.teardown(); window.close() }
            XCTAssertTrue(page.emailLabel.text.contains("ada@example.com"))
            XCTAssertTrue(page.noticeRow.isVisible)
            XCTAssertTrue(page.spinner.isSpinning)
            emit("clicked", on: page.cancelButton)
            XCTAssertEqual(events.value, [.backToSignIn])
        }
    }

    func testDeclinedShowsTheReasonAndGoesBack() {
        MainActor.assumeIsolated {
            guard requireGtk() else { return }
            let events = LockedValue<[AuthEvent]>([])
            let model = RegistrationDeclinedModel(server: nil, reason: "Family only.", send: { event in events.withLock { $0.append(event) } })
            let page = RegistrationDeclinedPage(model: model)
            let window = TestWindow(child: page.widget, width: 600, height: 700)
            defer { page.teardown(); window.close() }
            XCTAssertEqual(page.reasonLabel.text, "Reason: Family only.")
            XCTAssertTrue(Widget(page.reasonLabel.pointer).isVisible)
            emit("clicked", on: page.backButton.widget)
            XCTAssertEqual(events.value, [.backToSignIn])
        }
    }
}
