import DemoServer
import Foundation
import Testing

/// Discover through the real `listenup --headless` against the demo server
/// (real payload shapes): on today's server the feed is printed, and again
/// live when another reader finishes a book (the `activities` domain's
/// event); REST v1 has no feed and says so.
@Suite("Headless discover", .serialized)
struct HeadlessDiscoverTests {
    typealias Journey = HeadlessJourneyTests
    typealias Listening = HeadlessPlaybackTests
    typealias Browse = HeadlessBrowseTests

    static func activities(_ line: [String: Any]) -> [[String: Any]] { line["activities"] as? [[String: Any]] ?? [] }

    /// A `discover` line holding activity `id` as `type` of `bookID` by the neighbour.
    static func holds(_ id: String, type: String, bookID: String) -> ([String: Any]) -> Bool {
        Browse.event("discover") { line in
            activities(line).contains {
                $0["id"] as? String == id && $0["type"] as? String == type && $0["bookId"] as? String == bookID
                    && $0["userName"] as? String == DemoServer.neighbourName && $0["userId"] as? String == DemoServer.neighbourUserID
                    && ($0["at"] as? String)?.hasSuffix("Z") == true
            }
        }
    }

    @Test func anotherReaderFinishingABookShowsLive() async throws {
        let (server, url) = try await Browse.startServer(.krpc, books: 6)
        defer { Task { await server.stop() } }
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("listenup-discover-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: home) }
        let app = try HeadlessProcess(home: home, environment: Listening.sink)
        app.send(#"{"action":"connect","url":"\#(url)"}"#)
        #expect(await app.waitForLine(Journey.onRoute("login")) != nil, "\(app.allLines)")
        app.send(#"{"action":"login","email":"ada@example.com","password":"analytical-engine"}"#)
        #expect(await app.waitForLine(timeout: 20, Journey.librarySettled(6)) != nil, "\(app.allLines.suffix(3))")
        let books = server.libraryBookIDs

        // Nothing yet.
        app.send(#"{"action":"discover"}"#)
        let empty = await app.waitForLine(Browse.event("discover") { Self.activities($0).isEmpty })
        #expect(empty != nil, "\(app.allLines.suffix(3))")

        // The neighbour finishes a book: the line comes again, live.
        let finished = try #require(server.recordActivity("finished_book", bookID: books[0]))
        let shown = await app.waitForLine(Self.holds(finished, type: "finished_book", bookID: books[0]))
        #expect(shown != nil, "\(app.allLines.suffix(3))")

        // Then starts another: newest first.
        let started = try #require(server.recordActivity("started_book", bookID: books[1]))
        let both = await app.waitForLine(Browse.event("discover") { line in
            Self.activities(line).compactMap { $0["id"] as? String } == [started, finished]
        })
        #expect(both != nil, "\(app.allLines.suffix(3))")
        app.send(#"{"action":"quit"}"#)
    }

    @Test func restShowsTheGoServersFeedAfterEachSync() async throws {
        let (server, url) = try await Browse.startServer(.rest, books: 3)
        defer { Task { await server.stop() } }
        let books = server.libraryBookIDs
        let finished = try #require(server.recordActivity("finished_book", bookID: books[0]))
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("listenup-discover-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: home) }
        let app = try HeadlessProcess(home: home, environment: Listening.sink)
        app.send(#"{"action":"connect","url":"\#(url)"}"#)
        #expect(await app.waitForLine(Journey.onRoute("login")) != nil, "\(app.allLines)")
        app.send(#"{"action":"login","email":"ada@example.com","password":"analytical-engine"}"#)
        #expect(await app.waitForLine(timeout: 20, Journey.librarySettled(3)) != nil, "\(app.allLines.suffix(3))")
        app.send(#"{"action":"discover"}"#)
        #expect(await app.waitForLine(Self.holds(finished, type: "finished_book", bookID: books[0])) != nil, "\(app.allLines.suffix(3))")

        // The Go server sends no event for it: the next sync (a reload) brings it.
        let started = try #require(server.recordActivity("started_book", bookID: books[1]))
        app.send(#"{"action":"reload"}"#)
        let both = await app.waitForLine(Browse.event("discover") { line in
            Self.activities(line).compactMap { $0["id"] as? String } == [started, finished]
        })
        #expect(both != nil, "\(app.allLines.suffix(3))")
        app.send(#"{"action":"quit"}"#)
    }
}
