import Foundation
import ListenUpAPI
import ListenUpTestSupport
import Testing
@testable import ListenUpCore

/// The signed-in session makes the library, the player, the downloads and
/// the account's preferences, gives them one library cache, and wires what
/// one learns to the others.
@MainActor
@Suite("Signed-in session: its models and their wiring")
struct SignedInSessionTests {
    struct Rig {
        let signedIn: SignedInSession
        let server: ScriptedServer
        let engine: ScriptedEngine
        let listening: InMemoryListeningStore
        /// How often the library cache was opened.
        let opened: LockedValue<Int>
        let events: LockedValue<[AuthEvent]>
    }

    func rig(keepsPreferences: Bool = false) async throws -> Rig {
        let server = try ScriptedServer(titles: [])
        if keepsPreferences { server.preferencesKept.value = AccountPreferences() }
        let store = InMemoryLibraryStore()
        try store.apply([try PlayerModelTests.book()], deleting: [], state: LibrarySyncState())
        let listening = InMemoryListeningStore()
        let engine = ScriptedEngine()
        let opened = LockedValue(0)
        var dependencies = Dependencies.test()
        dependencies.openLibrary = { _, _ in
            opened.withLock { $0 += 1 }
            return store
        }
        dependencies.openListening = { _, _ in listening }
        dependencies.makePlaybackEngine = { engine }
        dependencies.liveUpdatesBackoff = .init(initial: .milliseconds(20), maximum: .milliseconds(50))
        let events = LockedValue<[AuthEvent]>([])
        let session = Session(try #require(await server.currentSession), connection: server)
        let signedIn = SignedInSession(session: session, dependencies: dependencies, send: { event in
            events.withLock { $0.append(event) }
        })
        return Rig(signedIn: signedIn, server: server, engine: engine, listening: listening, opened: opened, events: events)
    }

    func settle(_ done: () -> Bool) async {
        for _ in 0..<1_000 where !done() { try? await Task.sleep(for: .milliseconds(10)) }
    }

    /// Waits until the library shows its books and its live events flow.
    func live(_ rig: Rig) async throws {
        await settle { rig.signedIn.library.isLive && rig.signedIn.library.books.count == 1 }
        try #require(rig.signedIn.library.isLive)
    }

    @Test func everyModelOfTheSessionUsesOneLibraryCache() async throws {
        let rig = try await rig()
        defer { rig.signedIn.leave() }
        try await live(rig)
        rig.signedIn.player.send(.play(bookID: "book-1"))
        await settle { rig.engine.log.value.loaded != nil }
        rig.signedIn.downloads.send(.download(bookID: "book-1"))
        await settle { rig.signedIn.downloads.item("book-1") != nil }
        #expect(rig.signedIn.downloads.item("book-1") != nil, "the downloads read the book")
        #expect(rig.engine.log.value.loaded?.bookID == "book-1", "the player read the book")
        #expect(rig.signedIn.player.playableBook("book-1")?.audioFiles.count == 2)
        #expect(rig.opened.value == 1, "opened once, for all of them")
    }

    @Test func theServerBackAfterAnOutageGetsTheQueuedSpansSentAtOnce() async throws {
        let rig = try await rig()
        defer { rig.signedIn.leave() }
        try await live(rig)
        await rig.server.setOffline(true)
        rig.signedIn.player.send(.play(bookID: "book-1"))
        await settle { rig.engine.log.value.loaded != nil }
        rig.engine.report(.status(.playing))
        rig.engine.report(.position(5_000))
        await settle { rig.signedIn.player.position == 5_000 }
        rig.signedIn.player.send(.pause)
        await settle { (try? rig.listening.pendingSpans(limit: 10).count) == 1 }
        try #require(try rig.listening.pendingSpans(limit: 10).count == 1, "queued while the server is away")

        await rig.server.dropLiveEvents()
        await settle { !rig.signedIn.library.isLive }
        #expect(rig.signedIn.serverUnreachable)
        await rig.server.setOffline(false)
        // The live events reconnect: the server answers, and the player
        // sends its queue now rather than at its next minute.
        await settle { !rig.server.spansSnapshot.isEmpty }
        #expect(rig.server.spansSnapshot.map(\.end) == [5_000])
        // The spans may be sent a moment before the reconnected events say
        // the server is back (seen in a full run).
        await settle { !rig.signedIn.serverUnreachable }
        #expect(!rig.signedIn.serverUnreachable)
    }

    @Test func anotherDevicesPositionReachesThePlayer() async throws {
        let rig = try await rig()
        defer { rig.signedIn.leave() }
        try await live(rig)
        let played = Date(timeIntervalSince1970: 1_777_644_312.301)
        await rig.server.announceEvent(.progressChanged(bookID: "book-1", progress: BookProgress(fraction: 0.25, finished: false),
                                                        position: ListeningPosition(bookID: "book-1", position: 42_000, updatedAt: played)))
        await settle { (try? rig.listening.position(bookID: "book-1"))?.position == 42_000 }
        #expect(try rig.listening.position(bookID: "book-1")?.position == 42_000, "kept as the book's resume point")
    }

    @Test func theAccountDeletedOnTheServerSignsOutWithItsReason() async throws {
        let rig = try await rig()
        defer { rig.signedIn.leave() }
        try await live(rig)
        await rig.server.announceEvent(.userDeleted(reason: "Moved to the family server"))
        await settle { !rig.events.value.isEmpty }
        #expect(rig.events.value == [.sessionRefused(.accountRemoved(reason: "Moved to the family server"))])
        #expect(await rig.server.calls.contains("logout"), "the credentials are forgotten before Sign in shows")
    }

    /// A shelf made elsewhere: the shelves are synced alone (no book
    /// delta, no drift check), and the session's shelves show it.
    @Test func aShelfChangeSyncsTheShelvesAlone() async throws {
        let rig = try await rig()
        defer { rig.signedIn.leave() }
        try await live(rig)
        let deltas = { await rig.server.calls.filter { $0 == "delta" || $0 == "count" }.count }
        let before = await deltas()
        await rig.server.setShelves([Shelf(id: "s1", name: "Commute", updatedAt: Date())])
        await rig.server.announceEvent(.browseChanged([.shelves, .shelfBooks]))
        await settle { rig.signedIn.shelves.mine.map(\.id) == ["s1"] }
        #expect(rig.signedIn.shelves.mine.map(\.id) == ["s1"])
        #expect(await deltas() == before, "no book delta for a shelf")
    }

    @Test func thePreferencesAreReadAgainWhenTheServerSaysTheyChanged() async throws {
        let rig = try await rig(keepsPreferences: true)
        defer { rig.signedIn.leave() }
        try await live(rig)
        let reads = { await rig.server.calls.filter { $0 == "preferences" }.count }
        for _ in 0..<300 where await reads() < 1 { try await Task.sleep(for: .milliseconds(10)) }
        let before = await reads()
        try #require(before >= 1, "read when the live events connected")
        await rig.server.announceEvent(.preferencesChanged)
        for _ in 0..<300 where await reads() == before { try await Task.sleep(for: .milliseconds(10)) }
        #expect(await reads() == before + 1)
    }

    @Test func aBookFinishedHereChangesThatBookInTheLibrary() async throws {
        let rig = try await rig()
        defer { rig.signedIn.leave() }
        try await live(rig)
        rig.signedIn.player.send(.markFinished(bookID: "book-1", finished: true))
        #expect(rig.signedIn.library.books.first?.progress?.finished == true, "at once, on the main actor")
    }

    /// Books travel as values: Play and Download from the details hand on
    /// the book the details read; from a card, the library reads it once
    /// (off the main actor) and the player and downloads read nothing.
    @Test func playAndDownloadHandTheBookOnWithoutReadingItAgain() async throws {
        let server = try ScriptedServer(titles: [])
        let store = InstrumentedLibraryStore()
        var second = try PlayerModelTests.book()
        second.id = "book-2"
        _ = try store.apply([try PlayerModelTests.book(), second], deleting: [], state: LibrarySyncState())
        let engine = ScriptedEngine()
        var dependencies = Dependencies.test()
        dependencies.openLibrary = { _, _ in store }
        dependencies.openListening = { _, _ in InMemoryListeningStore() }
        dependencies.makePlaybackEngine = { engine }
        let session = Session(try #require(await server.currentSession), connection: server)
        let signedIn = SignedInSession(session: session, dependencies: dependencies, send: { _ in })
        defer { signedIn.leave() }
        let library = signedIn.library
        await settle { library.books.count == 2 }
        await signedIn.downloads.restored()

        library.send(.select("book-1"))
        #expect(library.selection?.playable?.audioFiles.count == 2)
        let reads = store.bookReads.value
        library.send(.play(bookID: "book-1"))
        await settle { engine.log.value.loaded?.bookID == "book-1" }
        #expect(engine.log.value.loaded?.bookID == "book-1")
        library.send(.download(bookID: "book-1"))
        #expect(signedIn.downloads.item("book-1") != nil, "queued at once")
        #expect(store.bookReads.value == reads, "the details' book, handed on")

        library.send(.play(bookID: "book-2"))
        await settle { engine.log.value.loaded?.bookID == "book-2" }
        #expect(engine.log.value.loaded?.bookID == "book-2")
        #expect(store.bookReads.value == reads + 1, "a card's book is read once, by the library")
    }

    @Test func afterLeavingNothingIsPassedOn() async throws {
        let rig = try await rig()
        try await live(rig)
        rig.signedIn.leave()
        rig.signedIn.player.send(.markFinished(bookID: "book-1", finished: true))
        #expect(rig.signedIn.library.books.first?.progress?.finished != true, "the wiring is gone")
        await rig.server.announceEvent(.userDeleted(reason: nil))
        try await Task.sleep(for: .milliseconds(200))
        #expect(rig.events.value.isEmpty, "the live events are no longer followed")
        await rig.signedIn.end(grace: .milliseconds(100))
        await rig.signedIn.end(grace: .milliseconds(100))
    }
}
