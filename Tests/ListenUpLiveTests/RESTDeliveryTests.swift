import Foundation
import ListenUpAPI
import ListenUpTestSupport
import Logging
import Testing
@testable import ListenUpCore
@testable import ListenUpLive

/// REST v1's sign-in and setup are sent once: neither ``APIClient`` nor the
/// live transport (AsyncHTTPClient) sends a `POST` again after a timeout or
/// a connection lost once the request arrived. The user is told the server
/// did not answer in time and may try again.
@Suite("REST v1 sign-in is sent at most once")
struct RESTDeliveryTests {
    let logs = LogCapture()
    static let device = ListenUpAPI.DeviceInfo(deviceType: "desktop", platform: "Linux", clientName: "ListenUp for Linux", clientVersion: "0.1.0")

    private func client(_ server: HostileServer, timeout: Duration) -> APIClient {
        APIClient(baseURL: server.baseURL, session: nil, transport: .live, sessions: .inMemory(), deviceInfo: Self.device,
                  logger: logs.logger, timeout: timeout)
    }

    @Test func aLoginTheServerNeverAnswersIsPostedOnceAndTimesOut() async throws {
        let server = try await HostileServer.start { _ in .silent }
        defer { Task { await server.stop() } }
        let api = client(server, timeout: .seconds(1))
        do throws(ServerError) {
            _ = try await api.login(email: "ada@example.com", password: "analytical-engine")
            Issue.record("a silent server signed us in")
        } catch {
            #expect(error == .transport(.timedOut))
            #expect(error.userMessage.contains("didn't answer in time"))
        }
        try await Task.sleep(for: .milliseconds(500))
        #expect(server.requests.map { "\($0.method) \($0.path)" } == ["POST /api/v1/auth/login"])
    }

    @Test func aSetupTheServerNeverAnswersIsPostedOnceAndTimesOut() async throws {
        let server = try await HostileServer.start { _ in .silent }
        defer { Task { await server.stop() } }
        let api = client(server, timeout: .seconds(1))
        await #expect(throws: ServerError.transport(.timedOut)) {
            _ = try await api.setupAdmin(firstName: "Ada", lastName: "Lovelace", email: "ada@example.com", password: "analytical-engine")
        }
        try await Task.sleep(for: .milliseconds(500))
        #expect(server.requests.map { "\($0.method) \($0.path)" } == ["POST /api/v1/auth/setup"])
    }

    @Test func aLoginWhoseConnectionIsResetIsPostedOnce() async throws {
        let server = try await HostileServer.start { _ in .reset }
        defer { Task { await server.stop() } }
        let api = client(server, timeout: .seconds(5))
        await #expect(throws: ServerError.self) {
            _ = try await api.login(email: "ada@example.com", password: "analytical-engine")
        }
        try await Task.sleep(for: .milliseconds(500))
        #expect(server.requests.map { "\($0.method) \($0.path)" } == ["POST /api/v1/auth/login"])
    }
}
