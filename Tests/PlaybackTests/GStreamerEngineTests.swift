import Foundation
import ListenUpCore
@testable import Playback
import Testing

/// The engine with real GStreamer: real files made at test time, played
/// through a sink that captures the PCM. This suite plays books along one
/// timeline; every format (`GStreamerFormatTests`), HTTP and the failures
/// (`GStreamerHTTPTests`), the gain stage (`GStreamerGainTests`), short
/// files and speeds (`GStreamerShortFileTests`) and commands one on
/// another (`GStreamerCommandSequenceTests`) are suites of their own. Each
/// plays in real time, one test at a time; apart, they run beside each
/// other, so that no one of them is the longest path of a test run.
///
/// A speed is read from how long the audio lasted in a capture that keeps
/// all that was heard (``wholeRig()``), not from the position against the
/// clock: on a busy machine the position can stand still a while, and a
/// 2× speed read 1.5×.
@Suite("The GStreamer engine: one timeline", .serialized)
struct GStreamerEngineTests {
    struct Rig {
        let engine: GStreamerEngine
        let log: EventLog
        let capture: URL
        let directory: URL
        /// The capture's file, open while the engine writes to it (a
        /// ``GStreamerEngineTests/wholeRig()``'s).
        var descriptor: Int32?

        var samples: [Int16] { AudioFixtures.samples(capture) }
        var frequency: Double { AudioFixtures.frequency(of: samples) }
        var capturedMilliseconds: Int { samples.count * 1_000 / AudioFixtures.captureRate }

        /// Stops the engine and removes the rig's folder. The capture's
        /// file is closed on the engine's queue, once the pipeline is down:
        /// closed before, its number could be another test's file by the
        /// time the sink writes its last buffer.
        func finish() {
            engine.stop()
            if let descriptor { engine.pipeline.perform { _ in close(descriptor) } }
            try? FileManager.default.removeItem(at: directory)
        }
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

    /// An engine playing into ``AudioFixtures/wholeCaptureSink(descriptor:)``:
    /// its capture is all that was heard, flushes and all.
    static func wholeRig() throws -> Rig {
        try AudioFixtures.requireTools()
        let directory = try AudioFixtures.directory()
        let capture = directory.appendingPathComponent("capture.raw")
        let descriptor = open(capture.path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
        try #require(descriptor >= 0, "the capture file opens: errno \(errno)")
        let engine = GStreamerEngine(logger: quietLogger, sinkDescription: AudioFixtures.wholeCaptureSink(descriptor: descriptor))
        return Rig(engine: engine, log: EventLog(engine), capture: capture, directory: directory, descriptor: descriptor)
    }

    func rig() throws -> Rig { try Self.rig() }

    /// One file per tone, each `seconds` long, one chapter per file.
    static func book(_ rig: Rig, tones: [Int], seconds: Double, format: String = "wav") throws -> PlaybackTimeline {
        let files = try tones.enumerated().map { index, tone in
            PlaybackTimeline.File(id: "af-\(index)", url: try AudioFixtures.tone(tone, seconds: seconds, format: format, in: rig.directory,
                                                                                   name: "file\(index)"),
                                  start: 0, duration: Int64(seconds * 1_000))
        }
        return PlaybackTimeline(bookID: "book", files: files, chapters: [])
    }

    /// Whether `runs` are `expected`'s tones in that order, each within 10 %
    /// (50-ms windows read a tone a little low, and lower at a speed other
    /// than 1×) and lasting within 150 ms of its length.
    static func heard(_ runs: [AudioFixtures.ToneRun], _ expected: [(hertz: Double, milliseconds: Int)]) -> Bool {
        runs.count == expected.count && zip(runs, expected).allSatisfy { run, tone in
            abs(run.hertz - tone.hertz) < tone.hertz * 0.1 && abs(run.milliseconds - tone.milliseconds) <= 150
        }
    }

    @Test func aSeekToAChapterInAnotherFilePlaysThatChapter() async throws {
        let rig = try rig()
        defer { rig.engine.stop(); try? FileManager.default.removeItem(at: rig.directory) }
        // Six-second files: a busy machine can take seconds to answer, and
        // the book must not have ended meanwhile.
        let timeline = try Self.book(rig, tones: [300, 600, 900], seconds: 6)
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
        let timeline = try Self.book(rig, tones: [400, 800], seconds: 1.5)
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

    /// At 2× a 4-s file lasts 2 s, in its own pitch. The capture keeps all
    /// that was heard, so its length is the speed, however busy the machine.
    @Test func doubleSpeedPlaysTwiceAsFastAndKeepsThePitch() async throws {
        let rig = try Self.wholeRig()
        defer { rig.finish() }
        let timeline = try Self.book(rig, tones: [500], seconds: 4)
        rig.engine.setRate(2)
        rig.engine.load(timeline, at: 0)
        rig.engine.play()
        #expect(await rig.log.wait { $0.ended }, "the book ends: \(rig.log.events.value.suffix(4))")
        let runs = AudioFixtures.toneRuns(of: rig.samples)
        #expect(Self.heard(runs, [(500, 2_000)]), "half as long, the pitch kept: heard \(runs)")
    }

    @Test func pauseStopsTheAudio() async throws {
        let rig = try rig()
        defer { rig.engine.stop(); try? FileManager.default.removeItem(at: rig.directory) }
        let timeline = try Self.book(rig, tones: [440], seconds: 6)
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

    /// Once `about-to-finish` has queued the next file (a short local file
    /// is read to its end long before it is played), a seek in this file
    /// stays in it: playbin started the next file's stream at the seek,
    /// and a paused seek to 2 s reported 5 s (seen first on a loaded
    /// machine, where the tests' seeks came later). Loaded half a second
    /// before its end, the file is read to its end while paused, so the
    /// next one is queued and stays so.
    @Test func aSeekAfterTheNextFileIsQueuedStaysInThisFile() async throws {
        let rig = try rig()
        defer { rig.engine.stop(); try? FileManager.default.removeItem(at: rig.directory) }
        let timeline = try Self.book(rig, tones: [300, 600], seconds: 3)
        rig.engine.load(timeline, at: 2_500)
        #expect(await rig.log.wait { $0.statuses.last == .paused && $0.lastPosition == 2_500 })
        let queued = { rig.engine.pipeline.streaming.withLock { !$0.queuedFileIndices.isEmpty } }
        for _ in 0..<1_000 where !queued() { try await Task.sleep(for: .milliseconds(10)) }
        try #require(queued(), "about-to-finish queued the next file")

        rig.engine.seek(to: 2_000)
        #expect(await rig.log.wait { $0.statuses.last == .paused && $0.lastPosition == 2_000 },
                "\(rig.log.events.value.suffix(4))")
        try await Task.sleep(for: .milliseconds(300))
        #expect(rig.engine.position == 2_000, "\(rig.log.events.value.suffix(4))")
        // Played from there, on into the next file as before.
        rig.engine.play()
        #expect(await rig.log.wait { ($0.lastPosition ?? 0) >= 3_400 })
        #expect(abs(rig.frequency - 600) < 25, "then the next file, heard \(rig.frequency)")
    }

    @Test func seeksWhilePausedEndPausedWithoutAudio() async throws {
        let rig = try rig()
        defer { rig.engine.stop(); try? FileManager.default.removeItem(at: rig.directory) }
        let timeline = try Self.book(rig, tones: [300, 600], seconds: 3)
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
}
