import DemoServer
import Foundation
import Testing

/// Shelves through the real `listenup --headless` against the demo server
/// (real payload shapes), on both generations: the list and a shelf's
/// page, each change the app makes, a change made on the server ("another
/// device") showing within 2 s, refusals, Home's sections, and the shelves
/// again offline from the cache.
@Suite("Headless shelves", .serialized)
struct HeadlessShelvesTests {
    typealias Journey = HeadlessJourneyTests
    typealias Listening = HeadlessPlaybackTests
    typealias Browse = HeadlessBrowseTests
    static let email = "ada@example.com"

    static func event(_ name: String, _ match: @escaping ([String: Any]) -> Bool = { _ in true }) -> ([String: Any]) -> Bool {
        Browse.event(name, match)
    }

    static func bookIDs(_ line: [String: Any]?) -> [String] {
        (line?["books"] as? [[String: Any]] ?? []).compactMap { $0["bookId"] as? String }
    }

    /// A `page` line of shelf `id` whose books are `books`.
    static func page(_ id: String, books: [String], name: String? = nil) -> ([String: Any]) -> Bool {
        event("page") { $0["kind"] as? String == "shelf" && $0["id"] as? String == id && bookIDs($0) == books
            && (name == nil || $0["name"] as? String == name) }
    }

    /// The first line printed after the first `start` lines that satisfies `match` (nil after `timeout` seconds).
    static func newLine(_ app: HeadlessProcess, since start: Int, timeout: Double = 5,
                        _ match: @escaping ([String: Any]) -> Bool) async -> [String: Any]? {
        let deadline = ContinuousClock.now + .seconds(timeout)
        while ContinuousClock.now < deadline {
            for line in app.allLines.dropFirst(start) {
                if let object = (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any], match(object) { return object }
            }
            try? await Task.sleep(for: .milliseconds(100))
        }
        return nil
    }

    /// Asks for the shelves until `check` holds for the list (at most 5 s); returns the last list.
    static func shelves(_ app: HeadlessProcess, until check: @escaping ([[String: Any]]) -> Bool) async -> [[String: Any]]? {
        let deadline = ContinuousClock.now + .seconds(5)
        var last: [[String: Any]]?
        while ContinuousClock.now < deadline {
            let start = app.allLines.count
            app.send(#"{"action":"browse","by":"shelves"}"#)
            last = await newLine(app, since: start, timeout: 1, event("browse") { $0["by"] as? String == "shelves" }).map(Browse.items)
            if let last, check(last) { return last }
            try? await Task.sleep(for: .milliseconds(200))
        }
        return last
    }

    /// Sends `command` and waits for the error line it prints.
    static func error(_ app: HeadlessProcess, _ command: String, code: String) async -> Bool {
        let start = app.allLines.count
        app.send(command)
        return await newLine(app, since: start, event("error") { $0["code"] as? String == code }) != nil
    }

    @Test(arguments: [DemoProtocol.rest, .krpc])
    func shelvesAreMadeChangedAndFollowedLiveThenShownOffline(wire: DemoProtocol) async throws {
        let (server, url) = try await Browse.startServer(wire, books: 6)
        var stopped = false
        defer { if !stopped { Task { await server.stop() } } }
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("listenup-shelves-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: home) }
        let app = try HeadlessProcess(home: home, environment: Listening.sink)
        app.send(#"{"action":"connect","url":"\#(url)"}"#)
        #expect(await app.waitForLine(Journey.onRoute("login")) != nil, "\(app.allLines)")
        app.send(#"{"action":"login","email":"ada@example.com","password":"analytical-engine"}"#)
        #expect(await app.waitForLine(Journey.librarySettled(6)) != nil, "\(app.allLines.suffix(3))")
        let books = server.libraryBookIDs

        // The starter shelf.
        app.send(#"{"action":"browse","by":"shelves"}"#)
        let listed = await app.waitForLine(Self.event("browse") { $0["by"] as? String == "shelves" })
        #expect(Browse.items(listed).compactMap { $0["name"] as? String } == ["To Read"], "\(app.allLines.suffix(2))")

        // Made with a book on it; the name is checked before sending.
        #expect(await Self.error(app, #"{"action":"createShelf","name":"  "}"#, code: "invalidName"))
        app.send(#"{"action":"createShelf","name":"Night Reading","description":"Short ones","bookId":"\#(books[0])"}"#)
        let made = await app.waitForLine(Self.event("shelfChanged") { $0["action"] as? String == "createShelf" })
        let id = try #require(made?["id"] as? String, "\(app.allLines.suffix(3))")
        app.send(#"{"action":"addToShelf","id":"\#(id)","bookId":"\#(books[1])"}"#)
        #expect(await app.waitForLine(Self.event("shelfChanged") { $0["action"] as? String == "addToShelf" }) != nil)
        // The cache follows the server within a sync: the list shows it, then its page opens.
        let listedNew = await Self.shelves(app) { items in items.contains { $0["id"] as? String == id && $0["bookCount"] as? Int == 2 } }
        #expect(listedNew?.count == 2, "\(app.allLines.suffix(3))")
        app.send(#"{"action":"open","kind":"shelf","id":"\#(id)"}"#)
        let opened = await app.waitForLine(Self.page(id, books: [books[0], books[1]]))
        #expect(opened?["description"] as? String == "Short ones", "\(app.allLines.suffix(3))")

        // Another device puts a book on it: the open page follows, live.
        let addedAt = ContinuousClock.now
        #expect(server.addBookToShelf(shelfID: id, bookID: books[2]))
        #expect(await app.waitForLine(Self.page(id, books: [books[0], books[1], books[2]])) != nil,
                "took \(ContinuousClock.now - addedAt): \(app.allLines.suffix(3))")

        // Taken off here, then renamed.
        app.send(#"{"action":"removeFromShelf","id":"\#(id)","bookId":"\#(books[0])"}"#)
        #expect(await app.waitForLine(Self.page(id, books: [books[1], books[2]])) != nil, "\(app.allLines.suffix(3))")
        app.send(#"{"action":"renameShelf","id":"\#(id)","name":"Bedtime"}"#)
        #expect(await app.waitForLine(Self.page(id, books: [books[1], books[2]], name: "Bedtime")) != nil,
                "\(app.allLines.suffix(3))")

        // Home: mine with their counts, and the neighbour's to discover.
        app.send(#"{"action":"home"}"#)
        let homeLine = await app.waitForLine(Self.event("home"))
        let mine = homeLine?["shelves"] as? [[String: Any]] ?? []
        #expect(mine.compactMap { $0["name"] as? String } == ["Bedtime", "To Read"], "\(homeLine ?? [:])")
        #expect(mine.first?["bookCount"] as? Int == 2)
        let others = homeLine?["discoverShelves"] as? [[String: Any]] ?? []
        #expect(others.first?["owner"] as? String == "Mara Lindqvist", "\(homeLine ?? [:])")
        #expect(others.first?["name"] as? String == "Mara's Favourites")
        let theirs = try #require(others.first?["id"] as? String)
        app.send(#"{"action":"open","kind":"shelf","id":"\#(theirs)"}"#)
        let theirPage = await app.waitForLine(Self.event("page") { $0["id"] as? String == theirs })
        #expect(theirPage?["owner"] as? String == "Mara Lindqvist")
        #expect(Self.bookIDs(theirPage).count == 3)

        // Refusals, said plainly.
        #expect(await Self.error(app, #"{"action":"addToShelf","id":"\#(theirs)","bookId":"\#(books[0])"}"#, code: "forbidden"),
                "\(app.allLines.suffix(2))")
        #expect(await Self.error(app, #"{"action":"deleteShelf","id":"no-such-shelf"}"#, code: "notFound"), "\(app.allLines.suffix(2))")

        // Deleted on another device while shown in the list.
        let other = try #require(server.createShelf(forUser: Self.email, name: "Commute"))
        #expect(server.deleteShelf(id: other))
        app.send(#"{"action":"deleteShelf","id":"\#(id)"}"#)
        #expect(await app.waitForLine(Self.event("shelfChanged") { $0["action"] as? String == "deleteShelf" }) != nil)
        let after = await Self.shelves(app) { $0.count == 1 }
        #expect(after?.compactMap { $0["name"] as? String } == ["To Read"], "\(app.allLines.suffix(3))")
        let toRead = try #require(server.shelves(ofUser: Self.email).first?.id)
        #expect(server.addBookToShelf(shelfID: toRead, bookID: books[3]))
        try await Task.sleep(for: .seconds(1))
        app.send(#"{"action":"quit"}"#)
        #expect(await app.waitForExit() == 0)

        // Offline: the shelves from the cache.
        await server.stop()
        stopped = true
        let offline = try HeadlessProcess(home: home, environment: Listening.sink)
        #expect(await offline.waitForLine(Journey.onRoute("library")) != nil)
        offline.send(#"{"action":"browse","by":"shelves"}"#)
        let cached = await offline.waitForLine(Self.event("browse"))
        #expect(Browse.items(cached).compactMap { $0["name"] as? String } == ["To Read"], "\(offline.allLines.suffix(2))")
        #expect(Browse.items(cached).first?["bookCount"] as? Int == 1)
        offline.send(#"{"action":"home"}"#)
        let offlineHome = await offline.waitForLine(Self.event("home"))
        #expect((offlineHome?["discoverShelves"] as? [[String: Any]])?.first?["owner"] as? String == "Mara Lindqvist",
                "kept from the last answer: \(offlineHome ?? [:])")
        offline.send(#"{"action":"quit"}"#)
        #expect(await offline.waitForExit() == 0)
    }
}
