import Foundation
import ListenUpAPI
import ListenUpLive
import ListenUpTestSupport
import Logging
import Testing
@testable import ListenUpCore

@Suite("Cover loading and caching")
struct CoverLoaderTests {
    static let png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) + Data(repeating: 7, count: 1_000)
    static let jpeg = Data([0xFF, 0xD8, 0xFF, 0xE0]) + Data(repeating: 1, count: 1_000)
    static let quiet = Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })
    static let version = Date(timeIntervalSince1970: 1_000)

    func temporaryDirectory() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("listenup-covers-\(UUID().uuidString)")
    }

    @Test func bytesAreSniffedNotTrusted() async {
        let loader = CoverLoader(cache: nil, logger: Self.quiet) { id throws(ServerError) in
            switch id {
            case "png": Self.png
            case "jpeg": Self.jpeg
            case "html": Data("<html>not an image</html>".utf8)
            default: nil
            }
        }
        #expect(await loader.cover(for: "png", version: Self.version)?.format == .png)
        #expect(await loader.cover(for: "jpeg", version: Self.version)?.format == .jpeg)
        #expect(await loader.cover(for: "html", version: Self.version) == nil)
        #expect(await loader.cover(for: "missing", version: Self.version) == nil)
    }

    @Test func theDiskCacheServesTheNextRunAndAnEditFetchesAgain() async throws {
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let fetches = LockedValue(0)
        let fetch: @Sendable (String) async throws(ServerError) -> Data? = { _ throws(ServerError) in
            fetches.withLock { $0 += 1 }
            return Self.png
        }
        #expect(await CoverLoader(cache: CoverFolder(directory), logger: Self.quiet, fetch: fetch).cover(for: "b1", version: Self.version) != nil)
        let nextRun = CoverLoader(cache: CoverFolder(directory), logger: Self.quiet, fetch: fetch)
        #expect(await nextRun.cover(for: "b1", version: Self.version)?.bytes == Self.png)
        #expect(fetches.value == 1, "the second run read the disk")
        _ = await nextRun.cover(for: "b1", version: Self.version.addingTimeInterval(60))
        #expect(fetches.value == 2, "an edited book's cover is fetched again")
        // Hostile ids cannot leave the directory.
        _ = await nextRun.cover(for: "../../etc/passwd", version: Self.version)
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        #expect(names.allSatisfy { !$0.contains("/") && !$0.hasPrefix(".") }, "\(names)")
    }

    @Test func memoryStaysWithinItsLimit() async {
        let loader = CoverLoader(cache: nil, memoryLimit: 10_000, logger: Self.quiet) { _ throws(ServerError) in Self.png }
        for index in 0..<50 { _ = await loader.cover(for: "book-\(index)", version: Self.version) }
        let usage = await loader.memoryUsage
        #expect(usage <= 10_000)
        #expect(usage > 0)
    }

    @Test func atMostSixDownloadsRunAndCancelledWaitersLeave() async throws {
        // Every download waits for `open` (or for its own id to be let
        // through), so the order of events does not depend on how busy the
        // machine is.
        let running = LockedValue(0)
        let peak = LockedValue(0)
        let started = LockedValue<[String]>([])
        let open = LockedValue(false)
        let letThrough = LockedValue<Set<String>>([])
        let loader = CoverLoader(cache: nil, logger: Self.quiet) { id throws(ServerError) in
            let now = running.withLock { $0 += 1; return $0 }
            peak.withLock { $0 = max($0, now) }
            started.withLock { $0.append(id) }
            while !open.value, !letThrough.value.contains(id) { try? await Task.sleep(for: .milliseconds(2)) }
            running.withLock { $0 -= 1 }
            return Self.png
        }
        func waitUntil(_ condition: () async -> Bool) async throws {
            let deadline = ContinuousClock.now + .seconds(10)
            while await !condition(), ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(2)) }
        }
        var tasks: [Task<CoverData?, Never>] = []
        for index in 0..<6 {
            tasks.append(Task { await loader.cover(for: "book-\(index)", version: Self.version) })
        }
        try await waitUntil { started.value.count == 6 }
        // Six more queue up behind the running six, one at a time so the
        // queue's order is known.
        for index in 6..<12 {
            tasks.append(Task { await loader.cover(for: "book-\(index)", version: Self.version) })
            try await waitUntil { await loader.waitingCount == index - 5 }
        }
        #expect(await loader.waitingCount == 6)
        #expect(started.value.count == 6, "no seventh download while six run")
        // Scrolled away: the last waiting request is withdrawn.
        tasks[11].cancel()
        try await waitUntil { await loader.waitingCount == 5 }
        // One download ends: the newest request waiting (book-10) takes its
        // place. (Freed all at once, the five waiters' tasks would race to
        // start, whatever the order they were let go in.)
        letThrough.withLock { _ = $0.insert("book-0") }
        try await waitUntil { started.value.count == 7 }
        #expect(started.value.last == "book-10", "newest first: \(started.value)")
        open.value = true
        var loaded = 0
        for task in tasks where await task.value != nil { loaded += 1 }
        #expect(peak.value == CoverLoader.maxConcurrentFetches)
        #expect(loaded == 11)
        #expect(!started.value.contains("book-11"), "a cancelled waiter never downloads")
    }
}

@Suite("Cover revalidation with ETags")
struct CoverRevalidationTests {
    static let quiet = CoverLoaderTests.quiet
    static let version = CoverLoaderTests.version

    /// Every fetch: the book and the `If-None-Match` sent.
    final class Server: Sendable {
        let asked = LockedValue<[(id: String, etag: String?)]>([])
        let answers: LockedValue<[CoverFetch]>

        init(_ answers: [CoverFetch]) { self.answers = LockedValue(answers) }

        func fetch(_ id: String, _ etag: String?) -> CoverFetch {
            asked.withLock { $0.append((id, etag)) }
            return answers.withLock { $0.isEmpty ? .none : $0.removeFirst() }
        }
    }

    func loader(_ directory: URL, _ server: Server) -> CoverLoader {
        CoverLoader(cache: CoverFolder(directory), logger: Self.quiet) { id, etag throws(ServerError) in server.fetch(id, etag) }
    }

    @Test func anEditedBookRevalidatesItsCoverAndA304KeepsTheCopy() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("listenup-covers-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let server = Server([.image(CoverLoaderTests.png, etag: "\"h1@300\""), .notModified, .image(CoverLoaderTests.jpeg, etag: "\"h2@300\"")])
        let edited = Self.version.addingTimeInterval(60)
        let editedAgain = Self.version.addingTimeInterval(120)
        func files() throws -> Set<String> { Set(try FileManager.default.contentsOfDirectory(atPath: directory.path)) }

        #expect(await loader(directory, server).cover(for: "b1", version: Self.version)?.bytes == CoverLoaderTests.png)
        #expect(server.asked.value.last?.etag == nil, "nothing kept yet: a plain fetch")
        #expect(try files() == [CoverLoader.fileName(bookID: "b1", version: Self.version), CoverLoader.etagFileName(bookID: "b1")])

        // The book changed (a new title): its cover is asked for again with the ETag, and the 304 keeps the bytes.
        let nextRun = loader(directory, server)
        #expect(await nextRun.cover(for: "b1", version: edited)?.bytes == CoverLoaderTests.png)
        #expect(server.asked.value.last?.etag == "\"h1@300\"")
        #expect(try files() == [CoverLoader.fileName(bookID: "b1", version: edited), CoverLoader.etagFileName(bookID: "b1")],
                "the copy now serves the new version, the old file is gone")
        #expect(await nextRun.cover(for: "b1", version: edited) != nil)
        #expect(server.asked.value.count == 2, "a current copy is not asked for again")

        // A new cover: new bytes, new ETag, one file.
        #expect(await nextRun.cover(for: "b1", version: editedAgain)?.bytes == CoverLoaderTests.jpeg)
        #expect(server.asked.value.last?.etag == "\"h1@300\"")
        #expect(try files() == [CoverLoader.fileName(bookID: "b1", version: editedAgain), CoverLoader.etagFileName(bookID: "b1")])
        let record = try String(contentsOf: directory.appendingPathComponent(CoverLoader.etagFileName(bookID: "b1")), encoding: .utf8)
        #expect(record.hasSuffix("\n\"h2@300\""))
    }

    @Test func aCoverRemovedOnTheServerLeavesNoFileBehind() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("listenup-covers-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let server = Server([.image(CoverLoaderTests.png, etag: "\"h1\""), .none])
        #expect(await loader(directory, server).cover(for: "b1", version: Self.version) != nil)
        #expect(await loader(directory, server).cover(for: "b1", version: Self.version.addingTimeInterval(5)) == nil)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)
    }

    @Test func a304WithNothingKeptIsNoCoverNotACrash() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("listenup-covers-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let server = Server([.notModified, .image(CoverLoaderTests.png, etag: nil)])
        let loader = loader(directory, server)
        #expect(await loader.cover(for: "b1", version: Self.version) == nil)
        #expect(await loader.cover(for: "b1", version: Self.version) != nil, "asked again, plainly")
        #expect(server.asked.value.map(\.etag) == [nil, nil])
        // No ETag came: none is kept, so the next edit fetches plainly.
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == [CoverLoader.fileName(bookID: "b1", version: Self.version)])
    }
}
