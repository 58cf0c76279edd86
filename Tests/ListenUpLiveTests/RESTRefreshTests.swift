import Foundation
import ListenUpAPI
import ListenUpTestSupport
import Logging
import Testing
@testable import ListenUpCore
@testable import ListenUpLive

/// REST v1's refreshes through the shared ``SessionRefresher``, against a
/// loopback server: only the server's refusal of the refresh token ends
/// the session, and a token about to expire is refreshed before it is used.
@Suite("REST v1 refreshes")
struct RESTRefreshTests {
    let logs = LogCapture()
    static let device = ListenUpAPI.DeviceInfo(deviceType: "desktop", platform: "Linux", clientName: "ListenUp for Linux", clientVersion: "0.1.0")

    static func stored(_ url: URL, expiresIn lifetime: TimeInterval = 3_600) -> StoredSession {
        StoredSession(serverURL: url, accessToken: "access-1", refreshToken: "refresh-1", sessionID: "session-1", userID: "user-1",
                      displayName: "Ada", email: "ada@example.com", accessExpiresAt: Date().addingTimeInterval(lifetime))
    }

    static let status = Data(#"{"v":1,"success":true,"data":{"exists":true,"needs_setup":false,"book_count":7,"is_scanning":false}}"#.utf8)
    /// `auth_refresh_success.json`'s shape, with short tokens.
    static let renewed = Data([
        ##"{"v":1,"success":true,"data":{"access_token":"access-2","refresh_token":"refresh-2","##,
        ##""session_id":"session-1","token_type":"Bearer","expires_in":3600,"user":{"id":"user-1","##,
        ##""email":"ada@example.com","display_name":"Ada","first_name":"Ada","last_name":"L","is_root":true,"##,
        ##""created_at":"2026-04-28T16:21:40.733915204Z","updated_at":"2026-05-01T14:03:22.051871207Z","##,
        ##""last_login_at":"2026-05-01T14:03:22.051871096Z","avatar_type":"auto","avatar_color":"#82B6C9"}}}"##,
    ].joined().utf8)

    /// A server whose library status wants `access-2` and whose refresh answers `refresh`.
    static func server(refresh: HostileServer.Behavior) async throws -> HostileServer {
        try await HostileServer.start { request in
            if request.path.hasPrefix("/api/v1/auth/refresh") { return refresh }
            guard request.header("Authorization") == "Bearer access-2" else {
                return .respond(status: 401, contentType: "application/json", body: Data(#"{"v":1,"success":false,"error":"Authentication required"}"#.utf8))
            }
            return .respond(status: 200, contentType: "application/json", body: status)
        }
    }

    func client(_ server: HostileServer, session: StoredSession, sessions: SessionStore) -> APIClient {
        APIClient(baseURL: server.baseURL, session: session, transport: .live, sessions: sessions, deviceInfo: Self.device,
                  logger: logs.logger, timeout: .seconds(5))
    }

    @Test func aServerFailureOnRefreshLeavesTheSessionStanding() async throws {
        let server = try await Self.server(refresh: .respond(status: 500, contentType: "text/plain", body: Data("boom".utf8)))
        defer { Task { await server.stop() } }
        let stored = Self.stored(server.baseURL)
        let sessions = SessionStore.inMemory([stored])
        let api = client(server, session: stored, sessions: sessions)
        let lapses = LockedValue(0)
        await api.onSessionLapsed { lapses.withLock { $0 += 1 } }
        await #expect(throws: ServerError.server(status: 500, message: "HTTP 500")) { _ = try await api.libraryBookCount() }
        #expect(await api.currentSession == stored)
        #expect(await sessions.load(server.baseURL) == stored, "a server failure is not a refusal")
        #expect(lapses.value == 0)
    }

    @Test func aRefusedRefreshTokenEndsTheSession() async throws {
        let refusal = Data(#"{"v":1,"success":false,"error":"invalid or expired refresh token"}"#.utf8)
        let server = try await Self.server(refresh: .respond(status: 401, contentType: "application/json", body: refusal))
        defer { Task { await server.stop() } }
        let stored = Self.stored(server.baseURL)
        let sessions = SessionStore.inMemory([stored])
        let api = client(server, session: stored, sessions: sessions)
        let lapses = LockedValue(0)
        await api.onSessionLapsed { lapses.withLock { $0 += 1 } }
        await #expect(throws: ServerError.sessionLapsed) { _ = try await api.libraryBookCount() }
        #expect(await api.currentSession == nil)
        #expect(await sessions.load(server.baseURL) == nil)
        #expect(lapses.value == 1)
    }

    @Test func aTokenAboutToExpireIsRefreshedBeforeTheCall() async throws {
        let server = try await Self.server(refresh: .respond(status: 200, contentType: "application/json", body: Self.renewed))
        defer { Task { await server.stop() } }
        let stored = Self.stored(server.baseURL, expiresIn: 30)
        let sessions = SessionStore.inMemory([stored])
        let api = client(server, session: stored, sessions: sessions)
        #expect(try await api.libraryBookCount() == 7)
        #expect(server.requests.map(\.path) == ["/api/v1/auth/refresh", "/api/v1/library/status"],
                "refreshed first: no call with the old token, no 401")
        #expect(await sessions.load(server.baseURL)?.refreshToken == "refresh-2")
    }
}
