import CAdwaita
import Foundation
import GtkBridge
import ListenUpTestSupport
import Logging
import XCTest
@testable import ListenUpCore
@testable import ListenUpUI

/// Preferences → Signed-In Devices with a real template: a row per
/// session, Sign Out on the others only, Sign Out Everywhere Else, and no
/// group at all on a server that lists no sessions.
final class AccountSessionsGroupTests: XCTestCase {
    static let now = Date()

    func testTheOtherDevicesCanBeSignedOutAndThisOneIsMarked() throws {
        let server = try ScriptedServer(titles: [])
        server.sessionsListed.withLock {
            $0 = [AccountSession(id: "me", label: "ada-laptop", platform: "Linux", createdAt: Self.now, lastUsedAt: Self.now, isCurrent: true),
                  AccountSession(id: "phone", label: "Ada's phone", platform: "Android", createdAt: Self.now, lastUsedAt: Self.now,
                                 isCurrent: false),
                  AccountSession(id: "old", label: nil, platform: nil, createdAt: Self.now, lastUsedAt: Self.now, isCurrent: false)]
        }
        MainActor.assumeIsolated {
            guard requireGtk() else { return }
            MainContext.installDispatchBridge()
            let model = AccountSessionsModel(server: server, logger: quietLogger)
            let template = PageTemplates.load("preferences-window")
            let group = AccountSessionsGroup(sessions: { model }, template: template)
            defer { group.teardown(); template.child("root", as: Window.self).destroy() }
            XCTAssertTrue(MainContext.iterate(until: { group.listed.count == 3 }), "the sessions are read as the window opens")
            XCTAssertEqual(group.listed.map(\.name), ["ada-laptop", "Ada's phone", "Unknown Device"])
            XCTAssertEqual(group.listed.map(\.canSignOut), [false, true, true], "no Sign Out on this device")
            XCTAssertTrue(Widget(group.widget).isVisible)
            XCTAssertTrue(AccountSessionsGroup.detail(model.sessions?[0] ?? .init(id: "", label: nil, platform: nil, createdAt: .now,
                                                                                   lastUsedAt: .now, isCurrent: true))
                .hasPrefix("This device · Linux"))

            guard let phone = group.signOutButton(for: "phone") else { return XCTFail("no Sign Out for the phone") }
            emit("clicked", on: phone)
            XCTAssertTrue(MainContext.iterate(until: { group.listed.count == 2 }), "the phone is signed out")
            XCTAssertTrue(group.signOutOthersButton.isSensitive)
            emit("clicked", on: group.signOutOthersButton)
            XCTAssertTrue(MainContext.iterate(until: { group.listed.count == 1 }), "everywhere else")
            XCTAssertTrue(MainContext.iterate(until: { !group.signOutOthersButton.isSensitive }), "nothing left to sign out")
        }
    }

    func testAServerThatListsNoSessionsShowsNoGroup() throws {
        let server = try ScriptedServer(titles: [])
        MainActor.assumeIsolated {
            guard requireGtk() else { return }
            MainContext.installDispatchBridge()
            let model = AccountSessionsModel(server: server, logger: quietLogger)
            let template = PageTemplates.load("preferences-window")
            let group = AccountSessionsGroup(sessions: { model }, template: template)
            defer { group.teardown(); template.child("root", as: Window.self).destroy() }
            XCTAssertTrue(MainContext.iterate(until: { !model.isSupported }))
            XCTAssertFalse(Widget(group.widget).isVisible)
        }
    }
}
