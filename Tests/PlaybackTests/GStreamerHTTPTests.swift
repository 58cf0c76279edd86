import Foundation
import ListenUpCore
@testable import Playback
import Testing

/// The engine's failures (no output, a damaged file, HTTP refusals) and
/// its files over a loopback HTTP server, with real GStreamer (one at a
/// time: each plays in real time).
@Suite("The GStreamer engine over HTTP, and its failures", .serialized)
struct GStreamerHTTPTests {
    typealias Rig = GStreamerEngineTests.Rig

    func rig() throws -> Rig { try GStreamerEngineTests.rig() }

    /// A one-second tone made in a folder of its own (the caller removes
    /// it) and played through `engine`; the engine's events.
    func playATone(through engine: GStreamerEngine) throws -> (log: EventLog, directory: URL) {
        let directory = try AudioFixtures.directory()
        let log = EventLog(engine)
        do {
            let file = try AudioFixtures.tone(440, seconds: 1, format: "wav", in: directory)
            engine.load(PlaybackTimeline(bookID: "b", files: [.init(id: "f", url: file, start: 0, duration: 1_000)], chapters: []), at: 0)
        } catch {
            try? FileManager.default.removeItem(at: directory)
            throw error
        }
        engine.play()
        return (log, directory)
    }

    @Test func anOutputThatCannotOpenIsNoAudioOutput() async throws {
        try AudioFixtures.requireTools()
        let engine = GStreamerEngine(logger: quietLogger, sinkDescription: "filesink location=/nonexistent/listenup/out.raw")
        let (log, directory) = try playATone(through: engine)
        defer { try? FileManager.default.removeItem(at: directory) }
        #expect(await log.wait { $0.failure != nil })
        #expect(log.failure?.kind == .noAudioOutput, "\(String(describing: log.failure))")
        engine.stop()
    }

    /// With no sound device and no sound server, autoaudiosink falls back to
    /// a fakesink: that is "no audio output", not a silent success.
    @Test func noSoundDeviceIsNoAudioOutput() async throws {
        try AudioFixtures.requireTools()
        let environment = ProcessInfo.processInfo.environment
        let runtime = environment["XDG_RUNTIME_DIR"] ?? "/run/user/\(getuid())"
        let hasOutput = FileManager.default.fileExists(atPath: "/dev/snd") || environment["PULSE_SERVER"] != nil
            || FileManager.default.fileExists(atPath: runtime + "/pulse/native") || FileManager.default.fileExists(atPath: runtime + "/pipewire-0")
        if hasOutput || environment["LISTENUP_AUDIO_SINK"] != nil {
            try Test.cancel("skipped: this machine has a sound output (or LISTENUP_AUDIO_SINK is set)")
        }
        let engine = GStreamerEngine(logger: quietLogger)
        let (log, directory) = try playATone(through: engine)
        defer { try? FileManager.default.removeItem(at: directory) }
        #expect(await log.wait { $0.failure != nil })
        #expect(log.failure?.kind == .noAudioOutput, "\(log.statuses)")
        engine.stop()
    }

    @Test func aDamagedFileIsADecodeError() async throws {
        let rig = try rig()
        defer { rig.engine.stop(); try? FileManager.default.removeItem(at: rig.directory) }
        let file = rig.directory.appendingPathComponent("damaged.mp3")
        try Data((0..<40_000).map { UInt8(truncatingIfNeeded: $0 &* 7919 &+ 13) }).write(to: file)
        rig.engine.load(PlaybackTimeline(bookID: "b", files: [.init(id: "f", url: file, start: 0, duration: 5_000)], chapters: []), at: 0)
        rig.engine.play()
        #expect(await rig.log.wait { $0.failure != nil })
        #expect(rig.log.failure?.kind == .decode, "\(String(describing: rig.log.failure))")
    }

    // MARK: Over HTTP

    func served(_ rig: Rig, seconds: Double = 4, tone: Int = 440) async throws -> (AudioFileServer, PlaybackTimeline) {
        let server = try await AudioFileServer()
        let file = try AudioFixtures.tone(tone, seconds: seconds, format: "wav", in: rig.directory)
        server.script.withLock { $0.files["/api/v1/audio/book/af-1"] = file }
        let timeline = PlaybackTimeline(bookID: "book", files: [.init(id: "af-1", url: server.url("/api/v1/audio/book/af-1"), start: 0,
                                                                         duration: Int64(seconds * 1_000))],
                                        chapters: [], headers: ["Authorization": "Bearer good-token"])
        return (server, timeline)
    }

    @Test func theBearerHeaderIsSentAndNeverTheToken() async throws {
        let rig = try rig()
        let (server, timeline) = try await served(rig)
        defer { rig.engine.stop(); Task { await server.stop() }; try? FileManager.default.removeItem(at: rig.directory) }
        rig.engine.load(timeline, at: 0)
        rig.engine.play()
        #expect(await rig.log.wait { ($0.lastPosition ?? 0) >= 500 }, "\(rig.log.statuses)")
        rig.engine.seek(to: 2_500)
        #expect(await rig.log.wait { ($0.lastPosition ?? 0) >= 2_800 })
        let requests = server.requests.value
        #expect(!requests.isEmpty)
        #expect(requests.allSatisfy { $0.authorization == "Bearer good-token" })
        #expect(requests.allSatisfy { !$0.uri.contains("token") }, "no token in a URL: \(requests.map(\.uri))")
        #expect(requests.contains { $0.range.map { $0 != "bytes=0-" } ?? false }, "the seek asked for a range: \(requests.map(\.range))")
    }

    @Test func refusedCredentialsAreReportedAndNewOnesCarryOn() async throws {
        let rig = try rig()
        let (server, timeline) = try await served(rig)
        defer { rig.engine.stop(); Task { await server.stop() }; try? FileManager.default.removeItem(at: rig.directory) }
        server.script.withLock { $0.token = "fresh-token" }
        rig.engine.load(timeline, at: 1_000)
        rig.engine.play()
        #expect(await rig.log.wait { $0.failure != nil })
        #expect(rig.log.failure?.kind == .unauthorized, "\(String(describing: rig.log.failure))")

        rig.log.events.value = []
        rig.engine.setHeaders(["Authorization": "Bearer fresh-token"])
        var renewed = timeline
        renewed.headers = ["Authorization": "Bearer fresh-token"]
        rig.engine.load(renewed, at: 1_000)
        rig.engine.play()
        #expect(await rig.log.wait { ($0.lastPosition ?? 0) >= 1_400 }, "\(rig.log.statuses)")
        #expect(rig.log.failure == nil)
    }

    @Test(arguments: [(404, PlaybackFailure.Kind.notFound), (403, .forbidden)])
    func httpRefusalsAreNamed(status: Int, kind: PlaybackFailure.Kind) async throws {
        let rig = try rig()
        let (server, timeline) = try await served(rig)
        defer { rig.engine.stop(); Task { await server.stop() }; try? FileManager.default.removeItem(at: rig.directory) }
        server.script.withLock { $0.statuses["/api/v1/audio/book/af-1"] = status }
        rig.engine.load(timeline, at: 0)
        rig.engine.play()
        #expect(await rig.log.wait { $0.failure != nil })
        #expect(rig.log.failure?.kind == kind, "\(String(describing: rig.log.failure))")
    }

    @Test func aConnectionCutMidFileIsResumedFromTheSamePlace() async throws {
        let rig = try rig()
        let (server, timeline) = try await served(rig, seconds: 6)
        defer { rig.engine.stop(); Task { await server.stop() }; try? FileManager.default.removeItem(at: rig.directory) }
        // 44.1 kHz mono S16 WAV: about 88 KB a second; cut after ~1.5 s.
        server.script.withLock { $0.cutAfter["/api/v1/audio/book/af-1"] = 132_000 }
        rig.engine.load(timeline, at: 0)
        rig.engine.play()
        #expect(await rig.log.wait(timeout: .seconds(15)) { ($0.lastPosition ?? 0) >= 3_000 },
                "plays past the cut: \(rig.log.statuses), \(server.requests.value.map(\.range))")
        #expect(rig.log.failure == nil, "\(String(describing: rig.log.failure))")
        #expect(server.requests.value.count >= 2, "asked again from where it stopped: \(server.requests.value.map(\.range))")
    }

    /// Short files over HTTP, the first opened part-way (as
    /// `GStreamerShortFileTests.aShortFileOpenedPartWaySettlesThereAndPlaysOn`
    /// plays local ones): each is read to its end before it is heard.
    @Test func shortFilesOverHTTPOpenedPartWayPlayOnceEachInTurn() async throws {
        let rig = try rig()
        let server = try await AudioFileServer()
        defer { rig.engine.stop(); Task { await server.stop() }; try? FileManager.default.removeItem(at: rig.directory) }
        rig.engine.load(try servedBook(rig, server: server, tones: [300, 600, 900], seconds: 1), at: 500)
        #expect(await rig.log.wait { $0.statuses.last == .paused && $0.lastPosition == 500 }, "\(rig.log.events.value.suffix(4))")
        rig.engine.play()
        #expect(await rig.log.wait { $0.ended }, "the book ends: \(rig.log.events.value.suffix(4))")
        #expect(rig.log.failure == nil, "\(String(describing: rig.log.failure))")
        let runs = AudioFixtures.toneRuns(of: rig.samples)
        #expect(GStreamerEngineTests.heard(runs, [(300, 500), (600, 1_000), (900, 1_000)]),
                "the rest of the first file, then the others once each: heard \(runs)")
    }

    /// Files served one by one, each a tone of its own, `seconds` long.
    func servedBook(_ rig: Rig, server: AudioFileServer, tones: [Int], seconds: Double) throws -> PlaybackTimeline {
        let milliseconds = Int64(seconds * 1_000)
        let files = try tones.enumerated().map { index, tone in
            let file = try AudioFixtures.tone(tone, seconds: seconds, format: "wav", in: rig.directory, name: "file\(index)")
            let path = "/api/v1/audio/book/af-\(index)"
            server.script.withLock { $0.files[path] = file }
            return PlaybackTimeline.File(id: "af-\(index)", url: server.url(path), start: Int64(index) * milliseconds, duration: milliseconds)
        }
        return PlaybackTimeline(bookID: "book", files: files, chapters: [], headers: ["Authorization": "Bearer good-token"])
    }

    /// As `GStreamerEngineTests.aSeekAfterTheNextFileIsQueuedStaysInThisFile`,
    /// over HTTP: a seek back in a file whose next is queued stays in it.
    @Test func aSeekOverHTTPAfterTheNextFileIsQueuedStaysInThisFile() async throws {
        let rig = try rig()
        let server = try await AudioFileServer()
        defer { rig.engine.stop(); Task { await server.stop() }; try? FileManager.default.removeItem(at: rig.directory) }
        rig.engine.load(try servedBook(rig, server: server, tones: [300, 600], seconds: 3), at: 2_500)
        #expect(await rig.log.wait { $0.statuses.last == .paused && $0.lastPosition == 2_500 })
        let queued = { rig.engine.pipeline.streaming.withLock { !$0.queuedFileIndices.isEmpty } }
        for _ in 0..<1_000 where !queued() { try await Task.sleep(for: .milliseconds(10)) }
        try #require(queued(), "about-to-finish queued the next file")

        rig.engine.seek(to: 2_000)
        #expect(await rig.log.wait { $0.statuses.last == .paused && $0.lastPosition == 2_000 }, "\(rig.log.events.value.suffix(4))")
        try await Task.sleep(for: .milliseconds(300))
        #expect(rig.engine.position == 2_000, "\(rig.log.events.value.suffix(4))")
        rig.engine.play()
        #expect(await rig.log.wait { $0.ended }, "the book ends: \(rig.log.events.value.suffix(4))")
        let runs = AudioFixtures.toneRuns(of: rig.samples)
        #expect(GStreamerEngineTests.heard(runs, [(300, 1_000), (600, 3_000)]), "the last second of the first file, then the next: heard \(runs)")
    }

    /// A stream that stalled leaves the engine buffering; a downloaded book
    /// loaded then (no network needed) plays: the stalled stream's
    /// buffering is not the new one's.
    @Test func aBookLoadedWhileAStreamIsStalledPlays() async throws {
        let rig = try rig()
        let server = try await AudioFileServer()
        defer { rig.engine.stop(); Task { await server.stop() }; try? FileManager.default.removeItem(at: rig.directory) }
        // 44.1 kHz mono S16 WAV: about 88 KB a second; a quarter of a second.
        server.script.withLock { $0.stallAfter["/api/v1/audio/book/af-0"] = 22_000 }
        rig.engine.load(try servedBook(rig, server: server, tones: [300], seconds: 6), at: 0)
        rig.engine.play()
        #expect(await rig.log.wait(timeout: .seconds(15)) { status in
            if case .buffering = status.statuses.last { true } else { false }
        }, "the stalled stream buffers: \(rig.log.statuses)")

        let local = try GStreamerEngineTests.book(rig, tones: [700], seconds: 6)
        rig.engine.load(local, at: 0)
        rig.engine.play()
        #expect(await rig.log.wait { $0.isPlaying() && ($0.lastPosition ?? 0) >= 1_000 }, "the downloaded book plays: \(rig.log.statuses)")
    }

    /// A server that cannot start a file part-way (no Range): the book
    /// opened at 2 s cannot seek there, and the engine settles, paused, at
    /// the file's start rather than loading for ever; it plays from there,
    /// and a seek, refused too, leaves it playing where it was.
    @Test func onAServerWithoutRangesARefusedSeekSettlesWhereItIs() async throws {
        let rig = try rig()
        let server = try await AudioFileServer()
        defer { rig.engine.stop(); Task { await server.stop() }; try? FileManager.default.removeItem(at: rig.directory) }
        server.script.withLock { $0.withoutRanges = ["/api/v1/audio/book/af-0"] }
        rig.engine.load(try servedBook(rig, server: server, tones: [300], seconds: 3), at: 2_000)
        #expect(await rig.log.wait { $0.statuses.last == .paused }, "\(rig.log.events.value.suffix(6))")
        #expect(rig.engine.position == 0, "\(rig.log.events.value.suffix(6))")
        rig.engine.play()
        #expect(await rig.log.wait { $0.isPlaying() && ($0.lastPosition ?? 0) >= 300 }, "\(rig.log.events.value.suffix(6))")

        let before = rig.log.events.value.count
        rig.engine.seek(to: 2_500)
        #expect(await rig.log.wait { log in log.events.value.dropFirst(before).contains(.status(.loading)) && log.isPlaying() },
                "playing again after the refused seek: \(rig.log.events.value.suffix(6))")
        #expect(rig.engine.position < 2_000, "where it was, not where the seek asked")
        #expect(await rig.log.wait { $0.ended }, "the book ends: \(rig.log.events.value.suffix(4))")
    }

    /// On a server without Range a speed cannot come with a seek (refused),
    /// and a file played from its start still has it: its segment is given
    /// the speed before scaletempo. A 3-s file at 2× lasts 1.5 s.
    @Test func onAServerWithoutRangesAFilePlayedFromItsStartHasTheSpeed() async throws {
        let rig = try GStreamerEngineTests.wholeRig()
        let server = try await AudioFileServer()
        defer { rig.finish(); Task { await server.stop() } }
        server.script.withLock { $0.withoutRanges = ["/api/v1/audio/book/af-0"] }
        rig.engine.setRate(2)
        rig.engine.load(try servedBook(rig, server: server, tones: [300], seconds: 3), at: 0)
        rig.engine.play()
        #expect(await rig.log.wait { $0.ended }, "the book ends: \(rig.log.events.value.suffix(4))")
        let runs = AudioFixtures.toneRuns(of: rig.samples)
        #expect(GStreamerEngineTests.heard(runs, [(300, 1_500)]), "at double speed: heard \(runs)")
    }

    /// The next file over a slow network: it is asked for once this one
    /// has been read to its end (`about-to-finish`), and its source buffers
    /// while this one plays on from what it has. This one must play to its
    /// end: the next one's buffering is its own, from when it starts.
    @Test func theNextFileBufferingDoesNotPauseThisOne() async throws {
        let rig = try rig()
        let server = try await AudioFileServer()
        defer { rig.engine.stop(); Task { await server.stop() }; try? FileManager.default.removeItem(at: rig.directory) }
        // 100 KB/s, the audio's own rate (88 KB/s) and little more.
        server.script.withLock { $0.trickle["/api/v1/audio/book/af-1"] = 10_000 }
        rig.engine.load(try servedBook(rig, server: server, tones: [300, 600], seconds: 2), at: 0)
        rig.engine.play()
        #expect(await rig.log.wait { $0.ended }, "the book ends: \(rig.log.events.value.suffix(4))")
        let events = rig.log.events.value
        let played = try #require(events.firstIndex(of: .status(.playing)))
        let next = try #require(events.firstIndex { if case .position(let p) = $0 { p >= 2_000 } else { false } })
        #expect(!events[played..<next].contains { if case .status(.buffering) = $0 { true } else { false } },
                "no buffering before the next file: \(events)")
    }
}
