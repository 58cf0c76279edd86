import DemoServer
import Foundation
import Testing

/// Browsing by genre, tag, mood and collection: the real
/// `listenup --headless` against the demo server, on both generations, a
/// page following a live change within 2 s, and again offline from the cache.
@Suite("Headless facets", .serialized)
struct HeadlessFacetTests {
    typealias Browse = HeadlessBrowseTests
    typealias Journey = HeadlessJourneyTests
    typealias Listening = HeadlessPlaybackTests

    static func names(_ line: [String: Any]?) -> [String] { Browse.items(line).compactMap { $0["name"] as? String } }
    static func ids(_ line: [String: Any]?) -> [String] { Browse.items(line).compactMap { $0["id"] as? String } }
    static func books(_ line: [String: Any]?) -> [String] {
        (line?["books"] as? [[String: Any]] ?? []).compactMap { $0["bookId"] as? String }
    }

    @Test(arguments: [DemoProtocol.rest, .krpc])
    func genresTagsMoodsAndCollectionsLiveThenOffline(wire: DemoProtocol) async throws {
        let (server, url) = try await Browse.startServer(wire, books: 12)
        var stopped = false
        defer { if !stopped { Task { await server.stop() } } }
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("listenup-facets-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: home) }
        let app = try HeadlessProcess(home: home, environment: Listening.sink)
        app.send(#"{"action":"connect","url":"\#(url)"}"#)
        #expect(await app.waitForLine(Journey.onRoute("login")) != nil, "\(app.allLines)")
        app.send(#"{"action":"login","email":"ada@example.com","password":"analytical-engine"}"#)
        #expect(await app.waitForLine(Journey.librarySettled(12)) != nil, "\(app.allLines.suffix(3))")

        // The server's genre tree: roots first, by path.
        app.send(#"{"action":"browse","by":"genres"}"#)
        let genres = await app.waitForLine(Browse.event("browse") { $0["by"] as? String == "genres" })
        let genreNames = Self.names(genres)
        #expect(genreNames.contains("Fiction") && genreNames.contains("Nonfiction"), "\(genreNames)")
        let fiction = try #require(Browse.items(genres).first { $0["name"] as? String == "Fiction" }?["id"] as? String)
        app.send(#"{"action":"open","kind":"genre","id":"\#(fiction)"}"#)
        let fictionPage = await app.waitForLine(Browse.event("page") { $0["id"] as? String == fiction })
        #expect(!Self.books(fictionPage).isEmpty, "\(app.allLines.suffix(2))")

        // Tags, moods (none on REST v1) and collections, with their books.
        let tagged = server.tagIDs.filter { !server.bookIDs(inFacet: "tag", $0).isEmpty }
        app.send(#"{"action":"browse","by":"tags"}"#)
        let tags = await app.waitForLine(Browse.event("browse") { $0["by"] as? String == "tags" })
        #expect(Set(Self.ids(tags)) == Set(tagged), "\(app.allLines.suffix(2))")
        app.send(#"{"action":"browse","by":"moods"}"#)
        let moods = await app.waitForLine(Browse.event("browse") { $0["by"] as? String == "moods" })
        let moodsWithBooks = server.moodIDs.filter { !server.bookIDs(inFacet: "mood", $0).isEmpty }
        #expect((moods?["count"] as? Int) == (wire == .krpc ? moodsWithBooks.count : 0), "\(moods ?? [:])")
        app.send(#"{"action":"browse","by":"collections"}"#)
        let collections = await app.waitForLine(Browse.event("browse") { $0["by"] as? String == "collections" })
        #expect(Self.names(collections) == ["Bedtime Stories", "Book Club", "Road Trip", "Staff Picks"], "\(collections ?? [:])")

        app.send(#"{"action":"open","kind":"tag","id":"tag-1"}"#)
        let tagPage = await app.waitForLine(Browse.event("page") { $0["id"] as? String == "tag-1" })
        #expect(Self.books(tagPage).sorted() == server.bookIDs(inFacet: "tag", "tag-1").sorted(), "\(tagPage ?? [:])")
        if wire == .krpc {
            // Renamed on the server while its page is open: the page follows.
            // The app reads nothing again on a timer, so only the live event
            // can bring the name (how fast is bench/sync's to measure).
            #expect(server.renameTag(id: "tag-1", to: "Renamed Tag"))
            let renamed = await app.waitForLine(Browse.event("page") { $0["id"] as? String == "tag-1" && $0["name"] as? String == "Renamed Tag" })
            #expect(renamed != nil, "\(app.allLines.suffix(3))")
            let mood = try #require(Self.ids(moods).first)
            app.send(#"{"action":"open","kind":"mood","id":"\#(mood)"}"#)
            let moodPage = await app.waitForLine(Browse.event("page") { $0["id"] as? String == mood })
            #expect(Self.books(moodPage).sorted() == server.bookIDs(inFacet: "mood", mood).sorted())
        }

        // A book taken out of an open collection: the page follows, live.
        app.send(#"{"action":"open","kind":"collection","id":"collection-2"}"#)
        let club = await app.waitForLine(Browse.event("page") { $0["id"] as? String == "collection-2" })
        let book = try #require(Self.books(club).first)
        #expect(server.removeBook(book, fromCollection: "collection-2"))
        // kRPC streams the junction row; REST v1 only hints, and the app
        // reads every facet list again (a dozen requests).
        let without = await app.waitForLine(Browse.event("page") { $0["id"] as? String == "collection-2" && !Self.books($0).contains(book) })
        #expect(without != nil, "\(app.allLines.suffix(3))")
        let remaining = Self.books(without)

        app.send(#"{"action":"open","kind":"mood","id":"no-such-mood"}"#)
        #expect(await app.waitForLine(Browse.event("error") { $0["code"] as? String == "notFound" }) != nil)
        app.send(#"{"action":"quit"}"#)
        #expect(await app.waitForExit() == 0)

        // Offline: the same lists and pages from the cache.
        await server.stop()
        stopped = true
        let offline = try HeadlessProcess(home: home, environment: Listening.sink)
        #expect(await offline.waitForLine(Journey.onRoute("library")) != nil)
        offline.send(#"{"action":"browse","by":"tags"}"#)
        let cached = await offline.waitForLine(Browse.event("browse") { $0["by"] as? String == "tags" })
        #expect(Set(Self.ids(cached)) == Set(tagged), "\(offline.allLines.suffix(2))")
        offline.send(#"{"action":"open","kind":"collection","id":"collection-2"}"#)
        let offlinePage = await offline.waitForLine(Browse.event("page") { $0["id"] as? String == "collection-2" })
        #expect(Self.books(offlinePage) == remaining)
        offline.send(#"{"action":"quit"}"#)
        #expect(await offline.waitForExit() == 0)
    }
}
