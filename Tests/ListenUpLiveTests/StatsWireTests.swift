import Foundation
import ListenUpAPI
import ListenUpKRPC
import ListenUpTestSupport
import Testing
@testable import ListenUpCore
@testable import ListenUpLive

/// Home's listening stats from servers that answer without a required key:
/// a protocol mismatch on both protocols, never a crash or invented zeros.
@Suite("Listening stats on the wire")
struct StatsWireTests {
    let logs = LogCapture()
    static let device = ListenUpAPI.DeviceInfo(deviceType: "desktop", platform: "Linux")

    static func outcome(_ body: @escaping @Sendable () async throws(ServerError) -> ListeningStats?) async throws
        -> Result<ListeningStats?, ServerError> {
        try await withDeadline {
            do throws(ServerError) {
                return .success(try await body())
            } catch {
                return .failure(error)
            }
        }
    }

    @Test(arguments: [
        // No totalSecondsAllTime.
        #"{"id":"u1","totalSecondsLast7Days":0,"totalSecondsLast30Days":0,"booksStarted":0,"booksFinished":0,"currentStreakDays":0,"longestStreakDays":0,"lastEventDate":null,"revision":3,"updatedAt":1,"createdAt":1,"deletedAt":null}"#,
        // currentStreakDays a string.
        #"{"id":"u1","totalSecondsAllTime":60,"totalSecondsLast7Days":0,"totalSecondsLast30Days":0,"booksStarted":0,"booksFinished":0,"currentStreakDays":"2","longestStreakDays":0,"lastEventDate":null,"revision":3,"updatedAt":1,"createdAt":1,"deletedAt":null}"#,
    ])
    func aKRPCStatsRowLackingAKeyIsAProtocolMismatch(_ row: String) async throws {
        let server = try await ScriptedKRPCServer.start { exchange in
            guard exchange.method == "pullDomain" else { return }
            let domain = exchange.argument("domain") ?? ""
            try await exchange.success(SyncPage(domain: domain, items: domain == "user_stats" ? [row] : [], nextCursor: 3, hasMore: false))
        }
        defer { Task { await server.stop() } }
        let client = KRPCServerConnection(baseURL: server.baseURL, session: Canned.storedSession(server.baseURL), transport: .live,
                                          sessions: .inMemory(), deviceInfo: Self.device, logger: logs.logger)
        let result = try await Self.outcome { () async throws(ServerError) in try await client.listeningStats(days: 7) }
        guard case .failure(.protocolMismatch) = result else {
            Issue.record("expected a protocol mismatch, got \(result)")
            return
        }
    }

    @Test(arguments: [
        // No total_listen_time_ms.
        #"{"period":"week","books_started":0,"books_finished":0,"current_streak_days":0,"longest_streak_days":0,"daily_listening":[],"genre_breakdown":[]}"#,
        // No period.
        #"{"total_listen_time_ms":0,"daily_listening":null,"genre_breakdown":null}"#,
        // A day without its date.
        #"{"period":"week","total_listen_time_ms":60000,"daily_listening":[{"listen_time_ms":60000}],"genre_breakdown":[]}"#,
    ])
    func aRESTStatsAnswerLackingAKeyIsAProtocolMismatch(_ data: String) async throws {
        let body = Data(#"{"v":1,"success":true,"data":\#(data)}"#.utf8)
        let server = try await HostileServer.start { request in
            request.path.hasPrefix("/api/v1/listening/stats") ? .respond(status: 200, contentType: "application/json", body: body)
                : .respond(status: 404, contentType: "text/plain", body: Data("404 page not found\n".utf8))
        }
        defer { Task { await server.stop() } }
        let client = APIClient(baseURL: server.baseURL, session: Canned.storedSession(server.baseURL), transport: .live,
                               sessions: .inMemory(), deviceInfo: Self.device, logger: logs.logger)
        let result = try await Self.outcome { () async throws(ServerError) in try await client.listeningStats(days: 7) }
        guard case .failure(.protocolMismatch) = result else {
            Issue.record("expected a protocol mismatch, got \(result)")
            return
        }
    }

    /// Go's nil slices arrive as null: an empty week, not an error.
    @Test func aRESTAnswerWithNullListsIsAnEmptyWeek() async throws {
        let body = Data(#"{"v":1,"success":true,"data":{"period":"week","total_listen_time_ms":0,"daily_listening":null,"genre_breakdown":null}}"#.utf8)
        let server = try await HostileServer.start { _ in .respond(status: 200, contentType: "application/json", body: body) }
        defer { Task { await server.stop() } }
        let client = APIClient(baseURL: server.baseURL, session: Canned.storedSession(server.baseURL), transport: .live,
                               sessions: .inMemory(), deviceInfo: Self.device, logger: logs.logger)
        let stats = try await client.listeningStats(days: 7)
        #expect(stats?.days == [] && stats?.topGenres == [] && stats?.totalSeconds == 0)
    }
}
