import Foundation
import ListenUpAPI
import ListenUpKRPC
import ListenUpTestSupport
import Logging
import Testing
@testable import ListenUpCore
@testable import ListenUpLive

/// The library over kRPC when the server misbehaves: a socket that closes in
/// the middle of a sync (the cache keeps what it had, the page says it is
/// offline, and a later reconnection catches up) and a library that drifted
/// (a book gone on the server with no event: its digest tells, and a full
/// re-pull removes it).
@MainActor
@Suite("The kRPC library survives a broken socket and catches drift")
struct KRPCLibraryResilienceTests {
    let logs = LogCapture()
    static let device = ListenUpAPI.DeviceInfo(deviceType: "desktop", platform: "Linux", clientName: "ListenUp for Linux", clientVersion: "0.1.0")

    func settle(_ limit: Duration = .seconds(30), _ done: () -> Bool) async {
        let deadline = ContinuousClock.now + limit
        while !done(), ContinuousClock.now < deadline { try? await Task.sleep(for: .milliseconds(20)) }
    }

    func connection(_ server: ScriptedKRPCServer) -> (KRPCServerConnection, StoredSession) {
        let stored = Canned.storedSession(server.baseURL)
        return (KRPCServerConnection(baseURL: server.baseURL, session: stored, transport: .live, sessions: .inMemory([stored]),
                                     deviceInfo: Self.device, logger: logs.logger), stored)
    }

    func model(_ client: KRPCServerConnection, _ stored: StoredSession, store: InMemoryLibraryStore) -> LibraryModel {
        var dependencies = Dependencies.test(logger: logs.logger)
        dependencies.openLibrary = { _, _ in store }
        dependencies.liveUpdatesBackoff = .init(initial: .milliseconds(50), maximum: .milliseconds(300))
        return LibraryModel(dependencies: dependencies, session: Session(stored, connection: client, generation: .krpc), send: { _ in })
    }

    @Test func aSocketClosingMidSyncKeepsTheLibraryShowsItOfflineAndCatchesUpLater() async throws {
        let library = ScriptedKRPCLibrary(titles: ["Anathem", "Beloved", "Cryptonomicon", "Dune"])
        let server = try await ScriptedKRPCServer.start(handler: library.handle)
        defer { Task { await server.stop() } }
        let (client, stored) = connection(server)
        let store = InMemoryLibraryStore()

        // A first sync broken after its first page keeps that page and where it stopped.
        library.isBroken = true
        do {
            try await LibrarySync(server: client, store: store, pageSize: 2, logger: logs.logger).run()
            Issue.record("a sync over a broken socket succeeded")
        } catch {
            #expect(error.code == "unreachable")
        }
        #expect(try store.count() == 2)
        #expect(try store.syncState().resumeCursor == "rev:2" && !(try store.syncState().fullSyncDone))
        #expect(server.calls.filter { $0.method == "pullDomain" }.count == 3, "the broken page was asked once more on a new socket, no more")
        library.isBroken = false
        try await LibrarySync(server: client, store: store, pageSize: 2, logger: logs.logger).run()
        #expect(try store.count() == 4)
        #expect(server.calls.filter { $0.method == "pullDomain" }.compactMap { $0.data.data.contains(#""since":0"#) ? $0 : nil }.count == 1,
                "the second run resumed where the first stopped")

        // The app over a cache: the delta breaks, the books stay and the page says it is offline.
        library.add("Emma")
        library.isBroken = true
        let model = model(client, stored, store: store)
        defer { model.deactivate() }
        await settle { model.isOffline }
        #expect(model.isOffline && model.status == .loaded)
        #expect(model.books.count == 4)

        // The network comes back: live events reconnect and the delta catches up.
        library.isBroken = false
        await settle { model.books.count == 5 && model.isLive && !model.isOffline }
        #expect(model.books.map(\.title) == ["Anathem", "Beloved", "Cryptonomicon", "Dune", "Emma"])
        #expect(model.isLive && !model.isOffline)
        #expect(!logs.text.contains("access-token-"))
    }

    @Test func aBookGoneWithoutAnEventIsCaughtByTheDigestAndLeavesTheLibrary() async throws {
        let library = ScriptedKRPCLibrary(titles: ["Anathem", "Beloved", "Cryptonomicon", "Dune"])
        let server = try await ScriptedKRPCServer.start(handler: library.handle)
        defer { Task { await server.stop() } }
        let (client, stored) = connection(server)
        let model = model(client, stored, store: InMemoryLibraryStore())
        defer { model.deactivate() }
        await settle { model.books.count == 4 && model.isLive }
        #expect(model.books.count == 4 && model.isLive)
        #expect(!logs.text.contains("differs from the server's digest"), "a library in step is not pulled again")
        // Quiet: the stream is open and no sync runs (a nudge during one is not queued).
        await settle { library.streamCount == 1 && model.syncProgress == nil }

        // Gone for good on the server: no tombstone, no event; then the server's nudge.
        library.purge("book-2")
        await library.broadcast(control: "LibraryDataChanged")
        await settle { model.books.count == 3 }
        #expect(model.books.map(\.title) == ["Anathem", "Cryptonomicon", "Dune"])
        #expect(logs.text.contains("info The library differs from the server's digest; pulling every book again"))
        let fromTheStart = server.calls.filter { $0.method == "pullDomain" && $0.data.data.contains(#""domain":"books""#) && $0.data.data.contains(#""since":0"#) }
        #expect(fromTheStart.count == 2, "the first sync, then the re-pull")
    }

    @Test func aBookSwappedForAnotherIsCaughtByTheDigestsHashThoughTheCountIsTheSame() async throws {
        let library = ScriptedKRPCLibrary(titles: ["Anathem", "Beloved", "Cryptonomicon"])
        let server = try await ScriptedKRPCServer.start(handler: library.handle)
        defer { Task { await server.stop() } }
        let (client, stored) = connection(server)
        let model = model(client, stored, store: InMemoryLibraryStore())
        defer { model.deactivate() }
        await settle { model.books.count == 3 && model.isLive }
        #expect(!logs.text.contains("differs from the server's digest"), "a library in step is not pulled again")
        await settle { library.streamCount == 1 && model.syncProgress == nil }

        // Same count, another book: only the hash differs.
        library.swap("book-2", for: "Dune")
        await library.broadcast(control: "LibraryDataChanged")
        await settle { model.books.map(\.title).contains("Dune") }
        #expect(model.books.map(\.title) == ["Anathem", "Cryptonomicon", "Dune"])
        #expect(logs.text.contains("info The library differs from the server's digest; pulling every book again"))
    }

    @Test func theDigestHashIsTheServersSortedLinesOfIdAndRevision() {
        // Python: hashlib.sha256(b"a|10\nb|2\n").hexdigest()
        #expect(KRPCServerConnection.digestHash(["b": 2, "a": 10])
            == "sha256:e0ea47b4bf9da6711a1be1a43973e1dc311f46d53641bfcdacdf845f9ec55404")
        #expect(KRPCServerConnection.digestHash([:]) == "", "an empty library, as the server writes it")
    }

    @Test func aDifferenceAFullPullDoesNotMendIsNotPulledForAgainAndAgain() async throws {
        let library = ScriptedKRPCLibrary(titles: ["Anathem", "Beloved"])
        library.digestSurplus = 1
        let server = try await ScriptedKRPCServer.start(handler: library.handle)
        defer { Task { await server.stop() } }
        let (client, stored) = connection(server)
        let model = model(client, stored, store: InMemoryLibraryStore())
        defer { model.deactivate() }
        func fromTheStart() -> Int { server.calls.filter { $0.method == "pullDomain" && $0.data.data.contains(#""domain":"books""#) && $0.data.data.contains(#""since":0"#) }.count }
        await settle { model.books.count == 2 && model.isLive && model.syncProgress == nil && fromTheStart() == 2 }
        #expect(fromTheStart() == 2, "the first sync, then one re-pull")
        #expect(logs.text.contains("still differs from the server's digest after a full pull"))
        let digests = server.count("digest")
        model.send(.reload)
        await settle { server.count("digest") >= digests + 2 && model.syncProgress == nil }
        #expect(server.count("digest") >= digests + 2, "the next sync checked again")
        #expect(fromTheStart() == 2, "and did not pull everything again")
        #expect(model.books.count == 2)
    }

    @Test func theDigestIsAskedAtTheRevisionTheConnectionHasSeen() async throws {
        let library = ScriptedKRPCLibrary(titles: ["Anathem", "Beloved", "Cryptonomicon"])
        let server = try await ScriptedKRPCServer.start(handler: library.handle)
        defer { Task { await server.stop() } }
        let (client, _) = connection(server)
        _ = try await client.syncBooks(limit: 10, cursor: nil, updatedAfter: nil)
        library.add("Dune")  // after the sync: not in the cache yet, and not a drift
        #expect(try await client.libraryDigest() == LibraryDigest(bookCount: 3, hash: KRPCServerConnection.digestHash(
            ["book-1": 1, "book-2": 2, "book-3": 3])))
        #expect(server.calls.last?.data.data.contains(#""cursor":3"#) == true)
        #expect(try await client.libraryBookCount() == 4, "the count of the whole library is still everything")
    }
}
