import DemoServer
import Foundation
import ListenUpAPI
import ListenUpTestSupport
import Logging
import Testing
@testable import ListenUpCore
@testable import ListenUpLive
#if canImport(Glibc)
import Glibc
#endif

/// ``DownloadsModel`` end to end: the files in a temporary
/// ``FileDownloadStore``, fetched by the live fetcher from the demo server
/// on 127.0.0.1 through a signed-in connection, in both protocols (REST v1:
/// the Bearer header; kRPC: the signed URLs of `prepare`).
@MainActor
@Suite("Downloads end to end against the demo server")
struct DownloadsLiveTests {
    let logs = LogCapture()

    static let quick: DownloadsModel.Configuration = {
        var configuration = DownloadsModel.Configuration()
        configuration.progressInterval = .milliseconds(20)
        configuration.retryDelays = [.seconds(3600)]
        return configuration
    }()

    struct Rig {
        let demo: DownloadTestServer
        let store: FileDownloadStore
        let dependencies: Dependencies
        let model: DownloadsModel
        /// The book with the most files.
        let book: ServerBook

        /// Another model over the same files: the app started again.
        @MainActor func restarted(configuration: DownloadsModel.Configuration = DownloadsLiveTests.quick) async -> DownloadsModel {
            let model = DownloadsModel(dependencies: dependencies, session: demo.session, store: store, configuration: configuration)
            await model.restored()
            return model
        }

        @MainActor var download: BookDownload? { model.items[book.id]?.download }

        /// Where `file` of the book is on disk.
        func url(_ file: ServerBook.AudioFile) -> URL {
            store.url(bookID: book.id, file: BookDownload.File(id: file.id, name: name(file), size: file.size, duration: file.duration))
        }

        private func name(_ file: ServerBook.AudioFile) -> String {
            let index = book.audioFiles.firstIndex { $0.id == file.id } ?? 0
            return BookDownload.fileName(index: index, id: file.id, format: file.format)
        }

        /// Bytes of `file` on disk.
        func bytes(_ file: ServerBook.AudioFile) -> Int64 { FileDownloadStore.size(of: url(file)) }

        /// Every file of the book on disk is what a plain GET returns.
        func expectWhole(sourceLocation: SourceLocation = #_sourceLocation) async throws {
            for file in book.audioFiles {
                let source = try await demo.plainGET(bookID: book.id, fileID: file.id)
                let local = try Data(contentsOf: url(file))
                #expect(local.count == source.count, "\(file.id) has its size", sourceLocation: sourceLocation)
                #expect(local == source, "\(file.id) is byte-identical", sourceLocation: sourceLocation)
            }
        }
    }

    func rig(_ wire: DemoProtocol, configuration: DownloadsModel.Configuration = quick) async throws -> Rig {
        let demo = try await DownloadTestServer.start(wire, logger: logs.logger)
        let library = try demo.library()
        let store = FileDownloadStore(root: temporaryFolder("downloads"))
        var dependencies = Dependencies.test(transport: .live, logger: logs.logger)
        dependencies.openLibrary = { _, _ in library }
        dependencies.audioFileFetcher = .live(logger: logs.logger)
        dependencies.diskSpace = .live
        let book = try #require(demo.books.max { $0.audioFiles.count < $1.audioFiles.count })
        #expect(book.audioFiles.count >= 2, "a book of several files")
        let model = DownloadsModel(dependencies: dependencies, session: demo.session, store: store, configuration: configuration)
        await model.restored()
        return Rig(demo: demo, store: store, dependencies: dependencies, model: model, book: book)
    }

    func finish(_ rig: Rig) async {
        await rig.model.shutdown()
        await rig.demo.server.stop()
        try? FileManager.default.removeItem(at: rig.store.root)
    }

    /// Downloads the rig's book to the end with `model`.
    func downloaded(_ rig: Rig, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        rig.model.send(.download(bookID: rig.book.id))
        await settle { rig.model.items[rig.book.id].map { $0.status == .done || $0.status == .failed } ?? true }
        let item = try #require(rig.model.items[rig.book.id], sourceLocation: sourceLocation)
        #expect(item.status == .done, "failure: \(String(describing: item.failure))", sourceLocation: sourceLocation)
    }

    /// `PlaybackService.prepare` calls the server answered (kRPC).
    func prepares(_ demo: DownloadTestServer) -> Int {
        demo.server.requestCount("PlaybackService.prepare")
    }

    @Test(arguments: [DemoProtocol.rest, .krpc])
    func aBookDownloadsWholeWithEveryFileByteIdentical(_ wire: DemoProtocol) async throws {
        let rig = try await rig(wire)
        try await downloaded(rig)
        let item = try #require(rig.model.items[rig.book.id])
        #expect(item.bytes == item.totalBytes)
        #expect(item.totalBytes == rig.book.audioFiles.reduce(0) { $0 + $1.size })
        #expect(rig.model.downloadedBookIDs == [rig.book.id])
        try await rig.expectWhole()
        for file in rig.book.audioFiles {
            let requests = rig.demo.requests(fileID: file.id).filter { $0.status != 200 || $0.range != nil }
            #expect(requests.isEmpty, "each file is one whole GET: \(requests)")
        }
        let timeline = try #require(rig.model.localTimeline(bookID: rig.book.id))
        #expect(timeline.files.allSatisfy { $0.url.isFileURL })
        #expect(!logs.text.contains(rig.demo.stored.accessToken), "the token is never logged")
        // (The kRPC session's debug log of frames is its own business.)
        let downloadLines = logs.text.split(separator: "\n").filter { !$0.contains("kRPC frame") }
        #expect(!downloadLines.contains { $0.contains("sig=") }, "a signed URL is never logged")
        await finish(rig)
    }

    @Test(arguments: [DemoProtocol.rest, .krpc])
    func aTruncatedFileIsFoundAtTheNextStartAndContinuedFromItsLength(_ wire: DemoProtocol) async throws {
        let first = try await rig(wire)
        try await downloaded(first)
        await first.model.shutdown()
        let file = first.book.audioFiles[1]
        let half = file.size / 2
        #expect(truncate(first.url(file).path, off_t(half)) == 0)
        let prepared = prepares(first.demo)
        let requested = first.demo.server.audioRequests().count

        let again = await first.restarted()
        #expect(again.items[first.book.id]?.status != .done, "the change on disk is seen at start")
        await settle { again.items[first.book.id]?.status == .done }
        #expect(again.items[first.book.id]?.status == .done)
        let after = Array(first.demo.server.audioRequests().dropFirst(requested))
        try await first.expectWhole()
        #expect(after.map(\.fileID) == [file.id], "only the truncated file is asked for")
        #expect(after.first?.range == "bytes=\(half)-")
        #expect(after.first?.status == 206)
        if wire == .krpc {
            #expect(prepares(first.demo) > prepared, "the signed URLs are prepared again when the download resumes")
        }
        await again.shutdown()
        await finish(first)
    }

    @Test(arguments: [DemoProtocol.rest, .krpc])
    func anOversizedFileIsDeletedAndFetchedAgainWhole(_ wire: DemoProtocol) async throws {
        let first = try await rig(wire)
        try await downloaded(first)
        await first.model.shutdown()
        let file = first.book.audioFiles[0]
        let handle = try FileHandle(forWritingTo: first.url(file))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(repeating: 0xAB, count: 4_096))
        try handle.close()
        let requested = first.demo.server.audioRequests().count

        let again = await first.restarted()
        await settle { again.items[first.book.id]?.status == .done }
        #expect(again.items[first.book.id]?.status == .done)
        let after = Array(first.demo.server.audioRequests().dropFirst(requested))
        try await first.expectWhole()
        #expect(after.map(\.fileID) == [file.id])
        #expect(after.first?.range == nil, "fetched from the start")
        await again.shutdown()
        await finish(first)
    }

    @Test(arguments: [DemoProtocol.rest, .krpc])
    func theServerGoneMidDownloadPausesWithAMessageAndTheDownloadGoesOnWhenItIsBack(_ wire: DemoProtocol) async throws {
        let rig = try await rig(wire)
        let total = rig.book.audioFiles.reduce(0) { $0 + $1.size }
        // Each file takes a few seconds: the server can go away midway.
        rig.demo.server.setAudioRateLimit(Int(total / 8))
        rig.model.send(.download(bookID: rig.book.id))
        await settle { rig.book.audioFiles.contains { rig.bytes($0) > 0 } }
        await rig.demo.server.stop()

        await settle { rig.model.items[rig.book.id]?.status == .paused }
        let item = try #require(rig.model.items[rig.book.id])
        #expect(item.status == .paused)
        #expect(item.failure?.code == .network)
        #expect(item.failure?.message.isEmpty == false)
        #expect(item.bytes > 0 && item.bytes < total, "what was written stays")
        #expect(try rig.store.downloads().first?.status == .paused, "the pause is saved")
        let partial = rig.book.audioFiles.filter { rig.bytes($0) > 0 && rig.bytes($0) < $0.size }.map { ($0.id, rig.bytes($0)) }
        let prepared = prepares(rig.demo)
        let requested = rig.demo.server.audioRequests().count

        rig.demo.server.setAudioRateLimit(nil)
        try await rig.demo.server.start()
        rig.model.serverIsBack()
        await settle { rig.model.items[rig.book.id]?.status == .done || rig.model.items[rig.book.id]?.failure?.code != nil && rig.model.items[rig.book.id]?.status == .failed }
        #expect(rig.model.items[rig.book.id]?.status == .done, "failure: \(String(describing: rig.model.items[rig.book.id]?.failure))")
        let after = Array(rig.demo.server.audioRequests().dropFirst(requested))
        try await rig.expectWhole()
        for (fileID, bytes) in partial {
            #expect(after.first { $0.fileID == fileID }?.range == "bytes=\(bytes)-", "\(fileID) goes on from its \(bytes) bytes")
        }
        if wire == .krpc {
            #expect(prepares(rig.demo) > prepared, "the signed URLs are prepared again")
        }
        await finish(rig)
    }

    @Test func theRetryTimerResumesADownloadTheNetworkPausedOnceTheServerIsBack() async throws {
        var configuration = Self.quick
        configuration.retryDelays = [.milliseconds(200)]
        let rig = try await rig(.rest, configuration: configuration)
        let total = rig.book.audioFiles.reduce(0) { $0 + $1.size }
        rig.demo.server.setAudioRateLimit(Int(total / 8))
        rig.model.send(.download(bookID: rig.book.id))
        await settle { rig.book.audioFiles.contains { rig.bytes($0) > 0 } }
        await rig.demo.server.stop()
        var pausedByTheNetwork = false
        await settle {
            pausedByTheNetwork = rig.model.items[rig.book.id]?.failure?.code == .network
            return pausedByTheNetwork
        }
        #expect(pausedByTheNetwork)

        rig.demo.server.setAudioRateLimit(nil)
        try await rig.demo.server.start()
        await settle { rig.model.items[rig.book.id]?.status == .done }
        #expect(rig.model.items[rig.book.id]?.status == .done)
        try await rig.expectWhole()
        await finish(rig)
    }

    @Test func removeDeletesTheBooksFolder() async throws {
        let rig = try await rig(.rest)
        try await downloaded(rig)
        let folder = rig.store.folder(bookID: rig.book.id)
        #expect(FileManager.default.fileExists(atPath: folder.path))
        await settle { rig.model.bytesOnDisk >= rig.model.items[rig.book.id]?.totalBytes ?? .max }
        #expect(rig.model.bytesOnDisk >= rig.model.items[rig.book.id]?.totalBytes ?? .max)

        rig.model.send(.remove(bookID: rig.book.id))
        #expect(rig.model.items[rig.book.id] == nil)
        await settle { !FileManager.default.fileExists(atPath: folder.path) && rig.model.bytesOnDisk == 0 }
        #expect(!FileManager.default.fileExists(atPath: folder.path))
        #expect(rig.model.bytesOnDisk == 0)
        #expect(try rig.store.downloads().isEmpty)
        await finish(rig)
    }
}
