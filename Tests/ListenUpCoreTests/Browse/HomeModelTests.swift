import Foundation
import ListenUpAPI
@testable import ListenUpCore
import ListenUpTestSupport
import Testing

/// Home's stats: the server's, shown as the week's bars, kept for an
/// offline start; genres counted from the books listened to when the
/// server does not count them.
@MainActor @Suite("Home")
struct HomeModelTests {
    nonisolated static let calendar: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "Europe/Berlin") ?? .gmt
        return calendar
    }()
    /// Thursday 2026-11-26, 10:00 in Berlin.
    nonisolated static let today = Date(timeIntervalSince1970: 1_795_683_600)

    func model(_ server: ScriptedServer, store: InMemoryLibraryStore) -> HomeModel {
        let home = HomeModel(dependencies: .test(), server: server, store: store, library: nil)
        home.now = { Self.today }
        home.calendar = Self.calendar
        return home
    }

    func refreshed(_ home: HomeModel) async throws {
        let before = home.refreshes
        home.refresh()
        for _ in 0..<400 where home.refreshes == before { try await Task.sleep(for: .milliseconds(5)) }
        try #require(home.refreshes > before)
    }

    @Test func theWeeksBarsTotalsAndGenresFromTheBooksListenedTo() async throws {
        let store = InMemoryLibraryStore()
        try store.apply(BrowseStoreTests.library, deleting: [], state: LibrarySyncState())
        let server = try ScriptedServer(titles: [])
        await server.setStats(ListeningStats(totalSeconds: 90_000, currentStreakDays: 3, longestStreakDays: 9, booksFinished: 2,
                                             days: [.init(date: "2026-11-26", seconds: 1_800), .init(date: "2026-11-20", seconds: 600),
                                                    .init(date: "2026-11-19", seconds: 6_000)],
                                             secondsByBook: ["b5": 1_200, "b1": 1_200, "b3": 600]))
        let home = model(server, store: store)
        try await refreshed(home)
        let summary = try #require(home.summary)
        #expect(summary.minutesByDay == [10, 0, 0, 0, 0, 0, 30], "Friday the 20th first, today last; the 19th is out of the week")
        #expect(summary.dayNames.count == 7)
        #expect(summary.streakDays == 3)
        #expect(summary.totalMinutes == 1_500)
        #expect(summary.topGenres.map(\.name) == ["Fantasy", "Science Fiction", "Epic Fantasy"])
        #expect(summary.topGenres.map(\.minutes) == [20, 20, 10])
        #expect(!summary.isCached)
    }

    @Test func theServersOwnGenresAreShownAsTheyAre() async throws {
        let server = try ScriptedServer(titles: [])
        await server.setStats(ListeningStats(topGenres: [.init(name: "Mystery", seconds: 3_600)]))
        let home = model(server, store: InMemoryLibraryStore())
        try await refreshed(home)
        #expect(home.summary?.topGenres.map(\.name) == ["Mystery"])
    }

    @Test func offlineTheLastStatsKeptAreShown() async throws {
        let store = InMemoryLibraryStore()
        let server = try ScriptedServer(titles: [])
        await server.setStats(ListeningStats(totalSeconds: 600, currentStreakDays: 1, days: [.init(date: "2026-11-26", seconds: 600)]))
        try await refreshed(model(server, store: store))
        #expect(try store.listeningStats()?.totalSeconds == 600, "kept")
        await server.setOffline(true)
        let offline = model(server, store: store)
        try await refreshed(offline)
        #expect(offline.summary?.totalMinutes == 10)
        #expect(offline.summary?.minutesByDay.last == 10)
        #expect(offline.summary?.isCached == true)
    }

    @Test func aServerThatKeepsNoneShowsNone() async throws {
        let home = model(try ScriptedServer(titles: []), store: InMemoryLibraryStore())
        try await refreshed(home)
        #expect(home.summary == nil)
    }
}
