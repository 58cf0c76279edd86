import Foundation
import ListenUpAPI
import ListenUpLive
import ListenUpTestSupport
import Logging
import ServerSentEvents
import Testing
@testable import ListenUpCore

/// `listening.progress_deleted` (REST v1, and kRPC's `playback_positions`
/// tombstones read as it): the library forgets the progress and the player's
/// resume point goes back to the start, at once.
@MainActor
@Suite("A deleted position resets the resume point")
struct DeletedPositionTests {
    static let quiet = Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })

    @Test func theEventResetsTheProgressAndTheResumePoint() async throws {
        let store = InMemoryLibraryStore()
        try store.setProgress(BookProgress(fraction: 0.4, finished: false), for: "book-1")
        let live = LibraryLiveUpdates(server: try ScriptedServer(titles: []), store: store, logger: Self.quiet)
        let event = #"{"timestamp":"2026-05-01T14:05:12Z","data":{"book_id":"book-1"},"type":"listening.progress_deleted"}"#
        let deletedAt = try #require(RFC3339.date(from: "2026-05-01T14:05:12Z"))
        let change = live.apply(ServerSentEvent(type: "listening.progress_deleted", data: event))
        #expect(change == .progressChanged(ListeningPosition(bookID: "book-1", position: 0, updatedAt: deletedAt)))
        #expect(try store.progress()["book-1"] == nil)

        // What the library hands the player (LibraryModel.listeningPositionChanged).
        let server = try ScriptedServer(titles: [])
        let listening = InMemoryListeningStore()
        try listening.savePosition(ListeningPosition(bookID: "book-1", position: 42_000, updatedAt: deletedAt.addingTimeInterval(-60)))
        try listening.savePosition(ListeningPosition(bookID: "book-2", position: 42_000, updatedAt: deletedAt.addingTimeInterval(60)))
        var dependencies = Dependencies.test()
        dependencies.openListening = { _, _ in listening }
        let player = PlayerModel(dependencies: dependencies, session: Session(try #require(await server.currentSession), connection: server))
        defer { Task { await player.shutdown(grace: .milliseconds(10)) } }
        guard case .progressChanged(let position?)? = change else { return }
        player.positionReported(position)
        #expect(try listening.position(bookID: "book-1")?.position == 0, "the resume point is the start now, not at the next sync")
        // Listening here after the deletion is newer, and stays.
        player.positionReported(ListeningPosition(bookID: "book-2", position: 0, updatedAt: deletedAt))
        #expect(try listening.position(bookID: "book-2")?.position == 42_000)
    }
}
