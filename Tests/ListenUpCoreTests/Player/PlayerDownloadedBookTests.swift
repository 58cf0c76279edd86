import Foundation
import ListenUpAPI
import ListenUpLive
import ListenUpTestSupport
import Testing
@testable import ListenUpCore

@MainActor
@Suite("The player and downloaded books")
struct PlayerDownloadedBookTests {
    struct Rig {
        let player: PlayerModel
        let downloads: DownloadsModel
        let engine: ScriptedEngine
        let server: ScriptedServer
        let store: FileDownloadStore
    }

    /// PlayerModelTests' book (two files), downloaded unless `downloaded` is false.
    /// - Parameter filesChanged: the library's book has other files than
    ///   the download (the server changed them after it was made).
    /// - Parameter restored: the saved downloads are read before the player
    ///   is made (false: the player may be used while they are read).
    func rig(downloaded: Bool = true, cover: Bool = false, filesChanged: Bool = false,
             coverCache: (any CoverCache)? = nil, restored: Bool = true) async throws -> Rig {
        let server = try ScriptedServer(titles: [])
        let library = InMemoryLibraryStore()
        var book = try PlayerModelTests.book()
        if coverCache != nil { book.hasCover = true }
        try library.apply([book], deleting: [], state: LibrarySyncState())
        let store = FileDownloadStore(root: FileManager.default.temporaryDirectory.appendingPathComponent("player-downloads-\(UUID().uuidString)"))
        let cached = try #require(try library.book(id: "book-1"))
        var download = try #require(BookDownload(book: cached))
        download.status = downloaded ? .done : .queued
        download.hasCover = cover
        try store.save(download)
        if cover { try Data([0x89, 0x50, 0x4E, 0x47]).write(to: store.folder(bookID: "book-1").appendingPathComponent("cover")) }
        if downloaded {
            for file in download.files {
                try Data(repeating: 7, count: Int(file.size)).write(to: store.url(bookID: "book-1", file: file))
            }
        }
        if filesChanged {
            var changed = book
            changed.audioFiles[1].id = "af-2-new"
            changed.chapters[2].audioFileID = "af-2-new"
            try library.apply([changed], deleting: [], state: LibrarySyncState())
        }
        let engine = ScriptedEngine()
        var dependencies = Dependencies.test()
        dependencies.openLibrary = { _, _ in library }
        dependencies.makePlaybackEngine = { engine }
        dependencies.openCoverCache = { _, _ in coverCache }
        var configuration = DownloadsModel.Configuration()
        configuration.concurrentBooks = downloaded ? 2 : 0
        let session = Session(try #require(await server.currentSession), connection: server)
        let downloads = DownloadsModel(dependencies: dependencies, session: session, store: store, configuration: configuration)
        if restored { await downloads.restored() }
        let player = PlayerModel(dependencies: dependencies, session: session, downloads: downloads)
        return Rig(player: player, downloads: downloads, engine: engine, server: server, store: store)
    }

    func settle(_ done: () -> Bool) async {
        for _ in 0..<300 where !done() { try? await Task.sleep(for: .milliseconds(10)) }
    }

    @Test func aDownloadedBookPlaysFromItsFilesWithNoAudioAccessAndNoHeaders() async throws {
        let rig = try await rig()
        rig.player.send(.play(bookID: "book-1"))
        await settle { rig.engine.log.value.loaded != nil }
        let loaded = try #require(rig.engine.log.value.loaded)
        #expect(loaded.files.allSatisfy { $0.url.isFileURL })
        let files = try #require(rig.downloads.items["book-1"]?.download.files)
        #expect(loaded.files.map(\.url) == files.map { rig.store.url(bookID: "book-1", file: $0) })
        #expect(loaded.headers.isEmpty, "a local file needs no credentials")
        #expect(loaded.chapters.map(\.title) == ["One", "Two", "Three"], "chapters come from the book as before")
        #expect(await rig.server.calls.filter { $0.hasPrefix("audio") }.isEmpty, "no audio access is asked for")
    }

    @Test func aBookNotDownloadedShowsTheCoverCachesFileInTheMediaControls() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("player-covers-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let rig = try await rig(downloaded: false, coverCache: CoverFolder(folder))
        await rig.server.setCover(CoverLoaderTests.png)
        rig.player.send(.play(bookID: "book-1"))
        await settle { rig.player.coverFile != nil }
        let file = try #require(rig.player.coverFile)
        #expect(file.deletingLastPathComponent().path == folder.path)
        #expect(try Data(contentsOf: file) == CoverLoaderTests.png)
    }

    @Test func aDownloadedBooksCoverIsTheOneInItsFolder() async throws {
        let rig = try await rig(cover: true)
        rig.player.send(.play(bookID: "book-1"))
        await settle { rig.player.coverFile != nil }
        #expect(rig.player.coverFile == rig.store.folder(bookID: "book-1").appendingPathComponent("cover"))
    }

    @Test func aDownloadedBooksCoverIsFoundWhileTheSavedDownloadsAreStillBeingRead() async throws {
        let rig = try await rig(cover: true, restored: false)
        rig.player.send(.play(bookID: "book-1"))
        await settle { rig.player.coverFile != nil }
        #expect(rig.player.coverFile == rig.store.folder(bookID: "book-1").appendingPathComponent("cover"))
    }

    @Test func aBookNotDownloadedStreamsAsBefore() async throws {
        let rig = try await rig(downloaded: false)
        rig.player.send(.play(bookID: "book-1"))
        await settle { rig.engine.log.value.loaded != nil }
        let loaded = try #require(rig.engine.log.value.loaded)
        #expect(loaded.files.allSatisfy { !$0.url.isFileURL })
        #expect(await rig.server.calls.contains("audio"))
    }

    @Test func aDownloadWhoseFilesTheServerChangedSinceIsNotUsed() async throws {
        let rig = try await rig(filesChanged: true)
        rig.player.send(.play(bookID: "book-1"))
        await settle { rig.engine.log.value.loaded != nil }
        let loaded = try #require(rig.engine.log.value.loaded)
        #expect(loaded.files.map(\.id) == ["af-1", "af-2-new"])
        #expect(loaded.files.map(\.url.lastPathComponent) == ["af-1", "af-2-new"], "each file at its own streaming address: \(loaded.files.map(\.url))")
        #expect(await rig.server.calls.contains("audio"))
    }
}
