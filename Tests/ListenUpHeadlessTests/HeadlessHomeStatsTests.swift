import DemoServer
import Foundation
import Testing

/// Home's listening stats: the real `listenup --headless` against the demo
/// server, which counts them from listening seeded "from another device",
/// on both generations; then offline, the same stats from the cache.
@Suite("Headless Home stats", .serialized)
struct HeadlessHomeStatsTests {
    typealias Journey = HeadlessJourneyTests
    typealias Listening = HeadlessPlaybackTests
    typealias Browse = HeadlessBrowseTests

    static func stats(_ line: [String: Any]?) -> [String: Any] { line?["stats"] as? [String: Any] ?? [:] }

    /// Whether yesterday is in REST v1's week (ISO weeks start on Monday).
    static var yesterdayIsThisISOWeek: Bool { Calendar.current.component(.weekday, from: Date()) != 2 }

    @Test(arguments: [DemoProtocol.rest, .krpc])
    func homeShowsTheSeededListeningThenTheSameOffline(wire: DemoProtocol) async throws {
        let (server, url) = try await Browse.startServer(wire, books: 12)
        var stopped = false
        defer { if !stopped { Task { await server.stop() } } }
        let calendar = Calendar.current
        let now = Date()
        let today = calendar.startOfDay(for: now)
        // 35 minutes ending now (at 00:00:30 at the earliest: all of it today by its end), 20 yesterday at noon.
        let todayEnd = max(now.addingTimeInterval(-5), today.addingTimeInterval(30))
        let yesterdayNoon = try #require(calendar.date(byAdding: DateComponents(day: -1, hour: 12), to: today))
        #expect(server.seedListening(minutes: 35, endingAt: todayEnd) != nil)
        #expect(server.seedListening(minutes: 20, endingAt: yesterdayNoon) != nil)

        let home = FileManager.default.temporaryDirectory.appendingPathComponent("listenup-home-stats-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: home) }
        let app = try HeadlessProcess(home: home, environment: Listening.sink)
        app.send(#"{"action":"connect","url":"\#(url)"}"#)
        #expect(await app.waitForLine(Journey.onRoute("login")) != nil, "\(app.allLines)")
        app.send(#"{"action":"login","email":"ada@example.com","password":"analytical-engine"}"#)
        #expect(await app.waitForLine(Journey.librarySettled(12)) != nil, "\(app.allLines.suffix(3))")

        app.send(#"{"action":"home"}"#)
        let online = await app.waitForLine(Browse.event("home") { !Self.stats($0).isEmpty })
        let stats = Self.stats(online)
        let minutes = stats["minutesByDay"] as? [Int] ?? []
        #expect(minutes.count == 7, "\(online ?? [:])")
        #expect(minutes.last == 35, "today last: \(minutes)")
        if wire == .krpc || Self.yesterdayIsThisISOWeek {
            #expect(minutes.dropLast().last == 20, "yesterday: \(minutes)")
        }
        #expect(minutes.dropLast(2).allSatisfy { $0 == 0 }, "\(minutes)")
        #expect(stats["totalMinutes"] as? Int == 55)
        #expect((stats["streakDays"] as? Int ?? 0) >= 2, "\(stats)")
        #expect(stats["cached"] as? Bool == false)
        let recentlyAdded = online?["recentlyAdded"] as? [[String: Any]] ?? []
        #expect(recentlyAdded.count == 12, "\(online ?? [:])")
        app.send(#"{"action":"quit"}"#)
        #expect(await app.waitForExit() == 0)

        // Offline: the same stats, marked cached.
        await server.stop()
        stopped = true
        let offline = try HeadlessProcess(home: home, environment: Listening.sink)
        #expect(await offline.waitForLine(Journey.onRoute("library")) != nil)
        offline.send(#"{"action":"home"}"#)
        let cached = Self.stats(await offline.waitForLine(timeout: 30, Browse.event("home") { !Self.stats($0).isEmpty }))
        #expect(cached["cached"] as? Bool == true, "\(offline.allLines.suffix(2))")
        #expect(cached["minutesByDay"] as? [Int] == minutes)
        #expect(cached["totalMinutes"] as? Int == 55)
        #expect(cached["streakDays"] as? Int == stats["streakDays"] as? Int)
        offline.send(#"{"action":"quit"}"#)
        #expect(await offline.waitForExit() == 0)
    }
}
