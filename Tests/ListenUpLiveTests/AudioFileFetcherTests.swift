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

/// The live audio fetcher against real HTTP servers on 127.0.0.1: the demo
/// server (REST v1 audio with the Bearer header) and, for answers a good
/// server never gives, `HostileServer`.
@Suite("The live audio fetcher: ranges, sizes and failures")
struct AudioFileFetcherTests {
    let logs = LogCapture()
    var fetcher: AudioFileFetcher { .live(logger: logs.logger) }

    /// Fetches `request`; the failure, or nil when it returned.
    func fetch(_ request: AudioFileFetcher.Request, progress: LockedValue<[Int64]> = LockedValue([])) async -> AudioFileFetcher.Failure? {
        do throws(AudioFileFetcher.Failure) {
            try await fetcher.fetch(request) { written in progress.withLock { $0.append(written) } }
            return nil
        } catch {
            return error
        }
    }

    /// The request for the biggest file of the demo server, to `destination`.
    func request(_ demo: DownloadTestServer, to destination: URL, offset: Int64 = 0, expectedSize: Int64? = nil,
                 headers: [String: String]? = nil) async throws -> AudioFileFetcher.Request {
        let (book, file) = try demo.biggestFile()
        let access = try await demo.access(bookID: book.id, fileID: file.id)
        return AudioFileFetcher.Request(url: access.url, headers: headers ?? access.headers, destination: destination,
                                        offset: offset, expectedSize: expectedSize ?? file.size)
    }

    func source(_ demo: DownloadTestServer) async throws -> Data {
        let (book, file) = try demo.biggestFile()
        let data = try await demo.plainGET(bookID: book.id, fileID: file.id)
        #expect(Int64(data.count) == file.size)
        return data
    }

    /// A demo server and a fresh folder (made when written to) for one
    /// test; ``end(_:_:)`` after it.
    func begin() async throws -> (DownloadTestServer, URL) {
        (try await DownloadTestServer.start(logger: logs.logger), temporaryFolder("fetch"))
    }

    /// Stops the demo server and removes the folder.
    func end(_ demo: DownloadTestServer, _ folder: URL) {
        try? FileManager.default.removeItem(at: folder)
        Task { await demo.server.stop() }
    }

    func contents(_ url: URL) -> Data {
        (try? Data(contentsOf: url)) ?? Data()
    }

    @Test func aWholeFileIsByteForByteWhatAPlainGETReturns() async throws {
        let (demo, folder) = try await begin()
        defer { end(demo, folder) }
        let destination = folder.appendingPathComponent("part1.wav")
        let source = try await source(demo)
        let progress = LockedValue<[Int64]>([])

        #expect(await fetch(try await request(demo, to: destination), progress: progress) == nil)
        #expect(contents(destination) == source)
        #expect(progress.value.last == Int64(source.count))
        #expect(progress.value == progress.value.sorted(), "progress only grows")
        let (_, file) = try demo.biggestFile()
        #expect(demo.requests(fileID: file.id).last?.range == nil)
        #expect(demo.requests(fileID: file.id).last?.status == 200)
        var info = stat()
        #expect(stat(destination.path, &info) == 0)
        #expect(info.st_mode & 0o777 == 0o600, "only the user reads a downloaded book")
        #expect(!logs.text.contains(demo.stored.accessToken), "the Bearer token is never logged")
    }

    @Test func aPartialFileIsContinuedWithARangeRequestAndWhatFollowsItIsReplaced() async throws {
        let (demo, folder) = try await begin()
        defer { end(demo, folder) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let destination = folder.appendingPathComponent("part1.wav")
        let source = try await source(demo)
        let offset = source.count / 3 + 7
        // The partial file, and bytes past the offset that are not the source's.
        try (source.prefix(offset) + Data(repeating: 0xEE, count: 5_000)).write(to: destination)
        let progress = LockedValue<[Int64]>([])

        #expect(await fetch(try await request(demo, to: destination, offset: Int64(offset)), progress: progress) == nil)
        #expect(contents(destination) == source)
        #expect(progress.value.last == Int64(source.count - offset), "progress counts this call's bytes")
        let (_, file) = try demo.biggestFile()
        let last = try #require(demo.requests(fileID: file.id).last)
        #expect(last.range == "bytes=\(offset)-")
        #expect(last.status == 206)
    }

    @Test func aServerThatIgnoresTheRangeHasTheFileStartOver() async throws {
        let source = Data((0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ $0 >> 9) })
        let server = try await HostileServer.start { _ in .respond(status: 200, contentType: "audio/mpeg", body: source) }
        defer { Task { await server.stop() } }
        let folder = temporaryFolder("fetch")
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let destination = folder.appendingPathComponent("a.mp3")
        let offset = 200_000
        try source.prefix(offset).write(to: destination)
        let progress = LockedValue<[Int64]>([])
        let request = AudioFileFetcher.Request(url: server.baseURL.appendingPathComponent("audio"), headers: [:], destination: destination,
                                               offset: Int64(offset), expectedSize: Int64(source.count))

        #expect(await fetch(request, progress: progress) == nil)
        #expect(contents(destination) == source)
        #expect(server.requests.first?.header("Range") == "bytes=\(offset)-")
        // offset + progress is what the file holds, all along.
        #expect(progress.value.last == Int64(source.count - offset))
        #expect(progress.value.allSatisfy { $0 + Int64(offset) >= 0 })
    }

    @Test func aBodyLongerThanTheReportedSizeIsCutThereAndOversized() async throws {
        let (demo, folder) = try await begin()
        defer { end(demo, folder) }
        let destination = folder.appendingPathComponent("part1.wav")
        let source = try await source(demo)
        let reported = Int64(source.count - 10_001)
        let progress = LockedValue<[Int64]>([])

        #expect(await fetch(try await request(demo, to: destination, expectedSize: reported), progress: progress) == .oversized)
        #expect(Int64(contents(destination).count) == reported, "never longer than the reported size")
        #expect(contents(destination) == source.prefix(Int(reported)))
        #expect(progress.value.allSatisfy { $0 <= reported })
    }

    @Test func withoutTheTokenTheAnswerIsStatus401AndNoFileIsMade() async throws {
        let (demo, folder) = try await begin()
        defer { end(demo, folder) }
        let destination = folder.appendingPathComponent("part1.wav")

        #expect(await fetch(try await request(demo, to: destination, headers: [:])) == .status(401))
        #expect(!FileManager.default.fileExists(atPath: destination.path))
    }

    @Test func anUnknownFileIsStatus404() async throws {
        let (demo, folder) = try await begin()
        defer { end(demo, folder) }
        let (book, _) = try demo.biggestFile()
        let access = try await demo.access(bookID: book.id, fileID: "af-missing")
        let request = AudioFileFetcher.Request(url: access.url, headers: access.headers, destination: folder.appendingPathComponent("x.wav"),
                                               offset: 0, expectedSize: 1_000)

        #expect(await fetch(request) == .status(404))
    }

    @Test func aRedirectIsAStatusAndIsNotFollowed() async throws {
        let server = try await HostileServer.start { request in
            request.path == "/audio"
                ? .respond(status: 302, contentType: "text/plain", body: Data(), headers: [("Location", "/elsewhere")])
                : .respond(status: 200, contentType: "audio/mpeg", body: Data(repeating: 1, count: 100))
        }
        defer { Task { await server.stop() } }
        let folder = temporaryFolder("fetch")
        defer { try? FileManager.default.removeItem(at: folder) }
        let request = AudioFileFetcher.Request(url: server.baseURL.appendingPathComponent("audio"), headers: ["Authorization": "Bearer secret-token"],
                                               destination: folder.appendingPathComponent("a.mp3"), offset: 0, expectedSize: 100)

        #expect(await fetch(request) == .status(302))
        #expect(server.requests.map(\.path) == ["/audio"])
        #expect(!logs.text.contains("secret-token"))
    }

    @Test func aPartialAnswerThatStartsElsewhereIsRefused() async throws {
        let body = Data(repeating: 9, count: 1_000)
        let server = try await HostileServer.start { _ in
            .respond(status: 206, contentType: "audio/mpeg", body: body, headers: [("Content-Range", "bytes 0-999/1000")])
        }
        defer { Task { await server.stop() } }
        let folder = temporaryFolder("fetch")
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let destination = folder.appendingPathComponent("a.mp3")
        try Data(repeating: 1, count: 400).write(to: destination)
        let request = AudioFileFetcher.Request(url: server.baseURL.appendingPathComponent("audio"), headers: [:], destination: destination,
                                               offset: 400, expectedSize: 1_000)

        #expect(await fetch(request) == .status(206))
        #expect(contents(destination) == Data(repeating: 1, count: 400), "the partial file is left as it was")
    }

    @Test func aConnectionCutMidBodyIsANetworkFailureAndKeepsWhatArrived() async throws {
        let (demo, folder) = try await begin()
        defer { end(demo, folder) }
        let destination = folder.appendingPathComponent("part1.wav")
        let source = try await source(demo)
        // Slowly, so the bytes before the cut reach the file (AsyncHTTPClient
        // drops those it holds when the connection breaks).
        demo.server.setAudioRateLimit(64_000)
        demo.server.cutNextAudio(after: 40_000)

        guard case .network = await fetch(try await request(demo, to: destination)) else {
            Issue.record("a cut body is a network failure")
            return
        }
        let kept = contents(destination)
        #expect(kept.count > 0 && kept.count <= 40_000, "what was written is kept")
        #expect(kept == source.prefix(kept.count))
    }

    @Test func theServerStoppedMidBodyIsANetworkFailureAndTheRestFollowsWhenItIsBack() async throws {
        let (demo, folder) = try await begin()
        defer { end(demo, folder) }
        let destination = folder.appendingPathComponent("part1.wav")
        let source = try await source(demo)
        demo.server.setAudioRateLimit(32_000)
        let progress = LockedValue<[Int64]>([])
        let request = try await request(demo, to: destination)
        let fetching = Task { await fetch(request, progress: progress) }
        await eventually { progress.value.last ?? 0 > 0 }
        await demo.server.stop()

        guard case .network = await fetching.value else {
            Issue.record("a server that went away is a network failure")
            return
        }
        let kept = contents(destination)
        #expect(kept.count > 0 && kept.count < source.count)
        #expect(kept == source.prefix(kept.count))

        // Back, at the same address: the rest only.
        try await demo.server.start()
        demo.server.setAudioRateLimit(nil)
        var rest = request
        rest.offset = Int64(kept.count)
        #expect(await fetch(rest) == nil)
        #expect(contents(destination) == source)
        #expect(demo.requests(fileID: try demo.biggestFile().file.id).last?.range == "bytes=\(kept.count)-")
    }

    @Test func cancellingStopsTheFetchAtOnceAndKeepsWhatArrived() async throws {
        let (demo, folder) = try await begin()
        defer { end(demo, folder) }
        let destination = folder.appendingPathComponent("part1.wav")
        let source = try await source(demo)
        // The whole file would take ten seconds or more.
        demo.server.setAudioRateLimit(max(DemoServer.minimumAudioRateLimit, source.count / 10))
        let progress = LockedValue<[Int64]>([])
        let request = try await request(demo, to: destination)
        let fetching = Task { await fetch(request, progress: progress) }
        await eventually { progress.value.last ?? 0 > 0 }
        fetching.cancel()

        #expect(await fetching.value == .cancelled)
        let kept = contents(destination)
        #expect(kept.count < source.count / 2, "it stopped long before the body's end")
        #expect(kept == source.prefix(kept.count))
    }

    @Test func aFullDiskIsDiskFullAndKeepsWhatFit() async throws {
        let demo = try await DownloadTestServer.start(logger: logs.logger)
        defer { Task { await demo.server.stop() } }
        let source = try await source(demo)
        let mountPoint = temporaryFolder("tmpfs")
        try FileManager.default.createDirectory(at: mountPoint, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: mountPoint) }
        let size = 64 * 1024
        #expect(source.count > 2 * size, "the file is bigger than the disk")
        let mounted = (try? ToolProcess.run(["mount", "-t", "tmpfs", "-o", "size=\(size),mode=0700", "tmpfs", mountPoint.path]))?.status == 0
        try ServiceRequirement.check(mounted, requiredBy: "LISTENUP_REQUIRE_MOUNT",
                                     "a small tmpfs cannot be mounted here (mount needs root or CAP_SYS_ADMIN)")
        defer { _ = try? ToolProcess.run(["umount", mountPoint.path]) }
        let destination = mountPoint.appendingPathComponent("part1.wav")

        #expect(await fetch(try await request(demo, to: destination)) == .diskFull)
        let kept = contents(destination)
        #expect(kept.count > 0 && kept.count <= size, "what fit is kept")
        #expect(kept == source.prefix(kept.count))
    }
}
