import DemoServer
import Foundation
import Testing

/// Browsing by series, author and narrator: the real `listenup --headless`
/// against the demo server (real payload shapes), on both generations, and
/// again offline from the cache.
@Suite("Headless browsing", .serialized)
struct HeadlessBrowseTests {
    typealias Journey = HeadlessJourneyTests
    typealias Listening = HeadlessPlaybackTests

    static func startServer(_ wire: DemoProtocol, books: Int,
                            _ configure: (inout DemoServer.Configuration) -> Void = { _ in }) async throws -> (DemoServer, String) {
        var configuration = DemoServer.Configuration()
        configuration.bookCount = books
        configuration.chapterSeconds = 4
        configuration.protocol = wire
        configuration.payload = .realistic
        configuration.admin = .init(email: "ada@example.com", password: "analytical-engine")
        configure(&configuration)
        let server = DemoServer(configuration: configuration)
        try await server.start()
        return (server, try #require(server.baseURL).absoluteString)
    }

    static func event(_ name: String, _ match: @escaping ([String: Any]) -> Bool = { _ in true }) -> ([String: Any]) -> Bool {
        { $0["event"] as? String == name && match($0) }
    }

    static func items(_ line: [String: Any]?) -> [[String: Any]] { line?["items"] as? [[String: Any]] ?? [] }

    @Test(arguments: [DemoProtocol.rest, .krpc])
    func seriesAuthorsAndNarratorsFromTheSyncedBooksThenOffline(wire: DemoProtocol) async throws {
        let (server, url) = try await Self.startServer(wire, books: 12)
        var stopped = false
        defer { if !stopped { Task { await server.stop() } } }
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("listenup-browse-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: home) }
        let app = try HeadlessProcess(home: home, environment: Listening.sink)
        app.send(#"{"action":"connect","url":"\#(url)"}"#)
        #expect(await app.waitForLine(Journey.onRoute("login")) != nil, "\(app.allLines)")
        app.send(#"{"action":"login","email":"ada@example.com","password":"analytical-engine"}"#)
        #expect(await app.waitForLine(Journey.librarySettled(12)) != nil, "\(app.allLines.suffix(3))")

        // Twelve books, ten to a series. The series come with the browse
        // domains, synced just after the books: asked again until they are in.
        var series: [String: Any]?
        for _ in 0..<50 {
            let mark = app.allLines.count
            app.send(#"{"action":"browse","by":"series"}"#)
            series = await app.waitForLine(after: mark, Self.event("browse") { $0["by"] as? String == "series" })
            if series?["count"] as? Int == 2 { break }
            try await Task.sleep(for: .milliseconds(100))
        }
        #expect(series?["count"] as? Int == 2, "\(app.allLines.suffix(2))")
        #expect(Set(Self.items(series).compactMap { $0["bookCount"] as? Int }) == [10, 2])
        let names = Self.items(series).compactMap { $0["name"] as? String }
        #expect(names == names.sorted { $0.localizedCaseInsensitiveCompare($1) == .orderedAscending }, "by name")

        // The first series ends with a novella at 9.5: numbers in order, 2 before 10.
        app.send(#"{"action":"open","kind":"series","id":"series-1"}"#)
        let page = await app.waitForLine(Self.event("page") { $0["id"] as? String == "series-1" })
        let books = page?["books"] as? [[String: Any]] ?? []
        #expect(books.compactMap { $0["sequence"] as? String } == ["1", "2", "3", "4", "5", "6", "7", "8", "9", "9.5"], "\(page ?? [:])")

        // Renamed on the server while the page is open: the page follows, live.
        let renamedAt = ContinuousClock.now
        #expect(server.renameSeries(id: "series-1", to: "The Renamed Saga"))
        let renamed = await app.waitForLine(Self.event("page") { $0["id"] as? String == "series-1" && $0["name"] as? String == "The Renamed Saga" })
        #expect(renamed != nil, "took \(ContinuousClock.now - renamedAt): \(app.allLines.suffix(3))")

        app.send(#"{"action":"browse","by":"authors"}"#)
        let authors = await app.waitForLine(Self.event("browse") { $0["by"] as? String == "authors" })
        #expect((authors?["count"] as? Int ?? 0) > 0)
        app.send(#"{"action":"browse","by":"narrators"}"#)
        let narrators = await app.waitForLine(Self.event("browse") { $0["by"] as? String == "narrators" })
        #expect((narrators?["count"] as? Int ?? 0) > 0)

        // A narrator's page: every book on it has them as narrator.
        let narrator = try #require(Self.items(narrators).first?["id"] as? String)
        app.send(#"{"action":"open","kind":"contributor","id":"\#(narrator)"}"#)
        let people = await app.waitForLine(Self.event("page") { $0["id"] as? String == narrator })
        let roles = (people?["books"] as? [[String: Any]] ?? []).map { $0["roles"] as? [String] ?? [] }
        #expect(!roles.isEmpty && roles.allSatisfy { $0.contains("narrator") }, "\(people ?? [:]): \(app.allLines.suffix(3))")

        // One search finds books, series and people.
        let seriesName = try #require(names.first)
        app.send(#"{"action":"search","query":"\#(seriesName)"}"#)
        #expect(await app.waitForLine { line in
            guard let state = line["state"] as? [String: Any], state["query"] as? String == seriesName else { return false }
            return (state["series"] as? [[String: Any]])?.first?["name"] as? String == seriesName
        } != nil, "\(app.allLines.suffix(2))")

        app.send(#"{"action":"open","kind":"series","id":"no-such-series"}"#)
        #expect(await app.waitForLine(Self.event("error") { $0["code"] as? String == "notFound" }) != nil)
        app.send(#"{"action":"browse","by":"publishers"}"#)
        #expect(await app.waitForLine(Self.event("error") { $0["code"] as? String == "badCommand" }) != nil)
        app.send(#"{"action":"quit"}"#)
        #expect(await app.waitForExit() == 0)

        let renamedNames = names.map { $0 == Self.items(series).first { $0["id"] as? String == "series-1" }?["name"] as? String ? "The Renamed Saga" : $0 }
            .sorted { $0.localizedCaseInsensitiveCompare($1) == .orderedAscending }

        // Offline: the same lists from the cache.
        await server.stop()
        stopped = true
        let offline = try HeadlessProcess(home: home, environment: Listening.sink)
        #expect(await offline.waitForLine(Journey.onRoute("library")) != nil)
        offline.send(#"{"action":"browse","by":"series"}"#)
        let cached = await offline.waitForLine(Self.event("browse"))
        #expect(Self.items(cached).compactMap { $0["name"] as? String } == renamedNames, "\(offline.allLines.suffix(2))")
        offline.send(#"{"action":"quit"}"#)
        #expect(await offline.waitForExit() == 0)
    }
}
