import Foundation
import Testing
@testable import ListenUpCore

/// An invite link handed to the app (the desktop, a second launch) while
/// someone is signed in: nothing changes until the user chooses to sign out.
@MainActor
@Suite("Invite links while signed in")
struct InviteLinkWhileSignedInTests {
    static let link = "listenup://join/Zm9vYmFyYmF6cXV4cXV1eA"

    func signedIn() throws -> AppNavigator {
        let navigator = AppNavigator(registry: .standard, dependencies: .test())
        navigator.update(.authenticated(Session.offline(serverURL: try #require(URL(string: "https://books.example:8443")),
                                                        userID: "u-1", displayName: "Ada Lovelace")))
        #expect(navigator.activeRoute == .library)
        return navigator
    }

    @Test func signedInTheLinkWaitsAndSaysWhoIsSignedIn() throws {
        let navigator = try signedIn()
        #expect(navigator.openInvite(link: Self.link) == .signedIn(server: "books.example:8443", account: "Ada Lovelace"))
        #expect(navigator.activeRoute == .library, "the session is kept")
        #expect(navigator.authState.session != nil)
    }

    @Test func signingOutForTheLinkOpensTheInviteAfterwards() async throws {
        let navigator = try signedIn()
        navigator.signOutAndOpen(invite: Self.link)
        for _ in 0..<400 where navigator.activeRoute != .invite { try await Task.sleep(for: .milliseconds(5)) }
        #expect(navigator.activeRoute == .invite)
        guard case .acceptingInvite(let start) = navigator.authState else {
            Issue.record("not accepting the invite: \(navigator.authState.name)")
            return
        }
        #expect(start.link == Self.link)
        #expect(navigator.authState.session == nil, "signed out first")

        // The link was used once: back on Sign in, no invite opens again.
        navigator.send(.inviteClosed)
        #expect(navigator.activeRoute == .login)
        navigator.update(.needsLogin(.closedLoopback))
        #expect(navigator.activeRoute == .login)
    }

    @Test func signedOutTheLinkOpensAtOnce() {
        let navigator = AppNavigator(registry: .standard, dependencies: .test())
        navigator.update(.needsLogin(.closedLoopback))
        #expect(navigator.openInvite(link: Self.link) == .opened)
        #expect(navigator.activeRoute == .invite)
    }
}
