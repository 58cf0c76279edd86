import DemoServer
import Foundation
import ListenUpAPI
import ListenUpCore
import ListenUpKRPC
import ListenUpLive
import ListenUpTestSupport
import Testing

/// The demo server's listening stats through the real clients on loopback,
/// over both protocols: seeded listening (not bound to real time beyond
/// "today") gives the expected day buckets, streak and total; the Go
/// server's periods and its error for an unknown one; the kRPC row's
/// revision, scope and `getStats`.
@Suite("Listening stats on the demo server")
struct ListeningStatsTests {
    let logs = LogCapture()
    static let email = "ada@example.com", password = "analytical-engine"
    static let device = ListenUpAPI.DeviceInfo(deviceType: "desktop", platform: "Linux")

    /// A realistic library served over `wire`, and a client signed in to it.
    func signedIn(_ wire: DemoProtocol) async throws -> (DemoServer, any ServerConnection, StoredSession, Int) {
        var configuration = DemoServer.Configuration()
        configuration.bookCount = 20
        configuration.protocol = wire
        configuration.payload = .realistic
        configuration.admin = .init(email: Self.email, password: Self.password)
        let server = DemoServer(configuration: configuration, logger: logs.logger)
        let port = try await server.start()
        let url = try #require(server.baseURL)
        switch wire {
        case .rest:
            let login = APIClient(baseURL: url, session: nil, transport: .live, sessions: .inMemory(), deviceInfo: Self.device,
                                  logger: logs.logger)
            let session = try await login.login(email: Self.email, password: Self.password)
            return (server, APIClient(baseURL: url, session: session, transport: .live, sessions: .inMemory(), deviceInfo: Self.device,
                                      logger: logs.logger), session, port)
        case .krpc:
            let connection = KRPCServerConnection(baseURL: url, session: nil, transport: .live, sessions: .inMemory(),
                                                  deviceInfo: Self.device, logger: logs.logger)
            let session = try await connection.login(email: Self.email, password: Self.password)
            return (server, connection, session, port)
        }
    }

    static func day(_ date: Date) -> String { ListeningStats.dayString(date, calendar: .current) }

    /// Noon `back` days before today, local time.
    static func noon(daysAgo back: Int) throws -> Date {
        let calendar = Calendar.current
        let today = calendar.startOfDay(for: Date())
        return try #require(calendar.date(byAdding: DateComponents(day: -back, hour: 12), to: today))
    }

    @Test(arguments: [DemoProtocol.rest, .krpc])
    func seededListeningGivesDaysStreakAndTotal(_ wire: DemoProtocol) async throws {
        let (server, client, _, _) = try await signedIn(wire)
        defer { Task { await server.stop() } }
        let empty = try #require(try await client.listeningStats(days: 7))
        #expect(empty.totalSeconds == 0 && empty.currentStreakDays == 0 && empty.days.isEmpty)

        let now = Date()
        // Today (ending a minute ago, or at 00:00:30 just after midnight), yesterday, and four days ago.
        let todayEnd = max(now.addingTimeInterval(-60), Calendar.current.startOfDay(for: now).addingTimeInterval(30))
        #expect(server.seedListening(minutes: 35, endingAt: todayEnd) != nil)
        #expect(server.seedListening(minutes: 20, endingAt: try Self.noon(daysAgo: 1)) != nil)
        #expect(server.seedListening(minutes: 10, endingAt: try Self.noon(daysAgo: 4)) != nil)
        #expect(server.seedListening(email: "nobody@example.com", minutes: 5) == nil)

        let stats = try #require(try await client.listeningStats(days: 7))
        #expect(stats.totalSeconds == 65 * 60)
        #expect(stats.currentStreakDays == 2)
        #expect(stats.longestStreakDays == 2)
        let byDay = Dictionary(uniqueKeysWithValues: stats.days.map { ($0.date, $0.seconds) })
        #expect(byDay[Self.day(todayEnd)] == Int64(35 * 60))
        // REST v1 counts the ISO week from Monday; kRPC the last 7 days.
        let weekStart = try Self.mondayOfThisWeek()
        for (back, minutes) in [(1, 20), (4, 10)] {
            let noon = try Self.noon(daysAgo: back)
            let expected: Int64? = wire == .krpc || noon >= weekStart ? Int64(minutes * 60) : nil
            #expect(byDay[Self.day(noon)] == expected, "\(back) days ago")
        }
        #expect(stats.days.map(\.date) == stats.days.map(\.date).sorted())
        if wire == .rest {
            // The books' genres (realistic payload): at most five, the most listened first.
            #expect(!stats.topGenres.isEmpty && stats.topGenres.count <= 5)
            #expect(stats.topGenres.map(\.seconds) == stats.topGenres.map(\.seconds).sorted(by: >))
        }
    }

    static func mondayOfThisWeek() throws -> Date {
        let calendar = Calendar.current
        let today = calendar.startOfDay(for: Date())
        let weekday = calendar.component(.weekday, from: today)
        return try #require(calendar.date(byAdding: .day, value: -((weekday + 5) % 7), to: today))
    }

    /// A streak day needs 30 s on REST v1 (content time); kRPC counts any
    /// event day, and its windows are rolling.
    @Test(arguments: [DemoProtocol.rest, .krpc])
    func aShortDayDoesNotBreakOrMakeAStreakTheSameWay(_ wire: DemoProtocol) async throws {
        let (server, client, _, _) = try await signedIn(wire)
        defer { Task { await server.stop() } }
        // Yesterday only: a streak of one that still counts today.
        server.seedListening(minutes: 1, endingAt: try Self.noon(daysAgo: 1))
        server.seedListening(minutes: 3, endingAt: try Self.noon(daysAgo: 2))
        let stats = try #require(try await client.listeningStats(days: 7))
        #expect(stats.currentStreakDays == 2 && stats.longestStreakDays == 2)
        #expect(stats.totalSeconds == 4 * 60)
    }

    // MARK: REST v1

    func get(port: Int, _ path: String, token: String) async throws -> (Int, [String: Any]) {
        let response = try await KRPCTestHTTP.request(port: port, path: path, headers: [("Authorization", "Bearer \(token)")])
        return (response.status, try #require(try JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any]))
    }

    @Test func restAnswersEveryPeriodLikeTheGoServer() async throws {
        let (server, _, session, port) = try await signedIn(.rest)
        defer { Task { await server.stop() } }
        // Both on the first book.
        server.seedListening(minutes: 2, endingAt: Date().addingTimeInterval(-30))
        server.seedListening(minutes: 1, endingAt: Date().addingTimeInterval(-400 * 86_400))
        #expect(server.seedListening(bookID: "no-such-book", minutes: 1) == nil)
        for (period, total) in [("day", 120_000), ("week", 120_000), ("month", 120_000), ("year", 120_000), ("all", 180_000)] {
            let (status, body) = try await get(port: port, "/api/v1/listening/stats?period=\(period)", token: session.accessToken)
            #expect(status == 200)
            let data = try #require(body["data"] as? [String: Any])
            #expect(data["period"] as? String == period)
            #expect((data["total_listen_time_ms"] as? NSNumber)?.int64Value == Int64(total), "\(period)")
            #expect((data["streak_calendar"] as? [Any])?.count == 84)
            let days = try #require(data["daily_listening"] as? [[String: Any]])
            #expect((days.last?["books_listened"] as? NSNumber)?.intValue == 1)
            #expect((data["current_streak_days"] as? NSNumber)?.intValue == 1 && (data["longest_streak_days"] as? NSNumber)?.intValue == 1)
            #expect((data["books_started"] as? NSNumber)?.intValue == 0 && (data["books_finished"] as? NSNumber)?.intValue == 0)
            let start = try #require(data["start_date"] as? String)
            #expect(period == "all" ? start == "0001-01-01T00:00:00Z" : start.count >= 20)
            let genres = try #require(data["genre_breakdown"] as? [[String: Any]])
            #expect(genres.count <= 5 && !genres.isEmpty)
            let share = genres.compactMap { ($0["percentage"] as? NSNumber)?.doubleValue }.reduce(0, +)
            #expect(abs(share - 100) < 0.001 || genres.count == 5)
            #expect(genres.allSatisfy { ($0["genre_slug"] as? String)?.contains(" ") == false && $0["genre_name"] is String })
        }
        let (fallback, week) = try await get(port: port, "/api/v1/listening/stats", token: session.accessToken)
        #expect(fallback == 200 && (week["data"] as? [String: Any])?["period"] as? String == "week")
        let (status, error) = try await get(port: port, "/api/v1/listening/stats?period=fortnight", token: session.accessToken)
        #expect(status == 422)
        #expect(error["error"] as? String == #"expected value to be one of "day, week, month, year, all" (query.period: fortnight)"#)
        #expect(error["success"] as? Bool == false)
        let unauthorized = try await KRPCTestHTTP.request(port: port, path: "/api/v1/listening/stats")
        #expect(unauthorized.status == 401)
    }

    // MARK: kRPC

    @Test func kRPCKeepsOneRowPerUserWithANewRevisionWhenItChanges() async throws {
        let (server, client, session, port) = try await signedIn(.krpc)
        defer { Task { await server.stop() } }
        let authed = try await KRPCTestSession.open(port: port, mount: .authed, bearer: session.accessToken)
        let getStats = KRPCMethod(service: .playbackService, name: "getStats")
        #expect(try await authed.value(getStats, as: UserStatsSyncPayload?.self) == nil, "no row before the first listening")
        #expect(server.storedUserStats() == nil)

        server.seedListening(minutes: 15, endingAt: Date().addingTimeInterval(-10))
        let first = try #require(server.storedUserStats())
        #expect(first.id == session.userID && first.totalSecondsAllTime == 900 && first.totalSecondsLast7Days == 900)
        #expect(first.booksStarted == 1 && first.currentStreakDays == 1 && first.lastEventDate != nil)
        let answered = try await authed.value(getStats, as: UserStatsSyncPayload.self)
        #expect(answered == first)

        let arguments = try KRPCTestSession.arguments(PullDomainArguments(domain: "user_stats", since: 0, limit: 10))
        let page = try await authed.value(.pullDomain, arguments, as: SyncPage.self)
        let rows = try page.decodeItems(as: UserStatsSyncPayload.self)
        #expect(rows == [first], "healing an unchanged row keeps its revision")

        server.seedListening(minutes: 5, endingAt: try Self.noon(daysAgo: 1))
        let second = try #require(server.storedUserStats())
        #expect(second.revision > first.revision && second.totalSecondsAllTime == 1200 && second.currentStreakDays == 2)
        #expect(second.createdAt == first.createdAt)
        let after = try KRPCTestSession.arguments(PullDomainArguments(domain: "user_stats", since: first.revision, limit: 10))
        #expect(try await authed.value(.pullDomain, after, as: SyncPage.self).decodeItems(as: UserStatsSyncPayload.self) == [second])
        // The client reads the same row.
        let stats = try #require(try await client.listeningStats(days: 7))
        #expect(stats.totalSeconds == 1200 && stats.currentStreakDays == 2)
        await authed.socket.close()
    }

    /// A finish re-derives the row (its day is a streak day, the count
    /// grows); a position write alone waits for the next event or finish.
    @Test func kRPCRederivesOnAFinishNotOnAPositionWrite() async throws {
        let (server, _, _, _) = try await signedIn(.krpc)
        defer { Task { await server.stop() } }
        server.seedListening(minutes: 5, endingAt: try Self.noon(daysAgo: 2))
        let first = try #require(server.storedUserStats())
        #expect(first.currentStreakDays == 0 && first.longestStreakDays == 1 && first.booksFinished == 0)
        let book = "book-000000000000000000002"
        server.recordPositionFromAnotherDevice(bookID: book, positionMs: 60_000, finished: false, lastPlayedAt: try Self.noon(daysAgo: 1))
        #expect(server.storedUserStats() == first, "a position write alone leaves the row")
        server.recordPositionFromAnotherDevice(bookID: book, positionMs: 60_000, finished: true, lastPlayedAt: Date())
        let finished = try #require(server.storedUserStats())
        #expect(finished.revision > first.revision && finished.booksFinished == 1)
        // Days: two days ago (event), today (the position's lastPlayedAt and the finish).
        #expect(finished.currentStreakDays == 1 && finished.longestStreakDays == 1)
        server.seedListening(minutes: 1, endingAt: try Self.noon(daysAgo: 1))
        #expect(server.storedUserStats()?.currentStreakDays == 3)
    }

    /// Rolling windows clip a span that straddles the cutoff; old listening
    /// counts in the all-time total only.
    @Test func kRPCWindowsAreRollingAndClipped() async throws {
        let (server, _, _, _) = try await signedIn(.krpc)
        defer { Task { await server.stop() } }
        // Ends 7 days minus 5 minutes ago, began 7 days plus 5 minutes ago.
        server.seedListening(minutes: 10, endingAt: Date().addingTimeInterval(-7 * 86_400 + 300))
        server.seedListening(minutes: 30, endingAt: Date().addingTimeInterval(-40 * 86_400))
        let row = try #require(server.storedUserStats())
        #expect(row.totalSecondsAllTime == 2400)
        #expect((295...300).contains(row.totalSecondsLast7Days), "\(row.totalSecondsLast7Days)")
        #expect(row.totalSecondsLast30Days == 600)
        #expect(row.currentStreakDays == 0 && row.longestStreakDays == 1)
    }
}
