import Foundation
import ListenUpAPI
import ListenUpLive
import ListenUpTestSupport
import Observation
import Testing
@testable import ListenUpCore

@MainActor
@Suite("Downloads: the queue, resuming, failures and space")
struct DownloadsModelTests {
    /// Bytes of a file: a pattern that differs per file and per offset.
    static func bytes(_ count: Int, seed: UInt8) -> Data {
        Data((0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ Int(seed)) })
    }

    /// `count` books of two files each (`<book>-a`, `<book>-b`).
    static func books(_ count: Int) throws -> (books: [ServerBook], sources: [String: Data]) {
        var sources: [String: Data] = [:]
        let books = try (0..<count).map { index -> ServerBook in
            var book = try ScriptedServer.book(id: "book-\(index)", title: "Book \(index)")
            book.audioFiles = ["a", "b"].enumerated().map { number, suffix in
                let id = "book-\(index)-\(suffix)"
                let data = bytes(3_000 + number * 1_000 + index, seed: UInt8(index * 2 + number))
                sources[id] = data
                return ServerBook.AudioFile(id: id, format: "mp3", codec: nil, size: Int64(data.count), duration: 30_000, bitrate: nil)
            }
            book.chapters = [ServerBook.Chapter(title: "One", audioFileID: "book-\(index)-a", startTime: 0, endTime: 60_000)]
            return book
        }
        return (books, sources)
    }

    struct Rig {
        let model: DownloadsModel
        let server: ScriptedServer
        let fetcher: ScriptedFetcher
        let store: FileDownloadStore
        let sources: [String: Data]
        let dependencies: Dependencies
        let session: Session

        /// Another model over the same files: the app started again.
        @MainActor func restarted(configuration: DownloadsModel.Configuration = DownloadsModelTests.quick) async -> DownloadsModel {
            let model = DownloadsModel(dependencies: dependencies, session: session, store: store, configuration: configuration)
            await model.restored()
            return model
        }
    }

    static let quick: DownloadsModel.Configuration = {
        var configuration = DownloadsModel.Configuration()
        configuration.progressInterval = .milliseconds(10)
        configuration.retryDelays = [.seconds(3600)]
        return configuration
    }()

    func rig(books count: Int = 1, freeSpace: Int64? = nil, configuration: DownloadsModel.Configuration = quick,
             prepare: (FileDownloadStore, ScriptedFetcher) throws -> Void = { _, _ in }) async throws -> Rig {
        let (books, sources) = try Self.books(count)
        let server = try ScriptedServer(titles: [])
        let library = InMemoryLibraryStore()
        try library.apply(books, deleting: [], state: LibrarySyncState())
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("downloads-\(UUID().uuidString)")
        let store = FileDownloadStore(root: folder)
        let fetcher = ScriptedFetcher(sources: sources)
        try prepare(store, fetcher)
        var dependencies = Dependencies.test()
        dependencies.openLibrary = { _, _ in library }
        dependencies.audioFileFetcher = fetcher.fetcher
        dependencies.diskSpace = .fixed(freeSpace)
        let session = Session(try #require(await server.currentSession), connection: server)
        let model = DownloadsModel(dependencies: dependencies, session: session, store: store, configuration: configuration)
        await model.restored()
        return Rig(model: model, server: server, fetcher: fetcher, store: store, sources: sources, dependencies: dependencies, session: session)
    }

    func settle(_ done: () -> Bool) async {
        for _ in 0..<500 where !done() { try? await Task.sleep(for: .milliseconds(10)) }
    }

    func onDisk(_ rig: Rig, _ fileID: String, book: String = "book-0") throws -> Data {
        let download = try #require(rig.model.items[book]?.download)
        let file = try #require(download.files.first { $0.id == fileID })
        return try Data(contentsOf: rig.store.url(bookID: book, file: file))
    }

    @Test func aBookDownloadsEveryFileAtItsSizeAndIsKeptForTheNextRun() async throws {
        let rig = try await rig()
        rig.model.send(.download(bookID: "book-0"))
        #expect(rig.model.items["book-0"] != nil)
        await settle { rig.model.items["book-0"]?.status == .done }
        let item = try #require(rig.model.items["book-0"])
        #expect(item.status == .done)
        #expect(item.bytes == item.totalBytes)
        #expect(item.fraction == 1)
        #expect(try onDisk(rig, "book-0-a") == rig.sources["book-0-a"])
        #expect(try onDisk(rig, "book-0-b") == rig.sources["book-0-b"])
        #expect(await rig.server.calls.contains("audio"), "fresh access is asked for when a download starts")
        #expect(rig.model.downloadedBookIDs == ["book-0"])
        await settle { rig.model.bytesOnDisk >= item.totalBytes }
        #expect(rig.model.bytesOnDisk >= item.totalBytes, "measured off the main actor, then published")
        let saved = try rig.store.downloads()
        #expect(saved.map(\.status) == [.done])
        #expect(saved.first?.chapters.map(\.title) == ["One"])
        let again = await rig.restarted()
        #expect(again.items["book-0"]?.status == .done)
        let timeline = try #require(again.localTimeline(bookID: "book-0"))
        #expect(timeline.files.allSatisfy { $0.url.isFileURL })
        #expect(timeline.headers.isEmpty)
        #expect(timeline.duration == 60_000)
    }

    @Test func twoBooksDownloadAtATimeInTheOrderAskedFor() async throws {
        let rig = try await rig(books: 3) { _, fetcher in
            for book in 0..<3 { fetcher.script("book-\(book)-a", .hold) }
        }
        rig.model.send(.download(bookID: "book-2"))
        rig.model.send(.download(bookID: "book-0"))
        rig.model.send(.download(bookID: "book-1"))
        await settle { rig.fetcher.requests.value.count == 2 }
        try? await Task.sleep(for: .milliseconds(50))
        #expect(Set(rig.fetcher.requests.value.map(\.file)) == ["book-2-a", "book-0-a"])
        #expect(rig.model.items["book-1"]?.status == .queued)
        #expect(rig.model.activeProgress?.total == rig.model.items.values.reduce(0) { $0 + $1.totalBytes })
        rig.fetcher.release()
        await settle { rig.model.downloadedBookIDs.count == 3 }
        #expect(rig.model.downloadedBookIDs == ["book-0", "book-1", "book-2"])
        #expect(rig.model.activeProgress == nil)
    }

    @Test func aDownloadInterruptedByARestartGoesOnFromThePartialFile() async throws {
        let rig = try await rig()
        // The first run wrote 1,234 bytes of the first file and was killed:
        // its manifest still says downloading.
        let library = rig.dependencies.openLibrary(rig.session.serverURL, rig.session.userID)
        let cached = try #require(try library.book(id: "book-0"))
        var saved = try #require(BookDownload(book: cached))
        saved.status = .downloading
        try rig.store.save(saved)
        let partial = try #require(rig.sources["book-0-a"]?.prefix(1_234))
        try partial.write(to: rig.store.url(bookID: "book-0", file: saved.files[0]))
        // Held, so the restored bytes are read before the download goes on.
        rig.fetcher.script("book-0-a", .hold)
        let again = await rig.restarted()
        #expect(again.items["book-0"]?.bytes == 1_234)
        rig.fetcher.release()
        await settle { again.items["book-0"]?.status == .done }
        #expect(again.items["book-0"]?.status == .done)
        #expect(rig.fetcher.offsets["book-0-a"] == [1_234], "continued from the partial length, not from zero")
        #expect(rig.fetcher.offsets["book-0-b"] == [0])
        #expect(try Data(contentsOf: rig.store.url(bookID: "book-0", file: saved.files[0])) == rig.sources["book-0-a"])
    }

    @Test func theNetworkGoingAwayPausesWithAMessageAndTheServerComingBackResumes() async throws {
        let rig = try await rig { _, fetcher in
            fetcher.script("book-0-b", .failAfter(500, .network("reset")))
        }
        rig.model.send(.download(bookID: "book-0"))
        await settle { rig.model.items["book-0"]?.status == .paused }
        let paused = try #require(rig.model.items["book-0"])
        #expect(paused.status == .paused)
        #expect(paused.failure?.code == .network)
        #expect(paused.failure?.message.isEmpty == false)
        #expect(paused.bytes == Int64(rig.sources["book-0-a"]?.count ?? 0) + 500, "what was written is kept")
        rig.model.serverIsBack()
        await settle { rig.model.items["book-0"]?.status == .done }
        #expect(rig.model.items["book-0"]?.status == .done)
        #expect(rig.fetcher.offsets["book-0-b"] == [0, 500])
        #expect(try onDisk(rig, "book-0-b") == rig.sources["book-0-b"])
    }

    @Test func aNetworkPauseIsRetriedByItselfAfterItsWait() async throws {
        var configuration = Self.quick
        configuration.retryDelays = [.milliseconds(50)]
        let rig = try await rig(configuration: configuration) { _, fetcher in
            fetcher.script("book-0-a", .failAfter(10, .network("refused")))
        }
        rig.model.send(.download(bookID: "book-0"))
        await settle { rig.model.items["book-0"]?.status == .done }
        #expect(rig.model.items["book-0"]?.status == .done)
        #expect(rig.fetcher.offsets["book-0-a"] == [0, 10])
    }

    @Test func aFullDiskPausesKeepsWhatFitAndWaitsForTheUser() async throws {
        var configuration = Self.quick
        configuration.retryDelays = [.milliseconds(20)]
        let rig = try await rig(configuration: configuration) { _, fetcher in
            fetcher.script("book-0-a", .failAfter(700, .diskFull))
        }
        rig.model.send(.download(bookID: "book-0"))
        await settle { rig.model.items["book-0"]?.status == .paused }
        #expect(rig.model.items["book-0"]?.failure?.code == .diskFull)
        try? await Task.sleep(for: .milliseconds(100))
        #expect(rig.model.items["book-0"]?.status == .paused, "a full disk is not retried by itself")
        #expect(try onDisk(rig, "book-0-a").count == 700)
        rig.model.send(.resume(bookID: "book-0"))
        await settle { rig.model.items["book-0"]?.status == .done }
        #expect(rig.fetcher.offsets["book-0-a"] == [0, 700])
    }

    @Test func refusedAudioIsAskedForAgainOnce() async throws {
        let rig = try await rig { _, fetcher in
            fetcher.script("book-0-a", .failAfter(0, .status(403)))
        }
        rig.model.send(.download(bookID: "book-0"))
        await settle { rig.model.items["book-0"]?.status == .done }
        #expect(rig.model.items["book-0"]?.status == .done)
        #expect(await rig.server.calls.filter { $0.hasPrefix("audio") } == ["audio", "audio refreshed"])
    }

    @Test func audioRefusedTwiceFailsWithTheReason() async throws {
        let rig = try await rig { _, fetcher in
            fetcher.script("book-0-a", .failAfter(0, .status(403)), .failAfter(0, .status(403)))
        }
        rig.model.send(.download(bookID: "book-0"))
        await settle { rig.model.items["book-0"]?.status == .failed }
        #expect(rig.model.items["book-0"]?.failure?.code == .forbidden)
    }

    @Test func anOversizedAnswerIsCutDeletedAndFetchedAgain() async throws {
        let rig = try await rig { _, fetcher in
            fetcher.script("book-0-a", .serveExtra(100))
        }
        rig.model.send(.download(bookID: "book-0"))
        await settle { rig.model.items["book-0"]?.status == .done }
        #expect(rig.fetcher.offsets["book-0-a"] == [0, 0])
        #expect(try onDisk(rig, "book-0-a") == rig.sources["book-0-a"])
    }

    @Test func aServerThatAlwaysSendsTooMuchFails() async throws {
        let rig = try await rig { _, fetcher in
            fetcher.script("book-0-a", .serveExtra(1), .serveExtra(1))
        }
        rig.model.send(.download(bookID: "book-0"))
        await settle { rig.model.items["book-0"]?.status == .failed }
        #expect(rig.model.items["book-0"]?.failure?.code == .sizeMismatch)
    }

    @Test func filesChangedOnDiskAreFetchedAgainAtTheNextStart() async throws {
        let rig = try await rig()
        rig.model.send(.download(bookID: "book-0"))
        await settle { rig.model.items["book-0"]?.status == .done }
        await rig.model.shutdown()
        let download = try #require(rig.model.items["book-0"]?.download)
        // One file truncated, the other grown.
        let first = rig.store.url(bookID: "book-0", file: download.files[0])
        let second = rig.store.url(bookID: "book-0", file: download.files[1])
        let handle = try FileHandle(forWritingTo: first)
        try handle.truncate(atOffset: 1_000)
        try handle.close()
        var grown = try Data(contentsOf: second)
        grown.append(contentsOf: [1, 2, 3])
        try grown.write(to: second)
        let again = await rig.restarted()
        await settle { again.items["book-0"]?.status == .done }
        #expect(again.items["book-0"]?.status == .done)
        #expect(rig.fetcher.offsets["book-0-a"] == [0, 1_000], "a truncated file goes on from its length")
        #expect(rig.fetcher.offsets["book-0-b"] == [0, 0], "a grown one is fetched from the start")
        #expect(try Data(contentsOf: first) == rig.sources["book-0-a"])
        #expect(try Data(contentsOf: second) == rig.sources["book-0-b"])
    }

    @Test func playingADoneBookWhoseFileWentMissingQueuesItAgain() async throws {
        let rig = try await rig()
        rig.model.send(.download(bookID: "book-0"))
        await settle { rig.model.items["book-0"]?.status == .done }
        let download = try #require(rig.model.items["book-0"]?.download)
        try FileManager.default.removeItem(at: rig.store.url(bookID: "book-0", file: download.files[1]))
        #expect(rig.model.localTimeline(bookID: "book-0") == nil)
        await settle { rig.model.items["book-0"]?.status == .done }
        #expect(rig.model.localTimeline(bookID: "book-0") != nil)
    }

    @Test func aBookThatDoesNotFitIsRefusedAndNothingIsWritten() async throws {
        let rig = try await rig(freeSpace: 5_000)
        rig.model.send(.download(bookID: "book-0"))
        let refusal = try #require(rig.model.refusal)
        #expect(refusal.bookID == "book-0")
        #expect(refusal.failure.code == .noSpace)
        #expect(refusal.failure.message.contains(Localization.bytes(5_000)))
        #expect(refusal.failure.message.contains(Localization.bytes(Int64(rig.sources.filter { $0.key.hasPrefix("book-0") }.values.reduce(0) { $0 + $1.count }))))
        #expect(rig.model.items.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: rig.store.root.path))
        #expect(rig.fetcher.requests.value.isEmpty)
    }

    @Test func booksAlreadyQueuedCountAgainstTheFreeSpace() async throws {
        // Each book is ~7 kB: the first fits, the second would not beside it.
        let rig = try await rig(books: 2, freeSpace: 10_000) { _, fetcher in
            fetcher.script("book-0-a", .hold)
        }
        rig.model.send(.download(bookID: "book-0"))
        rig.model.send(.download(bookID: "book-1"))
        #expect(rig.model.items["book-1"] == nil)
        #expect(rig.model.refusal?.bookID == "book-1")
        rig.fetcher.release()
    }

    @Test func aBookWhoseSizesTheServerDoesNotSayIsRefused() async throws {
        let rig = try await rig()
        var book = try #require(try Self.books(1).books.first)
        book.id = "sizeless"
        book.audioFiles[0].size = 0
        let library = rig.dependencies.openLibrary(rig.session.serverURL, rig.session.userID)
        try library.upsert([book])
        rig.model.send(.download(bookID: "sizeless"))
        #expect(rig.model.refusal?.failure.code == .unknownSize)
        #expect(rig.model.items["sizeless"] == nil)
    }

    @Test func unknownBooksAndBooksWithoutAudioAreRefused() async throws {
        let rig = try await rig()
        rig.model.send(.download(bookID: "nope"))
        #expect(rig.model.refusal?.failure.code == .unknownBook)
        #expect(rig.model.refusal?.serial == 1)
        rig.model.send(.download(bookID: "nope"))
        #expect(rig.model.refusal?.serial == 2, "the same refusal twice is seen twice")
    }

    @Test func pauseStopsTheFetchAndResumeGoesOnFromThere() async throws {
        let rig = try await rig { _, fetcher in
            fetcher.script("book-0-a", .hold)
        }
        rig.model.send(.download(bookID: "book-0"))
        await settle { rig.fetcher.requests.value.count == 1 }
        rig.model.send(.pause(bookID: "book-0"))
        #expect(rig.model.items["book-0"]?.status == .paused)
        #expect(rig.model.items["book-0"]?.failure == nil, "the user's pause has no message")
        try? await Task.sleep(for: .milliseconds(50))
        #expect(try rig.store.downloads().first?.status == .paused)
        rig.fetcher.release()
        rig.model.send(.resume(bookID: "book-0"))
        await settle { rig.model.items["book-0"]?.status == .done }
        #expect(rig.model.items["book-0"]?.status == .done)
    }

    @Test func pauseAllAndResumeAll() async throws {
        let rig = try await rig(books: 3) { _, fetcher in
            for book in 0..<3 { fetcher.script("book-\(book)-a", .hold) }
        }
        for book in 0..<3 { rig.model.send(.download(bookID: "book-\(book)")) }
        rig.model.send(.pauseAll)
        #expect(rig.model.items.values.allSatisfy { $0.status == .paused })
        rig.fetcher.release()
        rig.model.send(.resumeAll)
        await settle { rig.model.downloadedBookIDs.count == 3 }
        #expect(rig.model.downloadedBookIDs.count == 3)
    }

    @Test func cancelAndRemoveDeleteTheFiles() async throws {
        let rig = try await rig(books: 2) { _, fetcher in
            fetcher.script("book-1-a", .hold)
        }
        rig.model.send(.download(bookID: "book-0"))
        rig.model.send(.download(bookID: "book-1"))
        await settle { rig.model.items["book-0"]?.status == .done && rig.fetcher.offsets["book-1-a"] != nil }
        // Measured off the main actor, then published.
        await settle { rig.model.bytesOnDisk > 0 }
        #expect(rig.model.bytesOnDisk > 0)
        rig.model.send(.cancel(bookID: "book-1"))
        rig.model.send(.remove(bookID: "book-0"))
        #expect(rig.model.items.isEmpty)
        // The folders go off the main actor too.
        let gone = { (book: String) in !FileManager.default.fileExists(atPath: rig.store.folder(bookID: book).path) }
        await settle { rig.model.bytesOnDisk == 0 && gone("book-0") && gone("book-1") }
        #expect(rig.model.bytesOnDisk == 0)
        #expect(!FileManager.default.fileExists(atPath: rig.store.folder(bookID: "book-0").path))
        #expect(!FileManager.default.fileExists(atPath: rig.store.folder(bookID: "book-1").path))
        #expect(try rig.store.downloads().isEmpty)
    }

    @Test func removeAllDeletesEverything() async throws {
        let rig = try await rig(books: 2)
        rig.model.send(.download(bookID: "book-0"))
        rig.model.send(.download(bookID: "book-1"))
        await settle { rig.model.downloadedBookIDs.count == 2 && rig.model.bytesOnDisk > 0 }
        rig.model.send(.removeAll)
        await settle { rig.model.bytesOnDisk == 0 && (try? rig.store.downloads().isEmpty) == true }
        #expect(rig.model.items.isEmpty)
        #expect(try rig.store.downloads().isEmpty)
    }
}
