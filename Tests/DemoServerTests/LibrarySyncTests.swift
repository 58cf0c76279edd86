import DemoServer
import Foundation
import ListenUpAPI
import ListenUpLive
import ListenUpTestSupport
import Testing
@testable import ListenUpCore

/// The library cache kept in step with the demo server.
@Suite("Library cache and sync")
struct LibrarySyncTests {
    let logs = LogCapture()

    func signedIn(books: Int, payload: DemoPayload = .compact, transport: HTTPTransport = .live) async throws -> (DemoServer, APIClient) {
        var configuration = DemoServer.Configuration()
        configuration.bookCount = books
        configuration.payload = payload
        configuration.admin = .init(email: "ada@example.com", password: "analytical-engine")
        let server = DemoServer(configuration: configuration, logger: logs.logger)
        try await server.start()
        let url = try #require(server.baseURL)
        let login = APIClient(baseURL: url, session: nil, transport: .live, sessions: .inMemory(),
                              deviceInfo: DeviceInfo(deviceType: "desktop", platform: "Linux"), logger: logs.logger)
        let session = try await login.login(email: "ada@example.com", password: "analytical-engine")
        let client = APIClient(baseURL: url, session: session, transport: transport, sessions: .inMemory(),
                               deviceInfo: DeviceInfo(deviceType: "desktop", platform: "Linux"), logger: logs.logger)
        return (server, client)
    }

    @Test func aFullSyncThenADeltaAppliesCreatesUpdatesAndDeletes() async throws {
        let (server, client) = try await signedIn(books: 1200)
        defer { Task { await server.stop() } }
        let store = SQLiteLibraryStore.inMemory()
        try await LibrarySync(server: client, store: store, pageSize: 500).run()
        #expect(try store.count() == 1200)
        #expect(try store.syncState().fullSyncDone)
        #expect(server.requestCount("/api/v1/sync/books") == 3)

        let books = try store.books()
        let renamed = books[0].id, removed = books[1].id
        server.updateBook(id: renamed, title: "Zz Renamed Édition 夜明け")
        server.deleteBook(id: removed)
        let added = server.addBook(title: "A Brand New Book")
        let changed = try await LibrarySync(server: client, store: store, pageSize: 500).run()
        #expect(server.requestCount("/api/v1/sync/books") == 4, "one delta page")
        #expect(changed == 3, "one renamed, one added, one deleted")
        let after = try store.books()
        #expect(after.count == 1200)
        #expect(after.first { $0.id == renamed }?.title == "Zz Renamed Édition 夜明け")
        #expect(!after.contains { $0.id == removed })
        #expect(after.first { $0.id == added }?.authors == "New Author")

        // A date read back from the wire can come out a hair earlier than the
        // server's own (a Double holds no nanoseconds), so a delta may bring
        // back the newest book unchanged: stored again as it was, it is no
        // change.
        #expect(try await LibrarySync(server: client, store: store, pageSize: 500).run() == 0,
                "nothing new, and the deletion already applied")
    }

    /// The usual start: the cache is shown, and a delta that brings nothing
    /// leaves it as it is, with no second read of the whole cache.
    @MainActor
    @Test func aDeltaThatChangesNothingDoesNotReadTheCacheAgain() async throws {
        let (server, client) = try await signedIn(books: 30)
        defer { Task { await server.stop() } }
        let store = SQLiteLibraryStore.inMemory()
        try await LibrarySync(server: client, store: store).run()
        let session = try #require(await client.currentSession)

        func start() async throws -> (LibraryModel, LogCapture) {
            let logs = LogCapture()
            var dependencies = Dependencies.test(transport: .live, sessions: .inMemory([session]), logger: logs.logger)
            dependencies.connectREST = Dependencies.restV1Connection
            dependencies.openLibrary = { _, _ in store }
            dependencies.openCoverCache = { _, _ in nil }
            let (deltas, streams) = (server.requestCount("/api/v1/sync/books"), server.requestCount("/api/v1/sync/events"))
            let model = LibraryModel(dependencies: dependencies, session: dependencies.resume(session), send: { _ in })
            // Live updates start once the sync is over; once they are
            // connected, the books' delta runs once more (REST v1's events
            // are not replayed): both done before the test goes on.
            for _ in 0..<300 where server.requestCount("/api/v1/sync/events") == streams || server.requestCount("/api/v1/sync/books") < deltas + 2 {
                try await Task.sleep(for: .milliseconds(20))
            }
            return (model, logs)
        }
        func cacheReads(_ logs: LogCapture) -> Int { logs.text.components(separatedBy: "Library cache read").count - 1 }

        let (unchanged, quiet) = try await start()
        #expect(server.requestCount("/api/v1/sync/books") == 3, "the first sync, the model's delta, and its catch-up once live")
        #expect(unchanged.books.count == 30)
        #expect(cacheReads(quiet) == 1)
        unchanged.deactivate()

        let renamed = try #require(unchanged.books.first).id
        server.updateBook(id: renamed, title: "Renamed While Away")
        let (changed, busy) = try await start()
        defer { changed.deactivate() }
        #expect(cacheReads(busy) == 2, "read at start, and again for the delta")
        #expect(changed.books.first { $0.id == renamed }?.title == "Renamed While Away")
    }

    /// REST v1 replays no events: a book added after the sync read the
    /// books, or a series renamed after it read the series, but before the
    /// live events opened (its event reached no stream) is caught up once
    /// they open, however soon after the sync.
    @MainActor
    @Test func whatChangedBeforeTheLiveEventsOpenShowsOnceTheyDo() async throws {
        let (server, client) = try await signedIn(books: 5, payload: .realistic)
        defer { Task { await server.stop() } }
        let session = try #require(await client.currentSession)
        let store = SQLiteLibraryStore.inMemory()
        var dependencies = Dependencies.test(transport: .live, sessions: .inMemory([session]), logger: logs.logger)
        dependencies.connectREST = Dependencies.restV1Connection
        dependencies.openLibrary = { _, _ in store }
        dependencies.openCoverCache = { _, _ in nil }
        dependencies.liveUpdatesBackoff = .init(initial: .milliseconds(200), maximum: .milliseconds(200))
        server.refuseEventStreams = true
        let model = LibraryModel(dependencies: dependencies, session: dependencies.resume(session), send: { _ in })
        defer { model.deactivate() }
        // The live events are asked for after the books and the browse domains.
        for _ in 0..<300 where model.books.count < 5 || server.requestCount("/api/v1/sync/events") == 0 {
            try await Task.sleep(for: .milliseconds(20))
        }
        try #require(model.books.count == 5, "synced, and the live events refused once")
        let seriesID = try #require(server.seriesIDs.first)
        try #require(try store.browseItems(.series).contains { $0.id == seriesID }, "the series synced")

        let added = server.addBook(title: "Added Before The Stream")
        #expect(server.renameSeries(id: seriesID, to: "Renamed Before The Stream"))
        server.refuseEventStreams = false
        for _ in 0..<300 where server.eventStreamCount == 0 { try await Task.sleep(for: .milliseconds(20)) }
        try #require(server.eventStreamCount > 0, "the live events opened")
        // Within the five seconds after a sync that a whole sync would skip.
        func seriesName() -> String? { try? store.browseItems(.series).first { $0.id == seriesID }?.name }
        for _ in 0..<200 where !model.books.contains(where: { $0.id == added }) || seriesName() != "Renamed Before The Stream" {
            try await Task.sleep(for: .milliseconds(20))
        }
        #expect(model.books.contains { $0.id == added }, "\(model.books.map(\.title))")
        #expect(seriesName() == "Renamed Before The Stream")
    }

    /// A page stored again as it is changes nothing; a changed book and a
    /// deletion of a cached book each count once, an unknown id not at all.
    @Test func applyingAPageCountsOnlyRealChanges() async throws {
        let (server, client) = try await signedIn(books: 30)
        defer { Task { await server.stop() } }
        let page = ServerBooksPage(try await client.authorized(.syncBooks(limit: 30)))
        let store = SQLiteLibraryStore.inMemory()
        #expect(try store.apply(page.books, deleting: [], state: LibrarySyncState()) == 30)
        #expect(try store.apply(page.books, deleting: ["book-never-cached"], state: LibrarySyncState()) == 0)
        var books = page.books
        books[3].title = "A New Title"
        #expect(try store.apply(books, deleting: [books[4].id], state: LibrarySyncState()) == 2)
        #expect(try store.count() == 29)
    }

    /// The list's read leaves the details (descriptions, chapters) in the
    /// cache: only the details panel reads them, a book at a time.
    @Test func theListedBooksLeaveTheDetailsBehind() async throws {
        let (server, client) = try await signedIn(books: 20)
        defer { Task { await server.stop() } }
        let store = SQLiteLibraryStore.inMemory()
        try await LibrarySync(server: client, store: store).run()
        let whole = try store.books().sorted { $0.id < $1.id }
        let listed = try store.listedBooks().sorted { $0.id < $1.id }
        #expect(listed.map(\.id) == whole.map(\.id))
        #expect(listed.allSatisfy { $0.details.isEmpty })
        #expect(whole.allSatisfy { !$0.details.isEmpty })
        for (list, full) in zip(listed, whole) {
            var trimmed = full
            trimmed.details = Data()
            #expect(list == trimmed)
        }
        let first = try #require(listed.first)
        #expect(try store.book(id: first.id)?.decodedDetails == whole[0].decodedDetails)
    }

    @Test func anInterruptedSyncResumesWithoutDuplicates() async throws {
        let calls = LockedValue(0)
        let flaky = HTTPTransport { request, timeout, limit in
            if request.url.path.hasSuffix("/sync/books") {
                let n = calls.withLock { $0 += 1; return $0 }
                if n == 3 { throw TransportError.unreachable("connection dropped") }
            }
            return try await HTTPTransport.live.send(request, timeout, limit)
        }
        let (server, client) = try await signedIn(books: 1100, transport: flaky)
        defer { Task { await server.stop() } }
        let store = SQLiteLibraryStore.inMemory()
        await #expect(throws: ServerError.self) { try await LibrarySync(server: client, store: store, pageSize: 400).run() }
        #expect(try store.count() == 800, "the two pages received are kept")
        #expect(try store.syncState().resumeCursor != nil)
        #expect(try !store.syncState().fullSyncDone)
        try await LibrarySync(server: client, store: store, pageSize: 400).run()
        #expect(try store.count() == 1100)
        #expect(Set(try store.books().map(\.id)).count == 1100)
        #expect(server.requestCount("/api/v1/sync/books") == 3, "two pages, then only the missing one (the dropped request never reached it)")
    }

    @Test func aCorruptOrForeignCacheIsSetAsideAndRebuilt() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("listenup-cache-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let garbage = dir.appendingPathComponent("library.sqlite")
        try Data("this is not a database at all, just words".utf8).write(to: garbage)
        let store = SQLiteLibraryStore.open(at: garbage, logger: logs.logger)
        #expect(try store.count() == 0)
        #expect(FileManager.default.fileExists(atPath: garbage.path + ".corrupt"))

        // A real SQLite file that belongs to something else.
        let foreign = dir.appendingPathComponent("foreign.sqlite")
        let other = SQLiteLibraryStore.open(at: dir.appendingPathComponent("scratch.sqlite"), logger: logs.logger)
        _ = other
        _ = try RunningChild(["python3", "-c", "import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); c.execute('create table notes(x)'); c.commit()",
                              foreign.path]).finish()
        let rebuilt = SQLiteLibraryStore.open(at: foreign, logger: logs.logger)
        #expect(try rebuilt.count() == 0)
        #expect(FileManager.default.fileExists(atPath: foreign.path + ".corrupt"), "someone else's database is not ours to change")
        let mode = { (path: String) throws -> String in
            try RunningChild(["python3", "-c", "import sqlite3,sys; print(sqlite3.connect(sys.argv[1]).execute('pragma journal_mode').fetchone()[0])",
                              path]).finish().stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        #expect(try mode(foreign.path + ".corrupt") == "delete", "set aside as it was")
        #expect(try mode(foreign.path) == "wal", "ours: a commit does not wait for the disk")

        // The listening store is opened the same way (SQLiteFile).
        let listening = dir.appendingPathComponent("listening.sqlite")
        try Data("not a database either".utf8).write(to: listening)
        let spans = SQLiteListeningStore.open(at: listening, logger: logs.logger)
        #expect(spans is SQLiteListeningStore, "a fresh file, not memory")
        #expect(try spans.pendingSpans(limit: 5).isEmpty)
        #expect(FileManager.default.fileExists(atPath: listening.path + ".corrupt"))
        #expect(logs.text.contains("Listening store unreadable; setting it aside"))
    }

    @MainActor
    @Test func theLibraryStartsFromTheCacheAndSaysOfflineWhenTheServerIsDown() async throws {
        let (server, client) = try await signedIn(books: 40)
        let store = SQLiteLibraryStore.inMemory()
        try await LibrarySync(server: client, store: store).run()
        let session = try #require(await client.currentSession)
        await server.stop()

        var dependencies = Dependencies.test(transport: .live, sessions: .inMemory([session]))

        dependencies.connectREST = Dependencies.restV1Connection
        dependencies.openLibrary = { _, _ in store }
        let model = LibraryModel(dependencies: dependencies, session: dependencies.resume(session), send: { _ in })
        // The cache is read off the main actor, then shown; the network
        // is still failing then.
        for _ in 0..<500 where model.books.isEmpty { try await Task.sleep(for: .milliseconds(10)) }
        #expect(model.books.count == 40, "shown from the cache")
        #expect(model.status == .loaded)
        for _ in 0..<200 where !model.isOffline { try await Task.sleep(for: .milliseconds(20)) }
        #expect(model.isOffline)
        #expect(model.books.count == 40)
    }

    @MainActor
    @Test func aSignedInLibrarySyncsAndItsCoversArriveSniffedAsPNG() async throws {
        let (server, client) = try await signedIn(books: 12)
        defer { Task { await server.stop() } }
        let session = try #require(await client.currentSession)
        var dependencies = Dependencies.test(transport: .live, sessions: .inMemory([session]))
        dependencies.connectREST = Dependencies.restV1Connection
        dependencies.openLibrary = { _, _ in SQLiteLibraryStore.inMemory() }
        dependencies.openCoverCache = { _, _ in nil }
        let model = LibraryModel(dependencies: dependencies, session: dependencies.resume(session), send: { _ in })
        defer { model.deactivate() }
        for _ in 0..<300 where model.books.count < 12 || !model.coversAvailable { try await Task.sleep(for: .milliseconds(20)) }
        #expect(model.books.count == 12)
        #expect(model.coversAvailable, "the page re-binds its cells when this turns true")
        let book = try #require(model.books.first)
        #expect(book.hasCover)
        // The demo server labels its PNG covers image/jpeg, like the real one.
        #expect(await model.cover(for: book)?.format == .png)
    }
}
