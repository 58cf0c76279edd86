import Foundation
import Testing
@testable import ListenUpCore

/// How the core reaches a server client it cannot name: the composition
/// root's connectors, else the offline connection of previews and unit tests.
@Suite("Server connectors")
struct ServerConnectorTests {
    static let url = URL(string: "http://127.0.0.1:9")!
    static let stored = StoredSession(serverURL: url, accessToken: "a", refreshToken: "r", sessionID: "s", userID: "u",
                                      displayName: "Ada", email: "ada@example.com", accessExpiresAt: .distantFuture)

    /// A connector whose connections say, by their address, which connector made them.
    static func connector(_ label: String) -> Dependencies.ServerConnector {
        { _, session, dependencies in
            OfflineServerConnection(baseURL: URL(string: "http://\(label).invalid")!, session: session, sessions: dependencies.sessions)
        }
    }

    @Test func eachGenerationGoesToItsConnectorAndKRPCFallsBackToREST() async throws {
        var dependencies = Dependencies.test()
        dependencies.connectREST = Self.connector("rest")
        dependencies.connectKRPC = Self.connector("krpc")
        let rest = dependencies.connect(to: KnownServer(url: Self.url), session: Self.stored)
        #expect(rest.baseURL.host == "rest.invalid")
        #expect(await rest.currentSession == Self.stored, "the session reaches the connector")
        #expect(dependencies.connect(to: KnownServer(url: Self.url, generation: .krpc)).baseURL.host == "krpc.invalid")
        dependencies.connectKRPC = nil
        #expect(dependencies.connect(to: KnownServer(url: Self.url, generation: .krpc)).baseURL.host == "rest.invalid",
                "no kRPC client: talked to as REST v1")
    }

    @Test func withNoConnectorEveryServerIsOffline() async throws {
        let sessions = SessionStore.inMemory([Self.stored])
        let dependencies = Dependencies.test(sessions: sessions)
        let signedOut = dependencies.connect(to: KnownServer(url: Self.url))
        #expect(signedOut is OfflineServerConnection)
        await #expect(throws: ServerError.transport(.unreachable("offline"))) { _ = try await signedOut.login(email: "a@b.c", password: "secret-ish") }
        await #expect(throws: ServerError.sessionLapsed) { _ = try await signedOut.libraryBookCount() }

        let signedIn = dependencies.connect(to: KnownServer(url: Self.url, generation: .krpc), session: Self.stored)
        #expect(signedIn is OfflineServerConnection)
        await #expect(throws: ServerError.transport(.unreachable("offline"))) { _ = try await signedIn.libraryBookCount() }
        await #expect(throws: ServerError.transport(.unreachable("offline"))) {
            _ = try await signedIn.audioAccess(bookID: "b", fileIDs: ["f"], afterRefusal: false)
        }
        #expect(try await signedIn.accountPreferences() == nil)
        await signedIn.logout()
        #expect(await signedIn.currentSession == nil)
        #expect(await sessions.load(Self.url) == nil, "signing out forgets the saved session")
    }
}
