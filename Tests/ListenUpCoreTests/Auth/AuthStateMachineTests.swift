import Foundation
import Testing
@testable import ListenUpCore

@Suite("Auth state machine")
struct AuthStateMachineTests {
    static let address = try! ServerAddress.parse("listenup.example.com").get()
    static let other = try! ServerAddress.parse("10.0.0.2:8080").get()
    static let session = Session.offline(serverURL: URL(string: "https://listenup.example.com")!)

    static let states: [AuthState] = [
        .initializing, .needsServer, .checkingServer(address), .needsAdminSetup(.closedLoopback), .needsLogin(.closedLoopback),
        .authenticated(session), .sessionLapsed(.closedLoopback, .sessionEnded),
        .acceptingInvite(InviteStart()), .acceptingInvite(InviteStart(link: "x", knownServer: .closedLoopback)),
    ]
    static let events: [AuthEvent] = [
        .restored(server: nil, session: nil), .restored(server: address, session: nil), .restored(server: address, session: session),
        .serverChosen(other), .serverVerified(.sample(setupRequired: true)), .serverVerified(.sample(setupRequired: false)),
        .serverCheckFailed, .signedIn(session), .adminAlreadyExists, .sessionRefused(.sessionEnded),
        .sessionRefused(.accountRemoved(reason: "gone")), .signedOut, .changeServer,
        .serverChangedGeneration(.sample(setupRequired: false)), .serverChangedGeneration(.sample(setupRequired: true)),
        .inviteOpened(link: nil), .inviteOpened(link: "listenup://join/abc"), .inviteClosed,
    ]

    /// Every transition the app allows; everything else must be refused.
    static func expected(_ state: AuthState, _ event: AuthEvent) -> AuthState? {
        switch (state, event) {
        case (.initializing, .restored(nil, nil)): .needsServer
        case (.initializing, .restored(.some, nil)): .checkingServer(address)
        case (.initializing, .restored(.some, .some)): .authenticated(session)
        case (.needsServer, .serverChosen), (.checkingServer, .serverChosen): .checkingServer(other)
        case (.checkingServer, .serverVerified(let server)) where server.setupRequired: .needsAdminSetup(KnownServer(server))
        case (.checkingServer, .serverVerified(let server)): .needsLogin(KnownServer(server))
        case (.checkingServer, .serverCheckFailed): .needsServer
        case (.needsAdminSetup, .signedIn), (.needsLogin, .signedIn), (.sessionLapsed, .signedIn): .authenticated(session)
        case (.needsAdminSetup(let server), .adminAlreadyExists): .needsLogin(server)
        // The session's server travels on to Sign in.
        case (.authenticated, .sessionRefused(let notice)): .sessionLapsed(session.server, notice)
        case (.authenticated, .signedOut): .needsLogin(session.server)
        case (.needsAdminSetup, .changeServer), (.needsLogin, .changeServer), (.sessionLapsed, .changeServer): .needsServer
        // The server as it is now: the session belonged to its old generation.
        case (.authenticated, .serverChangedGeneration(let server)) where server.setupRequired: .needsAdminSetup(KnownServer(server))
        case (.authenticated, .serverChangedGeneration(let server)): .sessionLapsed(KnownServer(server), .serverUpdated)
        // An invite starts from any signed-out screen, with the server known there (none while checking one).
        case (.needsServer, .inviteOpened(let link)), (.checkingServer, .inviteOpened(let link)): .acceptingInvite(InviteStart(link: link))
        case (.needsAdminSetup(let server), .inviteOpened(let link)), (.needsLogin(let server), .inviteOpened(let link)),
             (.sessionLapsed(let server, _), .inviteOpened(let link)):
            .acceptingInvite(InviteStart(link: link, knownServer: server))
        case (.acceptingInvite, .signedIn): .authenticated(session)
        case (.acceptingInvite(let start), .inviteClosed): start.knownServer.map(AuthState.needsLogin) ?? .needsServer
        default: nil
        }
    }

    @Test(arguments: states)
    func everyEventFromEveryState(_ state: AuthState) {
        for event in Self.events {
            #expect(state.applying(event) == Self.expected(state, event), "\(state.name) + \(event)")
        }
    }

    @Test func aSessionWithoutAServerIsNotRestored() {
        #expect(AuthState.initializing.applying(.restored(server: nil, session: Self.session)) == .needsServer)
    }

    @Test func theFirstJourneyLeadsToTheLibrary() {
        var state = AuthState.initializing
        for event: AuthEvent in [.restored(server: nil, session: nil), .serverChosen(Self.address), .serverVerified(.sample(setupRequired: true)), .signedIn(Self.session)] {
            guard let next = state.applying(event) else {
                Issue.record("\(event) refused in \(state.name)")
                return
            }
            state = next
        }
        #expect(state == .authenticated(Self.session))
    }
}

@Suite("A server that changed generation")
struct ServerGenerationCheckTests {
    @Test func onlyAnswersAServerOfTheOtherGenerationWouldGiveStartACheck() {
        for error: ServerError in [.server(status: 404, message: ""), .server(status: 400, message: ""),
                                      .server(status: 405, message: ""), .server(status: 426, message: ""),
                                      .protocolMismatch("not the envelope")] {
            #expect(ServerGenerationCheck.suggestsAnotherGeneration(error), "\(error)")
        }
        for error: ServerError in [.transport(.unreachable("down")), .transport(.timedOut), .server(status: 401, message: ""),
                                      .server(status: 403, message: ""), .server(status: 500, message: ""), .sessionLapsed,
                                      .rateLimited, .serverNewer("X")] {
            #expect(!ServerGenerationCheck.suggestsAnotherGeneration(error), "\(error)")
        }
    }
}
