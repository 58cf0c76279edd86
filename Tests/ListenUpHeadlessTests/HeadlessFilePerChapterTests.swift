import DemoServer
import Foundation
import ListenUpTestSupport
import Testing

/// Listening headless to a book with a file per chapter, the shape of many
/// audiobooks: a jump to a chapter opens its file at the start, and each
/// chapter's end is a file's end. The real `listenup --headless` with real
/// GStreamer (a `fakesink`) against the demo server.
@Suite("Headless listening: a file per chapter", .serialized)
struct HeadlessFilePerChapterTests {
    typealias Playback = HeadlessPlaybackTests

    /// The player's lines so far: (status, position, chapter index).
    static func states(_ app: HeadlessProcess) -> [(status: String, position: Int, chapter: Int)] {
        app.allLines.compactMap { (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any] }
            .compactMap(Playback.player)
            .compactMap { state in
                guard let status = state["status"] as? String, let position = state["positionMs"] as? Int,
                      let chapter = state["chapterIndex"] as? Int else { return nil }
                return (status, position, chapter)
            }
    }

    /// At 2×, a jump to chapter 2 opens the second file at its start and
    /// plays there; the book flows on into the third chapter's file, the
    /// player naming each chapter as its file starts and never going back;
    /// the listening reaches the server at the speed chosen.
    @Test func aJumpToAChapterPlaysItsFileAndTheNextFollows() async throws {
        let (server, url) = try await Playback.startServer(chapterSeconds: 3, filePerChapter: true)
        defer { Task { await server.stop() } }
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("listenup-file-chapters-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: home) }

        let app = try await Playback.signIn(home: home, url: url)
        app.send(#"{"action":"play","bookId":"\#(Playback.book)"}"#)
        #expect(await app.waitForLine(Playback.playing(atLeast: 300)) != nil, "\(app.allLines.suffix(5))\n\(app.stderr)")
        app.send(#"{"action":"rate","value":2}"#)
        let jumped = Self.states(app).count
        app.send(#"{"action":"chapter","index":1}"#)
        #expect(await app.waitForLine { line in
            guard let state = Playback.player(line) else { return false }
            return state["chapterIndex"] as? Int == 2 && state["status"] as? String == "playing"
        } != nil, "into the third chapter's file: \(app.allLines.suffix(5))")
        app.send(#"{"action":"pause"}"#)
        #expect(await app.waitForLine(Playback.status("paused")) != nil)

        let after = Self.states(app).dropFirst(jumped).filter { $0.position >= 3_000 }
        #expect(after.first.map { $0.position < 6_000 && $0.chapter == 1 } == true, "the jump lands in the second file: \(after.prefix(3))")
        #expect(after.allSatisfy { $0.chapter == $0.position / 3_000 }, "each chapter named from its file's start: \(after)")
        let positions = after.map(\.position)
        #expect(zip(positions, positions.dropFirst()).allSatisfy { $1 + 50 >= $0 }, "never back: \(positions)")

        for _ in 0..<100 where !server.acceptedListeningEvents.contains(where: { $0.endPositionMs > 6_000 }) {
            try await Task.sleep(for: .milliseconds(50))
        }
        let spans = server.acceptedListeningEvents.filter { $0.startPositionMs >= 3_000 }
        #expect(!spans.isEmpty && spans.allSatisfy { $0.playbackSpeed == 2 }, "the listening after the jump, at 2×: \(spans)")
    }
}
