import Foundation
import ListenUpAPI
import ListenUpTestSupport
import Testing
@testable import ListenUpCore

/// A book finished or restarted here changes that book in the library, not
/// a new read of the whole cache.
@MainActor
@Suite("Library: a progress write here")
struct LibraryProgressWriteTests {
    func settle(_ done: () -> Bool) async {
        for _ in 0..<300 where !done() { try? await Task.sleep(for: .milliseconds(10)) }
    }

    @Test func markingABookFinishedShowsItFinishedWithoutReadingTheCacheAgain() async throws {
        let server = try ScriptedServer(titles: [])
        let store = InstrumentedLibraryStore()
        _ = try store.apply([try PlayerModelTests.book(), try ScriptedServer.book(id: "book-2", title: "Another")], deleting: [],
                        state: LibrarySyncState())
        var dependencies = Dependencies.test()
        dependencies.openLibrary = { _, _ in store }
        dependencies.makePlaybackEngine = { ScriptedEngine() }
        let session = Session(try #require(await server.currentSession), connection: server)
        // The session wires the player's write to the library.
        let signedIn = SignedInSession(session: session, dependencies: dependencies, send: { _ in })
        let (player, library) = (signedIn.player, signedIn.library)
        defer { signedIn.leave() }
        await settle { library.books.count == 2 }
        try #require(library.books.count == 2)
        library.send(.finished(true))
        #expect(library.visible.isEmpty)
        let reads = store.wholeReads.value

        player.send(.markFinished(bookID: "book-1", finished: true))
        #expect(library.books.first { $0.id == "book-1" }?.progress?.finished == true, "at once, on the main actor")
        #expect(library.visible.map(\.id) == ["book-1"], "the Finished filter follows")
        #expect(library.books.first { $0.id == "book-2" }?.progress == nil)
        #expect(try store.progress()["book-1"]?.finished == true, "written to the cache")

        player.send(.markFinished(bookID: "book-1", finished: false))
        #expect(library.books.first { $0.id == "book-1" }?.progress?.finished == false)
        #expect(library.visible.isEmpty)
        try await Task.sleep(for: .milliseconds(200))
        #expect(store.wholeReads.value == reads, "the cache is not read again for one book")
    }
}
