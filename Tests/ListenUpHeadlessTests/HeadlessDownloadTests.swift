import DemoServer
import Foundation
import ListenUpCore
import ListenUpTestSupport
import Testing

/// Downloads end to end: the real `listenup --headless` (its live fetcher,
/// its files under `$XDG_DATA_HOME`, real GStreamer with a `fakesink
/// sync=true` output) against the demo server on loopback, which records
/// every audio request with its `Range` header and can be slowed down,
/// stopped and started again on the same port. Judged on the app's lines,
/// the server's records and the files, never on the clock; the waits are
/// generous for a busy 2-core machine.
@Suite("Headless download journeys", .serialized)
struct HeadlessDownloadTests {
    typealias Journey = HeadlessJourneyTests
    typealias Listening = HeadlessPlaybackTests

    /// Three files: 146,316 + 256,044 + 365,772 bytes (4-second chapters).
    static let book = "book-000000000000000000001"
    /// Two files: 256,044 + 640,044 bytes.
    static let bigBook = "book-000000000000000000002"
    /// Three files: 219,468 + 384,044 + 548,620 bytes.
    static let thirdBook = "book-000000000000000000003"
    /// Slow enough that a test can interrupt a book midway (each response
    /// on its own: one file at a time downloads).
    static let slow = 64_000

    /// Three books of 4-second chapters, an admin to sign in as.
    static func startServer(rateLimit: Int? = nil) async throws -> (DemoServer, String) {
        var configuration = DemoServer.Configuration()
        configuration.bookCount = 3
        configuration.chapterSeconds = 4
        configuration.admin = .init(email: "ada@example.com", password: "analytical-engine")
        configuration.audioRateLimit = rateLimit
        // Its own address: some tests start the server again on its port.
        configuration.host = Loopback.privateAddress()
        let server = DemoServer(configuration: configuration)
        try await server.start()
        return (server, try #require(server.baseURL).absoluteString)
    }

    static func home() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("listenup-download-\(UUID().uuidString)")
    }

    /// A `download` line of `bookID` (with `status`, if given) that also satisfies `and`.
    static func download(_ bookID: String, _ status: String? = nil,
                         and match: @escaping ([String: Any]) -> Bool = { _ in true }) -> ([String: Any]) -> Bool {
        { line in
            line["event"] as? String == "download" && line["bookId"] as? String == bookID
                && (status == nil || line["status"] as? String == status) && match(line)
        }
    }

    static func bytes(_ line: [String: Any]?) -> Int { line?["bytes"] as? Int ?? -1 }

    // MARK: Files

    /// `$XDG_DATA_HOME/listenup/downloads` of a `HeadlessProcess` home.
    static func downloadsRoot(_ home: URL) -> URL {
        home.appendingPathComponent("data/listenup/downloads")
    }

    /// The book's folder (under the server and user's folder), if there is one.
    static func folder(_ home: URL, _ bookID: String) -> URL? {
        let root = downloadsRoot(home)
        let servers = (try? FileManager.default.contentsOfDirectory(at: root, includingPropertiesForKeys: nil)) ?? []
        return servers.map { $0.appendingPathComponent(bookID) }.first { FileManager.default.fileExists(atPath: $0.path) }
    }

    struct File {
        var id: String
        var name: String
        var size: Int
    }

    /// The audio files the book's manifest lists.
    static func files(in folder: URL) throws -> [File] {
        let data = try Data(contentsOf: folder.appendingPathComponent("manifest.json"))
        let manifest = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let files = try #require(manifest["files"] as? [[String: Any]])
        return try files.map { file in
            File(id: try #require(file["id"] as? String), name: try #require(file["name"] as? String), size: try #require(file["size"] as? Int))
        }
    }

    static func size(_ url: URL) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: url.path))?[.size] as? NSNumber)?.intValue ?? 0
    }

    /// Bytes of every file under `root`.
    static func usage(_ root: URL) -> Int {
        guard let walker = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil) else { return 0 }
        var total = 0
        for case let url as URL in walker { total += size(url) }
        return total
    }

    // MARK: The source

    /// An access token of a session of the test's own.
    static func token(_ url: String) throws -> String {
        let body = #"{"email":"ada@example.com","password":"analytical-engine","device_info":{"device_type":"test","platform":"Linux"}}"#
        let answer = try ToolProcess.run(["curl", "-sf", "-X", "POST", "-H", "Content-Type: application/json", "-d", body, "\(url)/api/v1/auth/login"])
        let object = try JSONSerialization.jsonObject(with: Data(answer.output.utf8)) as? [String: Any]
        return try #require((object?["data"] as? [String: Any])?["access_token"] as? String, "\(answer)")
    }

    /// The server's bytes of one audio file, fetched whole with curl.
    static func source(_ url: String, token: String, bookID: String, fileID: String) throws -> Data {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("listenup-source-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: file) }
        let fetched = try ToolProcess.run(["curl", "-sf", "-H", "Authorization: Bearer \(token)", "-o", file.path,
                                           "\(url)/api/v1/audio/\(bookID)/\(fileID)"])
        #expect(fetched.status == 0)
        return try Data(contentsOf: file)
    }

    /// Every file of the book on disk is the server's, byte for byte.
    static func expectIdentical(_ folder: URL, _ files: [File], bookID: String, url: String) throws {
        let token = try token(url)
        for file in files {
            let local = try Data(contentsOf: folder.appendingPathComponent(file.name))
            let source = try source(url, token: token, bookID: bookID, fileID: file.id)
            #expect(source.count == file.size)
            #expect(local == source, "\(file.name): \(local.count) bytes on disk, \(source.count) from the server")
        }
    }

    // MARK: Journeys

    @Test func aKilledDownloadGoesOnFromEachPartialFileAfterARestart() async throws {
        let (server, url) = try await Self.startServer(rateLimit: Self.slow)
        defer { Task { await server.stop() } }
        let home = Self.home()
        defer { try? FileManager.default.removeItem(at: home) }

        let first = try await Listening.signIn(home: home, url: url)
        first.send(#"{"action":"download","bookId":"\#(Self.book)"}"#)
        #expect(await first.waitForLine(Self.download(Self.book, "downloading")) != nil, "\(first.allLines.suffix(5))\n\(first.stderr)")
        let folder = try #require(Self.folder(home, Self.book))
        let files = try Self.files(in: folder)
        try #require(files.count == 3)
        // Killed well inside the second file: the first is whole, the second partial.
        let start = files[0].size
        let midway = await first.waitForLine(timeout: 60, Self.download(Self.book, "downloading") { line in
            Self.bytes(line) > start + 24_000 && Self.bytes(line) < start + files[1].size - 96_000
        })
        try #require(midway != nil, "\(first.allLines.suffix(5))\n\(first.stderr.suffix(3000))")
        kill(first.process.processIdentifier, SIGKILL)
        _ = await first.waitForExit()
        let lengths = files.map { Self.size(folder.appendingPathComponent($0.name)) }
        #expect(lengths[0] == files[0].size)
        #expect(lengths[1] > 0 && lengths[1] < files[1].size, "\(lengths)")
        #expect(lengths[2] == 0)

        // The next run: the download is there at once, then goes on (at full speed).
        server.setAudioRateLimit(nil)
        let before = server.audioRequests().count
        let second = try HeadlessProcess(home: home, environment: Listening.sink)
        let restored = await second.waitForLine(Self.download(Self.book))
        #expect(["queued", "downloading"].contains(restored?["status"] as? String), "\(second.allLines.prefix(8))")
        #expect(restored?["totalBytes"] as? Int == files.reduce(0) { $0 + $1.size })
        let done = await second.waitForLine(timeout: 60, Self.download(Self.book, "done"))
        try #require(done != nil, "\(second.allLines.suffix(5))\n\(second.stderr.suffix(3000))")
        #expect(Self.bytes(done) == files.reduce(0) { $0 + $1.size })

        // Each file was asked for from its length on disk: a whole one not
        // at all, the partial one with a Range from where it stopped (never
        // a whole GET), the one not started from the beginning.
        let asked = server.audioRequests().dropFirst(before).filter { $0.bookID == Self.book && $0.method == "GET" }
        for (file, length) in zip(files, lengths) {
            let mine = asked.filter { $0.fileID == file.id }
            if length == file.size {
                #expect(mine.isEmpty, "\(file.id) was whole: \(mine)")
            } else if length > 0 {
                #expect(mine.first?.range == "bytes=\(length)-", "\(file.id) stopped at \(length): \(mine)")
                #expect(mine.first?.status == 206)
                #expect(!mine.contains { $0.range == nil }, "never the whole file again: \(mine)")
            } else {
                #expect(mine.first?.range == nil, "\(mine)")
            }
        }
        try Self.expectIdentical(folder, files, bookID: Self.book, url: url)
        second.send(#"{"action":"quit"}"#)
        #expect(await second.waitForExit() == 0)
    }

    @Test func aServerGoneMidDownloadPausesItAndItGoesOnWhenTheServerIsBack() async throws {
        let (server, url) = try await Self.startServer(rateLimit: Self.slow)
        defer { Task { await server.stop() } }
        let home = Self.home()
        defer { try? FileManager.default.removeItem(at: home) }

        let app = try await Listening.signIn(home: home, url: url)
        app.send(#"{"action":"download","bookId":"\#(Self.bigBook)"}"#)
        let midway = await app.waitForLine(timeout: 60, Self.download(Self.bigBook, "downloading") { Self.bytes($0) > 64_000 })
        try #require(midway != nil, "\(app.allLines.suffix(5))\n\(app.stderr.suffix(3000))")
        await server.stop()
        let paused = await app.waitForLine(timeout: 60, Self.download(Self.bigBook, "paused"))
        #expect(paused?["code"] as? String == "network", "\(app.allLines.suffix(5))\n\(app.stderr.suffix(3000))")
        #expect((paused?["message"] as? String)?.isEmpty == false)
        let kept = Self.bytes(paused)
        #expect(kept > 64_000, "what was downloaded is kept")
        let folder = try #require(Self.folder(home, Self.bigBook))
        let files = try Self.files(in: folder)

        // Back on the same port: the retry (or the library seeing the
        // server again) takes the download on from where it stopped.
        server.setAudioRateLimit(nil)
        let before = server.audioRequests().count
        try await server.start()
        let done = await app.waitForLine(timeout: 120, Self.download(Self.bigBook, "done"))
        try #require(done != nil, "\(app.allLines.suffix(5))\n\(app.stderr.suffix(3000))")
        let resumed = server.audioRequests().dropFirst(before).first { $0.bookID == Self.bigBook && $0.method == "GET" }
        #expect(resumed?.range?.hasPrefix("bytes=") == true && resumed?.range != "bytes=0-", "\(String(describing: resumed))")
        try Self.expectIdentical(folder, files, bookID: Self.bigBook, url: url)
        app.send(#"{"action":"quit"}"#)
        #expect(await app.waitForExit() == 0)
    }

    @Test func aDownloadedBookPlaysWithTheServerStoppedAndItsSpansReachItLater() async throws {
        let (server, url) = try await Self.startServer()
        defer { Task { await server.stop() } }
        let home = Self.home()
        defer { try? FileManager.default.removeItem(at: home) }

        let first = try await Listening.signIn(home: home, url: url)
        first.send(#"{"action":"download","bookId":"\#(Self.thirdBook)"}"#)
        #expect(await first.waitForLine(timeout: 60, Self.download(Self.thirdBook, "done")) != nil, "\(first.allLines.suffix(5))\n\(first.stderr)")
        first.send(#"{"action":"quit"}"#)
        #expect(await first.waitForExit() == 0)
        let audioRequests = server.audioRequests().count
        await server.stop()

        // A cold start with no server: the library from its cache, the book from its files.
        let offline = try HeadlessProcess(home: home, environment: Listening.sink)
        #expect(await offline.waitForLine(timeout: 30, Journey.libraryLoaded(3)) != nil, "\(offline.allLines.suffix(5))\n\(offline.stderr.suffix(3000))")
        #expect(await offline.waitForLine(Self.download(Self.thirdBook, "done")) != nil, "the restored download is printed")
        offline.send(#"{"action":"play","bookId":"\#(Self.thirdBook)"}"#)
        let playing = await offline.waitForLine(timeout: 30, Listening.playing(atLeast: 3_000))
        try #require(playing != nil, "\(offline.allLines.suffix(8))\n\(offline.stderr.suffix(3000))")
        offline.send(#"{"action":"pause"}"#)
        #expect(await offline.waitForLine(Listening.status("paused")) != nil)
        #expect(!server.acceptedListeningEvents.contains { $0.bookID == Self.thirdBook })

        // The server comes back: the spans queued while it was away reach it.
        try await server.start()
        for _ in 0..<240 where !server.acceptedListeningEvents.contains(where: { $0.bookID == Self.thirdBook }) {
            try await Task.sleep(for: .milliseconds(500))
        }
        let spans = server.acceptedListeningEvents.filter { $0.bookID == Self.thirdBook }
        #expect(!spans.isEmpty, "\(offline.stderr.suffix(3000))")
        #expect(spans.contains { $0.endPositionMs - $0.startPositionMs >= 2_000 }, "\(spans)")
        #expect(server.audioRequests().count == audioRequests, "played from the files, never streamed")
        offline.send(#"{"action":"quit"}"#)
        #expect(await offline.waitForExit() == 0)
    }

    @Test func aBookThatDoesNotFitIsRefusedUpFrontAndNothingIsWritten() async throws {
        let home = Self.home()
        let root = Self.downloadsRoot(home)
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: home) }
        // The downloads' folder on a 256 KiB file system of its own.
        let mount = try? ToolProcess.run(["mount", "-t", "tmpfs", "-o", "size=256k,mode=0700", "tmpfs", root.path])
        try ServiceRequirement.check(mount?.status == 0, requiredBy: "LISTENUP_REQUIRE_MOUNT",
                                     "mounting a size-limited tmpfs failed (it needs root)")
        defer { _ = try? ToolProcess.run(["umount", "-l", root.path]) }

        let (server, url) = try await Self.startServer()
        defer { Task { await server.stop() } }
        let app = try await Listening.signIn(home: home, url: url)
        app.send(#"{"action":"download","bookId":"\#(Self.bigBook)"}"#)
        let refused = await app.waitForLine(Self.download(Self.bigBook, "failed"))
        try #require(refused != nil, "\(app.allLines.suffix(5))\n\(app.stderr.suffix(3000))")
        #expect(refused?["code"] as? String == "noSpace")
        #expect(Self.bytes(refused) == 0)
        let total = refused?["totalBytes"] as? Int ?? 0
        #expect(total == 256_044 + 640_044)
        var info = statvfs()
        #expect(statvfs(root.path, &info) == 0)
        let free = Int64(info.f_bavail) * Int64(info.f_frsize)
        let message = refused?["message"] as? String ?? ""
        #expect(message.contains(Localization.bytes(Int64(total))), "names the size needed: \(message)")
        #expect(message.contains(Localization.bytes(free)), "names the space free (\(free) bytes): \(message)")
        #expect(Self.usage(root) == 0 && Self.folder(home, Self.bigBook) == nil, "nothing written")
        #expect(!server.audioRequests().contains { $0.bookID == Self.bigBook }, "nothing asked for")
        app.send(#"{"action":"quit"}"#)
        #expect(await app.waitForExit() == 0)
    }

    @Test func removingADownloadFreesItsFiles() async throws {
        let (server, url) = try await Self.startServer()
        defer { Task { await server.stop() } }
        let home = Self.home()
        defer { try? FileManager.default.removeItem(at: home) }

        let app = try await Listening.signIn(home: home, url: url)
        app.send(#"{"action":"download","bookId":"\#(Self.book)"}"#)
        let done = await app.waitForLine(timeout: 60, Self.download(Self.book, "done"))
        try #require(done != nil, "\(app.allLines.suffix(5))\n\(app.stderr.suffix(3000))")
        let folder = try #require(Self.folder(home, Self.book))
        let total = done?["totalBytes"] as? Int ?? 0
        let used = Self.usage(Self.downloadsRoot(home))
        #expect(used >= total)

        app.send(#"{"action":"removeDownload","bookId":"\#(Self.book)"}"#)
        let removed = await app.waitForLine(Self.download(Self.book, "removed"))
        #expect(removed?["totalBytes"] as? Int == total)
        for _ in 0..<100 where FileManager.default.fileExists(atPath: folder.path) { try await Task.sleep(for: .milliseconds(100)) }
        #expect(!FileManager.default.fileExists(atPath: folder.path), "the book's folder is gone")
        #expect(Self.usage(Self.downloadsRoot(home)) <= used - total, "its bytes are freed")
        app.send(#"{"action":"removeDownload","bookId":"\#(Self.book)"}"#)
        #expect(await app.waitForLine { $0["event"] as? String == "error" && $0["code"] as? String == "noDownload" } != nil)
        app.send(#"{"action":"quit"}"#)
        #expect(await app.waitForExit() == 0)
    }
}
