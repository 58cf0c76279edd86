import DemoServer
import Foundation
import ListenUpTestSupport
import Testing

/// Undoing a jump headless: the real `listenup --headless` playing a demo
/// book (real GStreamer, a `fakesink`): a seek is remembered,
/// `recentPositions` lists it, `undoJump` goes back and empties the list.
@Suite("Headless jumps and their undo", .serialized)
struct HeadlessJumpTests {
    typealias Playback = HeadlessPlaybackTests

    static func recentPositions(_ line: [String: Any]) -> [[String: Any]]? {
        line["event"] as? String == "recentPositions" ? line["positions"] as? [[String: Any]] : nil
    }

    static func isRecentPositions(_ line: [String: Any]) -> Bool { recentPositions(line) != nil }

    /// The stdout lines so far that `match`.
    static func count(in app: HeadlessProcess, _ match: ([String: Any]) -> Bool) -> Int {
        app.allLines.compactMap { (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any] }.filter(match).count
    }

    @Test func aSeekIsListedAndUndone() async throws {
        var configuration = DemoServer.Configuration()
        configuration.bookCount = 3
        configuration.chapterSeconds = 40
        configuration.admin = .init(email: "ada@example.com", password: "analytical-engine")
        let server = DemoServer(configuration: configuration)
        try await server.start()
        let url = try #require(server.baseURL).absoluteString
        defer { Task { await server.stop() } }
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("listenup-jumps-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: home) }

        let app = try await Playback.signIn(home: home, url: url)
        app.send(#"{"action":"recentPositions"}"#)
        let empty = await app.waitForLines(count: 1, Self.isRecentPositions).last
        #expect(empty?["bookId"] is NSNull, "nothing loaded: \(String(describing: empty))")
        #expect(Self.recentPositions(empty ?? [:])?.isEmpty == true)

        app.send(#"{"action":"play","bookId":"\#(Playback.book)"}"#)
        let started = await app.waitForLine(Playback.playing(atLeast: 1_000))
        #expect(started != nil, "\(app.allLines.suffix(5))\n\(app.stderr)")
        // The last position printed before the seek (the book plays on meanwhile).
        let before = app.allLines.compactMap { (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any] }
            .compactMap { Playback.player($0)?["positionMs"] as? Int }.max() ?? 0
        let sent = Date()
        app.send(#"{"action":"seek","positionMs":90000}"#)
        #expect(await app.waitForLine(Playback.playing(atLeast: 90_000)) != nil, "\(app.allLines.suffix(5))")

        app.send(#"{"action":"recentPositions"}"#)
        let listed = await app.waitForLines(count: 2, Self.isRecentPositions).dropFirst().last
        let places = Self.recentPositions(listed ?? [:]) ?? []
        #expect(listed?["bookId"] as? String == Playback.book)
        #expect(places.count == 1, "\(places)")
        let left = places.first?["positionMs"] as? Int ?? -1
        #expect(left >= before && left < before + 8_000, "left at \(left), last seen at \(before)")
        let leftAt = (places.first?["leftAt"] as? String).flatMap { try? Date($0, strategy: .iso8601) }
        #expect(leftAt.map { abs($0.timeIntervalSince(sent)) < 5 } == true, "\(places)")

        let back: ([String: Any]) -> Bool = { line in
            guard let state = Playback.player(line), let position = state["positionMs"] as? Int else { return false }
            return position >= left && position < left + 5_000
        }
        let seenBefore = Self.count(in: app, back)
        app.send(#"{"action":"undoJump"}"#)
        #expect(await app.waitForLines(count: seenBefore + 1, back).count > seenBefore,
                "back where it was: \(app.allLines.suffix(5))")
        app.send(#"{"action":"recentPositions"}"#)
        let emptied = await app.waitForLines(count: 3, Self.isRecentPositions).dropFirst(2).last
        #expect(Self.recentPositions(emptied ?? [:])?.isEmpty == true, "undone: the place left the list")

        app.send(#"{"action":"quit"}"#)
        #expect(await app.waitForExit() == 0)
    }
}
