import CAdwaita
import Foundation
import GtkBridge
import ListenUpCore
import XCTest
@testable import ListenUpUI

/// The real invite page in a real window, with a scripted server: paste a
/// link, Continue, the preview and the form, Create Account; an invite
/// that cannot be used; Back; and *Use an Invite…* on Sign in.
final class InvitePageTests: XCTestCase {
    static let code = "Jc4RcX2bQ4qhX2tI0b7Ypw"
    static let link = "https://link.listenup.audio/o?t=invite&server=http%3A%2F%2F127.0.0.1%3A9&code=\(code)"

    static func client(preview: InvitePreview, claims: LockedValue<[String]>) -> InviteClient {
        InviteClient(
            verify: { address in .success(VerifiedServer(url: address.url, instanceID: "lib-1", name: "Shelf", setupRequired: false,
                                                          generation: .krpc)) },
            lookUp: { _, _ in .success(preview) },
            claim: { server, claim in
                claims.withLock { $0.append(claim.displayName ?? "") }
                return .failure(.server(status: 400, message: "Choose a password of 8 to 1024 characters."))
            },
            remember: { _ in })
    }

    func testALinkShowsWhoInvitedYouAndTheFormClaimsIt() throws {
        MainActor.assumeIsolated {
            guard requireGtk() else { return }
            let events = LockedValue<[AuthEvent]>([])
            let claims = LockedValue<[String]>([])
            let invite = InvitePreview(displayName: "Grace Hopper", email: "grace@example.com", invitedByName: "Ada L", serverName: "Shelf")
            let model = InviteModel(start: InviteStart(), client: Self.client(preview: invite, claims: claims),
                                    send: { event in events.withLock { $0.append(event) } })
            let page = InvitePage(model: model)
            let window = TestWindow(child: page.widget, width: 700, height: 800)
            defer { page.teardown(); window.close() }

            XCTAssertEqual(gtk_widget_get_sensitive(page.continueButton.widget), 0, "nothing pasted")
            XCTAssertFalse(page.preview.isVisible)
            XCTAssertFalse(Widget(page.passwordField.widget).isVisible)
            gtk_editable_set_text(page.linkField.entry.opaque, Self.link)
            window.settle()
            XCTAssertEqual(model.linkText, Self.link)
            emit("clicked", on: page.continueButton.widget)
            MainContext.iterate(until: { model.status == .ready }, timeout: .seconds(5))
            window.settle()
            XCTAssertTrue(page.preview.isVisible)
            XCTAssertEqual(page.invitedBy.text, "Ada L invited you to Shelf.")
            XCTAssertTrue(page.account.text.contains("grace@example.com"))
            XCTAssertFalse(Widget(page.linkField.widget).isVisible, "the link is done with")
            XCTAssertEqual(page.nameField.text, "Grace Hopper", "prefilled")
            XCTAssertTrue(Widget(page.passwordField.widget).isVisible)
            XCTAssertEqual(gtk_widget_get_sensitive(page.claimButton.widget), 0, "no password yet")

            gtk_editable_set_text(page.passwordField.entry.opaque, "compiler-1952")
            window.settle()
            XCTAssertNotEqual(gtk_widget_get_sensitive(page.claimButton.widget), 0)
            emit("activate", on: page.passwordField.entry)
            MainContext.iterate(until: { if case .claimFailed = model.status { true } else { false } }, timeout: .seconds(5))
            window.settle()
            XCTAssertEqual(claims.value, ["Grace Hopper"])
            XCTAssertTrue(page.noticeRow.isVisible)
            XCTAssertEqual(page.noticeRow.text, "Choose a password of 8 to 1024 characters.")

            emit("clicked", on: page.backButton)
            XCTAssertEqual(events.value.last, .inviteClosed)
        }
    }

    func testAnInviteThatCannotBeUsedSaysWhyAndOffersAnotherLink() throws {
        MainActor.assumeIsolated {
            guard requireGtk() else { return }
            var invite = InvitePreview(displayName: "Grace", email: "grace@example.com", invitedByName: "Ada L", serverName: "Shelf")
            invite.problem = .expired
            let model = InviteModel(start: InviteStart(link: Self.link), client: Self.client(preview: invite, claims: LockedValue([])),
                                    send: { _ in })
            let page = InvitePage(model: model)
            let window = TestWindow(child: page.widget, width: 700, height: 800)
            defer { page.teardown(); window.close() }
            MainContext.iterate(until: { model.status == .unusable(.expired) }, timeout: .seconds(5))
            window.settle()
            XCTAssertEqual(page.noticeRow.text, InviteRefusal.expired.userMessage)
            XCTAssertTrue(page.preview.isVisible, "who invited you is still shown")
            XCTAssertFalse(Widget(page.passwordField.widget).isVisible)
            XCTAssertTrue(page.anotherLinkButton.isVisible)
            emit("clicked", on: page.anotherLinkButton)
            window.settle()
            XCTAssertEqual(model.status, .editing)
            XCTAssertTrue(Widget(page.linkField.widget).isVisible)
        }
    }

    func testSignInAndServerSetupOfferAnInvite() throws {
        MainActor.assumeIsolated {
            guard requireGtk() else { return }
            let events = LockedValue<[AuthEvent]>([])
            let login = LoginPage(model: LoginModel(server: KnownServer(url: URL(fileURLWithPath: "/")), dependencies: .test(),
                                                    send: { event in events.withLock { $0.append(event) } }))
            let window = TestWindow(child: login.widget, width: 700, height: 800)
            defer { login.teardown(); window.close() }
            XCTAssertTrue(login.inviteButton.isVisible)
            emit("clicked", on: login.inviteButton)
            XCTAssertEqual(events.value.last, .inviteOpened(link: nil))

            let setupEvents = LockedValue<[AuthEvent]>([])
            let dependencies = Dependencies.test()
            let setup = ServerSetupPage(model: ServerSetupModel(environment: .init(
                verifier: dependencies.verifier, discovery: .fixed([]), settings: .inMemory(),
                send: { event in setupEvents.withLock { $0.append(event) } }), browse: false))
            defer { setup.teardown() }
            emit("clicked", on: setup.inviteButton)
            XCTAssertEqual(setupEvents.value.last, .inviteOpened(link: nil))
        }
    }
}
