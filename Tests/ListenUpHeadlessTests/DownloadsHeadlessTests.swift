import Foundation
import JSONToolkit
import ListenUpAPI
import ListenUpLive
import ListenUpTestSupport
import Logging
import Testing
@testable import ListenUpCore
@testable import ListenUpHeadless

/// The downloads as the headless front prints and commands them (in
/// process; `HeadlessDownloadTests` drives the real binary against the
/// demo server).
@MainActor
@Suite("Downloads as the headless front shows them")
struct DownloadsHeadlessTests {
    static func item(_ bookID: String, _ status: BookDownload.Status, bytes: Int64, total: Int64 = 1_000,
                     failure: BookDownload.Failure? = nil) -> DownloadsModel.Item {
        let file = BookDownload.File(id: "\(bookID)-a", name: "001-\(bookID)-a.wav", size: total, duration: 60_000)
        return DownloadsModel.Item(download: BookDownload(bookID: bookID, title: bookID, authors: "", files: [file], chapters: [],
                                                          status: status, failure: failure), bytes: bytes)
    }

    // MARK: The reporter

    @Test func everyDownloadIsPrintedAtOnceThenOnlyWhatChanges() {
        var reporter = DownloadReporter()
        let start = ContinuousClock.now
        let first = reporter.report([Self.item("a", .done, bytes: 1_000), Self.item("b", .queued, bytes: 0)], refusal: nil, now: start)
        #expect(first.lines.map { $0["bookId"] } == ["a", "b"])
        #expect(first.lines[0] == ["event": "download", "bookId": "a", "status": "done", "bytes": 1_000, "totalBytes": 1_000])
        #expect(first.recheckAfter == nil)
        let same = reporter.report([Self.item("a", .done, bytes: 1_000), Self.item("b", .queued, bytes: 0)], refusal: nil, now: start)
        #expect(same.lines.isEmpty, "nothing changed, nothing printed")
    }

    @Test func bytesAreThrottledToFourLinesASecondAndStatusChangesAreNot() {
        var reporter = DownloadReporter()
        let start = ContinuousClock.now
        _ = reporter.report([Self.item("a", .downloading, bytes: 0)], refusal: nil, now: start)
        // A publish every 50 ms for two seconds: at most one line per 250 ms.
        var printed = 0
        var held: Duration?
        for step in 1...40 {
            let report = reporter.report([Self.item("a", .downloading, bytes: Int64(step * 10))], refusal: nil,
                                         now: start.advanced(by: .milliseconds(50 * step)))
            printed += report.lines.count
            held = report.recheckAfter
        }
        #expect(printed == 8, "two seconds of bytes: 8 lines at most")
        #expect(held == nil, "the last publish fell on a line")
        // A change held back is due at the end of the interval.
        let now = start.advanced(by: .milliseconds(2_050))
        let heldBack = reporter.report([Self.item("a", .downloading, bytes: 999)], refusal: nil, now: now)
        #expect(heldBack.lines.isEmpty)
        #expect(heldBack.recheckAfter == .milliseconds(200))
        let later = reporter.report([Self.item("a", .downloading, bytes: 999)], refusal: nil, now: now.advanced(by: .milliseconds(200)))
        #expect(later.lines.first?["bytes"] == 999)
        // A status change goes out at once, with its failure.
        let paused = reporter.report([Self.item("a", .paused, bytes: 999, failure: BookDownload.Failure(.network, message: "Gone."))],
                                     refusal: nil, now: now.advanced(by: .milliseconds(201)))
        #expect(paused.lines == [["event": "download", "bookId": "a", "status": "paused", "bytes": 999, "totalBytes": 1_000,
                                  "code": "network", "message": "Gone."]])
    }

    @Test func aBookThatGoesIsRemovedAndEachRefusalIsPrintedOnce() {
        let old = DownloadsModel.Refusal(bookID: "x", failure: BookDownload.Failure(.noAudio, message: "No audio."), serial: 1)
        var reporter = DownloadReporter(refusal: old)
        let start = ContinuousClock.now
        #expect(reporter.report([Self.item("a", .done, bytes: 1_000)], refusal: old, now: start).lines.count == 1, "the old refusal is not printed")
        let gone = reporter.report([], refusal: old, now: start)
        #expect(gone.lines == [["event": "download", "bookId": "a", "status": "removed", "bytes": 0, "totalBytes": 1_000]])
        let noSpace = DownloadsModel.Refusal(bookID: "b", failure: BookDownload.Failure(.noSpace, message: "Needs 2 MB, 1 MB free."),
                                             totalBytes: 2_000_000, serial: 2)
        let refused = reporter.report([], refusal: noSpace, now: start)
        #expect(refused.lines == [["event": "download", "bookId": "b", "status": "failed", "bytes": 0, "totalBytes": 2_000_000,
                                   "code": "noSpace", "message": "Needs 2 MB, 1 MB free."]])
        #expect(reporter.report([], refusal: noSpace, now: start).lines.isEmpty)
    }

    // MARK: Commands

    @Test func commandsNeedABookIDAndABookWithADownload() throws {
        let model = DownloadsModel.preview("mixed", dependencies: .test())
        let done = try #require(model.items.values.first { $0.status == .done })
        let running = try #require(model.items.values.first { $0.status == .downloading })
        #expect(HeadlessCommand.decode(line: #"{"action":"download"}"#) == .failure(.badArguments(.download)))
        #expect(HeadlessCommand.decode(line: #"{"action":"download","bookId":12}"#) == .failure(.badArguments(.download)))
        #expect(HeadlessCommand.decode(line: #"{"action":"pauseDownload","bookId":""}"#) == .failure(.badArguments(.pauseDownload)))
        #expect(model.handle(.remove(bookID: "no-such-book")) == .noDownload("no-such-book"))
        #expect(model.handle(.download(bookID: done.bookID)) == .alreadyDone(done))
        #expect(model.handle(.pause(bookID: running.bookID)) == .sent)
        #expect(model.items[running.bookID]?.status == .paused)
        #expect(model.handle(.pauseAll) == .sent)
        #expect(!model.items.values.contains { $0.download.isActive })
        #expect(model.handle(.cancel(bookID: running.bookID)) == .sent)
        #expect(model.items[running.bookID] == nil)
        #expect(model.handle(.removeAll) == .sent)
        #expect(model.items.isEmpty)
        #expect(HeadlessCommand.decode(line: #"{"action":"dance","bookId":"a"}"#) == .failure(.unknownAction("dance")))
    }

    // MARK: The presenter

    /// Two books of one 40 kB file each; the fetcher writes a file in ten
    /// pieces, 150 ms apart (long enough for several of the model's
    /// 250 ms byte counts even on a loaded machine).
    struct Rig {
        let navigator: AppNavigator
        let presenter: HeadlessPresenter
        let lines: LockedValue<[(line: JSONValue, at: ContinuousClock.Instant)]>
        let free: LockedValue<Int64?>
        let folder: URL

        func printed(_ event: String = "download") -> [JSONValue] {
            lines.value.map(\.line).filter { $0["event"]?.stringValue == event }
        }
    }

    static let size = 40_000

    func rig(restored: [BookDownload] = []) async throws -> Rig {
        let books = try (0..<2).map { index -> ServerBook in
            var book = try ScriptedServer.book(id: "book-\(index)", title: "Book \(index)")
            book.audioFiles = [ServerBook.AudioFile(id: "book-\(index)-a", format: "wav", codec: nil, size: Int64(Self.size), duration: 60_000, bitrate: nil)]
            return book
        }
        let library = InMemoryLibraryStore()
        try library.apply(books, deleting: [], state: LibrarySyncState())
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("headless-downloads-\(UUID().uuidString)")
        let store = FileDownloadStore(root: folder)
        for download in restored { try store.save(download) }
        let free = LockedValue<Int64?>(nil)
        var dependencies = Dependencies.test()
        dependencies.openLibrary = { _, _ in library }
        dependencies.openDownloads = { _, _ in store }
        dependencies.diskSpace = DiskSpace { _ in free.value }
        dependencies.audioFileFetcher = AudioFileFetcher { request, progress throws(AudioFileFetcher.Failure) in
            _ = FileManager.default.createFile(atPath: request.destination.path, contents: nil)
            guard let handle = try? FileHandle(forWritingTo: request.destination) else { throw .storage("open") }
            defer { try? handle.close() }
            let piece = Int(request.expectedSize) / 10
            for index in 0..<10 {
                try? await Task.sleep(for: .milliseconds(150))
                if Task.isCancelled { throw .cancelled }
                try? handle.write(contentsOf: Data(repeating: UInt8(index), count: piece))
                progress(Int64((index + 1) * piece))
            }
        }
        let navigator = AppNavigator(registry: .standard, dependencies: dependencies)
        let lines = LockedValue<[(line: JSONValue, at: ContinuousClock.Instant)]>([])
        let presenter = HeadlessPresenter(navigator: navigator, logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })) { line in
            lines.withLock { $0.append((line, .now)) }
        }
        presenter.start()
        return Rig(navigator: navigator, presenter: presenter, lines: lines, free: free, folder: folder)
    }

    func signIn(_ rig: Rig) async throws {
        let server = try ScriptedServer(titles: [])
        rig.navigator.update(.authenticated(Session(try #require(await server.currentSession), connection: server)))
    }

    func settle(_ done: () -> Bool) async {
        // Generous: a loaded machine running the whole suite at once.
        for _ in 0..<3_000 where !done() { try? await Task.sleep(for: .milliseconds(10)) }
    }

    @Test func signedOutDownloadCommandsAreRefused() async throws {
        let rig = try await rig()
        defer { rig.presenter.stop() }
        #expect(rig.presenter.handle(line: #"{"action":"download","bookId":"book-0"}"#) == .carryOn)
        #expect(rig.printed("error").last?["code"] == "notSignedIn")
        #expect(rig.printed().isEmpty)
    }

    @Test func aRestoredDownloadIsPrintedThenADownloadIsFollowedToDone() async throws {
        let restored = BookDownload(bookID: "book-9", title: "Old", authors: "",
                                    files: [BookDownload.File(id: "f", name: "001-f.wav", size: 10, duration: 1_000)], chapters: [],
                                    status: .paused)
        let rig = try await rig(restored: [restored])
        defer {
            rig.presenter.stop()
            try? FileManager.default.removeItem(at: rig.folder)
        }
        try await signIn(rig)
        await settle { !rig.printed().isEmpty }
        #expect(rig.printed().first == ["event": "download", "bookId": "book-9", "status": "paused", "bytes": 0, "totalBytes": 10])

        _ = rig.presenter.handle(line: #"{"action":"download","bookId":"book-0"}"#)
        await settle { rig.printed().contains { $0["bookId"] == "book-0" && $0["status"] == "done" } }
        let book = rig.lines.value.filter { $0.line["event"] == "download" && $0.line["bookId"] == "book-0" }
        #expect(book.last?.line == ["event": "download", "bookId": "book-0", "status": "done", "bytes": .number(Double(Self.size)),
                                    "totalBytes": .number(Double(Self.size))])
        let downloading = book.filter { $0.line["status"] == "downloading" }
        #expect(downloading.count >= 2, "bytes reported as they grow: \(book.map(\.line))")
        let byteCounts = downloading.compactMap { $0.line["bytes"]?.doubleValue }
        #expect(byteCounts == byteCounts.sorted())
        // At most four lines a second. Counted over the time the download
        // took rather than gap by gap: a gap measured here also holds the
        // scheduling delay of each print, which a loaded machine stretches.
        // Unthrottled, the ten pieces would print ten lines in about 1.5 s.
        // (The throttle's exact timing is tested on a clock of its own above.)
        if let first = downloading.first, let done = book.last {
            let span = first.at.duration(to: done.at)
            let allowed = Int(span / .milliseconds(250)) + 2
            #expect(downloading.count <= allowed, "\(downloading.count) lines in \(span)")
        }

        // Already downloaded: said again. Malformed: badCommand.
        _ = rig.presenter.handle(line: #"{"action":"download","bookId":"book-0"}"#)
        #expect(rig.printed().last?["status"] == "done")
        _ = rig.presenter.handle(line: #"{"action":"removeDownload"}"#)
        #expect(rig.printed("error").last?["code"] == "badCommand")
        _ = rig.presenter.handle(line: #"{"action":"pauseDownload","bookId":"book-1"}"#)
        #expect(rig.printed("error").last?["code"] == "noDownload")

        // No room: refused, with the sizes.
        rig.free.value = 1_000
        _ = rig.presenter.handle(line: #"{"action":"download","bookId":"book-1"}"#)
        await settle { rig.printed().last?["bookId"] == "book-1" }
        let refused = try #require(rig.printed().last)
        #expect(refused["status"] == "failed" && refused["code"] == "noSpace" && refused["bytes"] == 0)
        #expect(refused["totalBytes"] == .number(Double(Self.size)))
        #expect(refused["message"]?.stringValue?.contains(Localization.bytes(1_000)) == true)

        // Removed: its files go, and it says so.
        _ = rig.presenter.handle(line: #"{"action":"removeDownload","bookId":"book-0"}"#)
        await settle { rig.printed().last?["status"] == "removed" }
        #expect(rig.printed().last == ["event": "download", "bookId": "book-0", "status": "removed", "bytes": 0,
                                       "totalBytes": .number(Double(Self.size))])
        await rig.navigator.shutdown()
    }
}
