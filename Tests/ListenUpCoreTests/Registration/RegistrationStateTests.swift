import Foundation
import Testing
@testable import ListenUpCore

/// Create Account, Waiting for Approval and Declined in the auth state
/// machine: where each registration event leads from each state, and what
/// a pending registration keeps (never its password).
@Suite("Registration states")
struct RegistrationStateTests {
    static let server = KnownServer.closedLoopback
    static let session = Session.offline(serverURL: URL(string: "http://127.0.0.1:9")!)
    static let pending = PendingRegistration(server: server, userID: "user-1", email: "ada@example.com",
                                             password: HeldPassword("analytical-engine"))

    static let states: [AuthState] = [
        .initializing, .needsServer, .needsAdminSetup(server), .needsLogin(server), .authenticated(session), .sessionLapsed(server, .sessionEnded),
        .creatingAccount(server), .awaitingApproval(pending), .registrationDeclined(server, message: "no"),
        .accountApproved(server, email: "ada@example.com", signInFailure: nil),
    ]
    static let events: [AuthEvent] = [
        .createAccount, .registrationPending(pending), .registrationApproved(email: "ada@example.com", signInFailure: nil),
        .registrationDeclined(message: "no"), .backToSignIn, .restoredPendingRegistration(pending), .signedIn(session), .changeServer,
    ]

    /// Every registration transition; everything else is refused (the
    /// older events keep their own table in AuthStateMachineTests).
    static func expected(_ state: AuthState, _ event: AuthEvent) -> AuthState? {
        switch (state, event) {
        case (.needsLogin, .createAccount), (.sessionLapsed, .createAccount), (.accountApproved, .createAccount):
            .creatingAccount(server)
        case (.creatingAccount, .registrationPending(let pending)): .awaitingApproval(pending)
        case (.awaitingApproval, .registrationApproved(let email, let failure)): .accountApproved(server, email: email, signInFailure: failure)
        case (.awaitingApproval, .registrationDeclined(let message)): .registrationDeclined(server, message: message)
        case (.creatingAccount, .backToSignIn), (.awaitingApproval, .backToSignIn), (.registrationDeclined, .backToSignIn):
            .needsLogin(server)
        case (.initializing, .restoredPendingRegistration(let pending)): .awaitingApproval(pending)
        case (.needsAdminSetup, .signedIn), (.needsLogin, .signedIn), (.sessionLapsed, .signedIn), (.creatingAccount, .signedIn),
             (.awaitingApproval, .signedIn), (.accountApproved, .signedIn):
            .authenticated(session)
        case (.needsAdminSetup, .changeServer), (.needsLogin, .changeServer), (.sessionLapsed, .changeServer),
             (.creatingAccount, .changeServer), (.registrationDeclined, .changeServer), (.accountApproved, .changeServer):
            .needsServer
        default: nil
        }
    }

    @Test(arguments: states)
    func everyRegistrationEventFromEveryState(_ state: AuthState) {
        for event in Self.events {
            #expect(state.applying(event) == Self.expected(state, event), "\(state.name) + \(event.name)")
        }
    }

    @Test func everyNewStateNamesItsServer() {
        for state in Self.states.suffix(4) {
            #expect(state.serverURL == Self.server.url, "\(state.name)")
        }
    }

    @Test func aSavedPendingRegistrationHasNoPassword() throws {
        let data = try JSONEncoder().encode(Self.pending)
        let text = try #require(String(data: data, encoding: .utf8))
        #expect(!text.contains("analytical-engine"), "\(text)")
        let read = try JSONDecoder().decode(PendingRegistration.self, from: data)
        #expect(read.password == nil)
        #expect(read.userID == "user-1" && read.email == "ada@example.com" && read.server == Self.server)
        #expect("\(Self.pending)".contains("analytical-engine") == false, "printing one never shows the password")
        #expect(String(reflecting: Self.pending).contains("analytical-engine") == false)
    }

    @Test func settingsKeepThePendingRegistrationWithoutItsPassword() throws {
        var settings = AppSettings()
        settings.pendingRegistration = Self.pending
        let data = try JSONEncoder().encode(settings)
        #expect(String(decoding: data, as: UTF8.self).contains("analytical-engine") == false)
        let read = try JSONDecoder().decode(AppSettings.self, from: data)
        #expect(read.pendingRegistration?.userID == "user-1")
        #expect(read.pendingRegistration?.password == nil)
        // A settings file from before registrations reads as none pending.
        let old = try JSONDecoder().decode(AppSettings.self, from: Data(#"{"serverURL":"http://127.0.0.1:9"}"#.utf8))
        #expect(old.pendingRegistration == nil)
    }
}
