import DemoServer
import Foundation
import Testing

/// Two saved servers in one app: today's (kRPC) and the Go server (REST v1),
/// both demo servers on loopback, the real `listenup --headless` in a child
/// process. The library, the downloads and the player follow the active
/// one; switching asks for no password; removing one deletes its files.
@Suite("Several servers", .serialized)
struct HeadlessServersTests {
    typealias Journey = HeadlessJourneyTests
    typealias Listening = HeadlessPlaybackTests
    typealias Generations = HeadlessGenerationsTests
    typealias Downloads = HeadlessDownloadTests

    static func servers(_ count: Int, active: String?) -> ([String: Any]) -> Bool {
        { line in
            line["event"] as? String == "servers" && (line["servers"] as? [[String: Any]])?.count == count
                && (line["active"] as? String) == active
        }
    }

    /// The files of the pair on the demo server at `url` (library cache,
    /// covers, listening store, downloads): their names hold its key, the
    /// host and port with `_` for every other character.
    static func files(of url: String, in home: URL) -> [String] {
        let address = URL(string: url).map { "\($0.host ?? "")_\($0.port ?? 0)" } ?? url
        let marker = String(address.map { $0.isASCII && ($0.isLetter || $0.isNumber) ? $0 : "_" }) + "_"
        let folders = ["cache/listenup", "state/listenup", "data/listenup/downloads"].map { home.appendingPathComponent($0) }
        return folders.flatMap { folder in
            ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).filter { $0.contains(marker) }
        }
    }

    @Test func twoServersSwitchedBackAndForthThenOneRemovedAndAnOfflineStartOnTheOther() async throws {
        let (serverA, urlA) = try await Generations.startServer(.rest, books: 3)
        let (serverB, urlB) = try await Generations.startServer(.krpc, books: 5)
        var stoppedB = false
        defer {
            Task { await serverA.stop() }
            if !stoppedB { Task { await serverB.stop() } }
        }
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("listenup-servers-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: home) }

        // A: set up, a book downloaded and playing.
        let app = try HeadlessProcess(home: home, environment: Listening.sink)
        #expect(await app.waitForLine(Journey.onRoute("serverSetup")) != nil)
        app.send(#"{"action":"connect","url":"\#(urlA)"}"#)
        #expect(await app.waitForLine(Journey.onRoute("adminSetup")) != nil, "\(app.allLines.suffix(3))\n\(app.stderr.suffix(2000))")
        app.send(#"{"action":"setupAdmin","name":"Ada Lovelace","email":"ada@example.com","password":"analytical-engine"}"#)
        #expect(await app.waitForLine(timeout: 60, Journey.librarySettled(3)) != nil, "\(app.allLines.suffix(3))\n\(app.stderr.suffix(2000))")
        app.send(#"{"action":"download","bookId":"\#(Listening.book)"}"#)
        #expect(await app.waitForLine(timeout: 60, Downloads.download(Listening.book, "done")) != nil, "\(app.allLines.suffix(3))")
        app.send(#"{"action":"play","bookId":"\#(Listening.book)"}"#)
        #expect(await app.waitForLine(Listening.playing(atLeast: 1_500)) != nil, "\(app.allLines.suffix(3))")
        let loginsA = server(serverA, logins: .rest)

        // Add B: A's session ends (its last span reaches A), B is set up.
        var mark = app.allLines.count
        app.send(#"{"action":"addServer"}"#)
        #expect(await app.waitForLine(after: mark, Journey.onRoute("serverSetup")) != nil, "\(app.allLines.suffix(3))")
        for _ in 0..<200 where serverA.acceptedListeningEvents.isEmpty { try await Task.sleep(for: .milliseconds(50)) }
        #expect(serverA.acceptedListeningEvents.contains { $0.bookID == Listening.book && $0.endPositionMs >= 1_500 },
                "leaving A sent the player's last span")
        app.send(#"{"action":"connect","url":"\#(urlB)"}"#)
        #expect(await app.waitForLine(after: mark, Journey.onRoute("adminSetup")) != nil, "\(app.allLines.suffix(3))")
        app.send(#"{"action":"setupAdmin","name":"Bea Babbage","email":"bea@example.com","password":"difference-engine"}"#)
        #expect(await app.waitForLine(timeout: 60, Journey.librarySettled(5)) != nil, "\(app.allLines.suffix(3))\n\(app.stderr.suffix(2000))")

        // Both listed, B active (B joined the list once verified, and was
        // printed then, before its account was known).
        mark = app.allLines.count
        app.send(#"{"action":"servers"}"#)
        let listed = try #require(await app.waitForLine(after: mark, Self.servers(2, active: urlB)), "\(app.allLines.suffix(3))")
        let entries = listed["servers"] as? [[String: Any]] ?? []
        #expect(entries.map { $0["id"] as? String } == [urlA, urlB])
        #expect(entries.map { $0["url"] as? String } == [urlA, urlB])
        #expect(entries.map { $0["user"] as? String } == ["Ada Lovelace", "Bea Babbage"])
        #expect(entries.map { $0["generation"] as? String } == ["rest-v1", "krpc"])
        #expect(!Self.files(of: urlA, in: home).isEmpty && !Self.files(of: urlB, in: home).isEmpty, "each pair has its own files")

        // Back to A: its library and its download, no sign-in; B's player is not A's.
        mark = app.allLines.count
        app.send(#"{"action":"switchServer","id":"\#(urlA)"}"#)
        #expect(await app.waitForLine(after: mark, timeout: 30, Journey.libraryLoaded(3)) != nil, "\(app.allLines.suffix(3))")
        #expect(await app.waitForLine(after: mark, Downloads.download(Listening.book, "done")) != nil,
                "A's download is back with A")
        #expect(await app.waitForLine(after: mark, Self.servers(2, active: urlA)) != nil, "the switch is announced")
        #expect(!app.allLines.dropFirst(mark).contains { $0.contains(#""route":"login""#) }, "no password asked")
        #expect(server(serverA, logins: .rest) == loginsA, "the saved session, no new sign-in")

        // To B again: B's library, none of A's downloads.
        mark = app.allLines.count
        app.send(#"{"action":"switchServer","id":"\#(urlB)"}"#)
        #expect(await app.waitForLine(after: mark, timeout: 30, Journey.libraryLoaded(5)) != nil, "\(app.allLines.suffix(3))")
        #expect(!app.allLines.dropFirst(mark).contains { $0.contains(#""event":"download""#) }, "B has no download")

        // Remove A: off the list, its files gone, B untouched.
        app.send(#"{"action":"removeServer","id":"\#(urlA)"}"#)
        #expect(await app.waitForLine(after: mark, Self.servers(1, active: urlB)) != nil, "\(app.allLines.suffix(3))")
        for _ in 0..<100 where !Self.files(of: urlA, in: home).isEmpty { try await Task.sleep(for: .milliseconds(50)) }
        #expect(Self.files(of: urlA, in: home).isEmpty, "A's cache, covers, listening store and downloads are gone")
        #expect(!Self.files(of: urlB, in: home).isEmpty)
        app.send(#"{"action":"switchServer","id":"\#(urlA)"}"#)
        #expect(await app.waitForLine { $0["event"] as? String == "error" && $0["code"] as? String == "unknownServer" } != nil)
        app.send(#"{"action":"quit"}"#)
        #expect(await app.waitForExit() == 0)

        // B goes away: the next start shows B's library from its cache.
        await serverB.stop()
        stoppedB = true
        let offline = try HeadlessProcess(home: home, environment: Listening.sink)
        let shown = await offline.waitForLine(timeout: 60) { line in
            Journey.libraryLoaded(5)(line) && Journey.state(line)?["offline"] as? Bool == true
        }
        #expect(shown != nil, "\(offline.allLines.suffix(5))\n\(offline.stderr.suffix(2000))")
        let asked = offline.send(#"{"action":"servers"}"#)
        #expect(await offline.waitForLine(after: asked, Self.servers(1, active: urlB)) != nil, "\(offline.allLines.suffix(3))")
        offline.send(#"{"action":"quit"}"#)
        #expect(await offline.waitForExit() == 0)
    }

    func server(_ server: DemoServer, logins wire: DemoProtocol) -> Int {
        server.requestCount(Generations.loginKey(wire))
    }
}
