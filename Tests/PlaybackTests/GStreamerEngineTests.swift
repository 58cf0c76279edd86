import Foundation
import ListenUpCore
import Playback
import Testing

/// The engine with real GStreamer: real files made at test time, played
/// through a sink that captures the PCM, over `file://` and a loopback
/// HTTP server.
@Suite("The GStreamer engine", .serialized)
struct GStreamerEngineTests {
    struct Rig {
        let engine: GStreamerEngine
        let log: EventLog
        let capture: URL
        let directory: URL

        var samples: [Int16] { AudioFixtures.samples(capture) }
        var frequency: Double { AudioFixtures.frequency(of: samples) }
        var capturedMilliseconds: Int { samples.count * 1_000 / AudioFixtures.captureRate }
    }

    /// An engine playing into `sink` (one of ``AudioFixtures``' capture
    /// sinks), which writes `file` in a folder of the rig's own.
    static func rig(capturingTo file: String = "capture.raw", sink: (URL) -> String = AudioFixtures.captureSink) throws -> Rig {
        try AudioFixtures.requireTools()
        let directory = try AudioFixtures.directory()
        let capture = directory.appendingPathComponent(file)
        let engine = GStreamerEngine(logger: quietLogger, sinkDescription: sink(capture))
        return Rig(engine: engine, log: EventLog(engine), capture: capture, directory: directory)
    }

    func rig() throws -> Rig { try Self.rig() }

    /// One file per tone, each `seconds` long, one chapter per file.
    func book(_ rig: Rig, tones: [Int], seconds: Double, format: String = "wav") throws -> PlaybackTimeline {
        let files = try tones.enumerated().map { index, tone in
            PlaybackTimeline.File(id: "af-\(index)", url: try AudioFixtures.tone(tone, seconds: seconds, format: format, in: rig.directory,
                                                                                   name: "file\(index)"),
                                  start: 0, duration: Int64(seconds * 1_000))
        }
        return PlaybackTimeline(bookID: "book", files: files, chapters: [])
    }

    @Test(arguments: ["m4b", "m4a", "mp3", "opus", "ogg", "flac", "wav"])
    func eachFormatPlays(format: String) async throws {
        let rig = try rig()
        defer { rig.engine.stop(); try? FileManager.default.removeItem(at: rig.directory) }
        let timeline = try book(rig, tones: [440], seconds: 2, format: format)
        rig.engine.load(timeline, at: 0)
        rig.engine.play()
        // The file lasts 2 s: on a busy machine it can be over before the
        // first look, so "has played", not "is playing".
        #expect(await rig.log.wait { $0.hasPlayed() }, "\(format): \(rig.log.statuses)")
        #expect(await rig.log.wait { ($0.lastPosition ?? 0) >= 600 }, "\(format): the position advances")
        #expect(abs(rig.frequency - 440) < 25, "\(format): heard \(rig.frequency) Hz")
        #expect(rig.log.failure == nil)
    }

    @Test func aSeekToAChapterInAnotherFilePlaysThatChapter() async throws {
        let rig = try rig()
        defer { rig.engine.stop(); try? FileManager.default.removeItem(at: rig.directory) }
        // Six-second files: a busy machine can take seconds to answer, and
        // the book must not have ended meanwhile.
        let timeline = try book(rig, tones: [300, 600, 900], seconds: 6)
        rig.engine.load(timeline, at: 0)
        rig.engine.play()
        #expect(await rig.log.wait { ($0.lastPosition ?? 0) >= 500 })
        #expect(abs(rig.frequency - 300) < 20, "heard \(rig.frequency)")

        rig.engine.seek(to: 12_200)
        #expect(await rig.log.wait { ($0.lastPosition ?? 0) >= 12_700 })
        try await Task.sleep(for: .milliseconds(150))
        #expect(abs(rig.frequency - 900) < 25, "chapter 3's tone after the seek, heard \(rig.frequency)")
        #expect(rig.engine.position >= 12_200 && rig.engine.position < 18_000)
    }

    @Test func filesFollowEachOtherOnOneTimeline() async throws {
        let rig = try rig()
        defer { rig.engine.stop(); try? FileManager.default.removeItem(at: rig.directory) }
        let timeline = try book(rig, tones: [400, 800], seconds: 1.5)
        rig.engine.load(timeline, at: 1_000)
        rig.engine.play()
        #expect(await rig.log.wait { ($0.lastPosition ?? 0) >= 2_000 }, "past the first file: \(rig.log.events.value.suffix(5))")
        try await Task.sleep(for: .milliseconds(300))
        #expect(abs(rig.frequency - 800) < 25, "the second file plays, heard \(rig.frequency)")
        #expect(await rig.log.wait { $0.ended }, "the book ends after the last file")
        #expect(rig.log.lastPosition == 3_000)
        let positions = rig.log.events.value.compactMap { if case .position(let p) = $0 { p } else { nil } }
        #expect(positions.first.map { $0 >= 1_000 } ?? false)
        #expect(zip(positions, positions.dropFirst()).allSatisfy { $1 + 50 >= $0 }, "positions never jump back: \(positions)")
    }

    @Test func doubleSpeedAdvancesTwiceAsFastAndKeepsThePitch() async throws {
        let rig = try rig()
        defer { rig.engine.stop(); try? FileManager.default.removeItem(at: rig.directory) }
        let timeline = try book(rig, tones: [500], seconds: 8)
        rig.engine.setRate(2)
        rig.engine.load(timeline, at: 0)
        rig.engine.play()
        #expect(await rig.log.wait { $0.isPlaying() })
        let start = rig.engine.position
        let clock = ContinuousClock.now
        try await Task.sleep(for: .milliseconds(1_500))
        let advanced = Double(rig.engine.position - start)
        let elapsed = (ContinuousClock.now - clock).milliseconds
        #expect(advanced / elapsed > 1.7 && advanced / elapsed < 2.3, "advanced \(advanced) ms in \(elapsed) ms")
        #expect(abs(rig.frequency - 500) < 30, "the pitch is kept: heard \(rig.frequency) Hz")
    }

    @Test func pauseStopsTheAudio() async throws {
        let rig = try rig()
        defer { rig.engine.stop(); try? FileManager.default.removeItem(at: rig.directory) }
        let timeline = try book(rig, tones: [440], seconds: 6)
        rig.engine.load(timeline, at: 0)
        rig.engine.play()
        #expect(await rig.log.wait { ($0.lastPosition ?? 0) >= 500 })
        rig.engine.pause()
        #expect(await rig.log.wait { $0.statuses.last == .paused })
        try await Task.sleep(for: .milliseconds(200))
        let captured = rig.samples.count
        let position = rig.engine.position
        try await Task.sleep(for: .milliseconds(700))
        #expect(rig.samples.count == captured, "no audio while paused")
        #expect(abs(rig.engine.position - position) < 50)
        rig.engine.play()
        #expect(await rig.log.wait { $0.isPlaying() })
        try await Task.sleep(for: .milliseconds(400))
        #expect(rig.samples.count > captured, "audio again after play")
    }

    @Test func seeksWhilePausedEndPausedWithoutAudio() async throws {
        let rig = try rig()
        defer { rig.engine.stop(); try? FileManager.default.removeItem(at: rig.directory) }
        let timeline = try book(rig, tones: [300, 600], seconds: 3)
        rig.engine.load(timeline, at: 0)
        rig.engine.play()
        #expect(await rig.log.wait { ($0.lastPosition ?? 0) >= 500 })
        rig.engine.pause()
        #expect(await rig.log.wait { $0.statuses.last == .paused })

        rig.engine.seek(to: 2_000)
        #expect(await rig.log.wait { $0.statuses.last == .paused && $0.lastPosition == 2_000 },
                "a seek in the same file: \(rig.log.events.value.suffix(4))")
        rig.engine.seek(to: 4_000)
        #expect(await rig.log.wait { $0.statuses.last == .paused && $0.lastPosition == 4_000 },
                "a seek to the next file: \(rig.log.events.value.suffix(4))")
        let captured = rig.samples.count
        try await Task.sleep(for: .milliseconds(500))
        #expect(rig.samples.count == captured, "no audio while paused")
        rig.engine.play()
        #expect(await rig.log.wait { ($0.lastPosition ?? 0) >= 4_400 })
        #expect(abs(rig.frequency - 600) < 25, "the second file from there, heard \(rig.frequency)")
    }

    @Test func anOutputThatCannotOpenIsNoAudioOutput() async throws {
        try AudioFixtures.requireTools()
        let directory = try AudioFixtures.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let engine = GStreamerEngine(logger: quietLogger, sinkDescription: "filesink location=/nonexistent/listenup/out.raw")
        let log = EventLog(engine)
        let file = try AudioFixtures.tone(440, seconds: 1, format: "wav", in: directory)
        engine.load(PlaybackTimeline(bookID: "b", files: [.init(id: "f", url: file, start: 0, duration: 1_000)], chapters: []), at: 0)
        engine.play()
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
        let directory = try AudioFixtures.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let engine = GStreamerEngine(logger: quietLogger)
        let log = EventLog(engine)
        let file = try AudioFixtures.tone(440, seconds: 1, format: "wav", in: directory)
        engine.load(PlaybackTimeline(bookID: "b", files: [.init(id: "f", url: file, start: 0, duration: 1_000)], chapters: []), at: 0)
        engine.play()
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
}
