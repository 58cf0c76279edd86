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
        #expect(await app.waitForLine(Journey.librarySettled(6)) != nil, "\(app.allLines.suffix(3))")
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
        #expect(await app.waitForLine(Journey.librarySettled(3)) != nil, "\(app.allLines.suffix(3))")
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

    static func listeningNow(_ line: [String: Any]) -> [[String: Any]] { line["listeningNow"] as? [[String: Any]] ?? [] }

    /// Who else listens now: the neighbour starts a book and stops. kRPC's
    /// `SyncControl.ActiveSessionsChanged` brings each change live; the Go
    /// server sends nothing, so on REST v1 the next sync (a reload) does.
    @Test(arguments: [DemoProtocol.krpc, DemoProtocol.rest])
    func whoListensNowFollowsTheServer(wire: DemoProtocol) async throws {
        let (server, url) = try await Browse.startServer(wire, books: 4)
        defer { Task { await server.stop() } }
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("listenup-discover-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: home) }
        let app = try HeadlessProcess(home: home, environment: Listening.sink)
        app.send(#"{"action":"connect","url":"\#(url)"}"#)
        #expect(await app.waitForLine(Journey.onRoute("login")) != nil, "\(app.allLines)")
        app.send(#"{"action":"login","email":"ada@example.com","password":"analytical-engine"}"#)
        #expect(await app.waitForLine(Journey.librarySettled(4)) != nil, "\(app.allLines.suffix(3))")
        for _ in 0..<200 where server.eventStreamCount == 0 { try await Task.sleep(for: .milliseconds(50)) }
        let books = server.libraryBookIDs
        app.send(#"{"action":"discover"}"#)
        #expect(await app.waitForLine(Browse.event("discover") { $0["listeningNow"] is [Any] && Self.listeningNow($0).isEmpty }) != nil,
                "\(app.allLines.suffix(3))")

        #expect(server.setListening(bookID: books[2]))
        if wire == .rest { app.send(#"{"action":"reload"}"#) }
        let listening = await app.waitForLine(Browse.event("discover") { line in
            let rows = Self.listeningNow(line)
            guard rows.count == 1, let row = rows.first else { return false }
            return row["userId"] as? String == DemoServer.neighbourUserID && row["userName"] as? String == DemoServer.neighbourName
                && row["bookId"] as? String == books[2] && row["live"] as? Bool == true
                // kRPC says since when; the Go server does not.
                && (wire == .krpc ? (row["at"] as? String)?.hasSuffix("Z") == true : row["at"] is NSNull)
        })
        #expect(listening != nil, "\(app.allLines.suffix(3))")

        let listened = app.allLines.count
        #expect(server.setListening(bookID: nil))
        if wire == .rest { app.send(#"{"action":"reload"}"#) }
        let stopped = await app.waitForLine(after: listened, Browse.event("discover") { Self.listeningNow($0).isEmpty })
        #expect(stopped != nil, "\(app.allLines.suffix(3))")
        app.send(#"{"action":"quit"}"#)
    }
}
