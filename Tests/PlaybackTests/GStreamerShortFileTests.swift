import Foundation
import ListenUpCore
@testable import Playback
import Testing

/// The engine with real GStreamer, as `GStreamerEngineTests`, over the
/// cases that broke it: files shorter than playbin reads ahead (a jingle),
/// opened part-way, played at a speed, and the speed after a jump to a
/// file's start or asked for mid-seek. A suite of its own, so that it runs
/// beside the other suites rather than lengthening theirs.
@Suite("The GStreamer engine: short files and speeds", .serialized)
struct GStreamerShortFileTests {
    typealias Rig = GStreamerEngineTests.Rig

    func rig() throws -> Rig { try GStreamerEngineTests.rig() }

    /// Files shorter than what playbin reads ahead: each is read to its end
    /// (and the next queued) before the one before has been heard, so the
    /// files queued and not yet started are more than one.
    @Test func shortFilesEachPlayOnceInTurn() async throws {
        let rig = try rig()
        defer { rig.engine.stop(); try? FileManager.default.removeItem(at: rig.directory) }
        let timeline = try GStreamerEngineTests.book(rig, tones: [300, 600, 900, 1_200], seconds: 1)
        rig.engine.load(timeline, at: 0)
        rig.engine.play()
        #expect(await rig.log.wait { $0.ended }, "the book ends: \(rig.log.events.value.suffix(4))")
        #expect(rig.log.lastPosition == 4_000)
        let runs = AudioFixtures.toneRuns(of: rig.samples)
        #expect(GStreamerEngineTests.heard(runs, [(300, 1_000), (600, 1_000), (900, 1_000), (1_200, 1_000)]), "each file once, in turn: heard \(runs)")
    }

    /// The same at double speed: each file starts at rate 1 and is sped up
    /// at its stream-start, with the next already queued (so it is opened
    /// again). The capture keeps all that was heard, so each file must last
    /// half its length in it: a file played at 1× a while, or twice, or a
    /// stall that gave up part of one, is heard.
    @Test func shortFilesAtDoubleSpeedEachPlayOnceInTurn() async throws {
        let rig = try GStreamerEngineTests.wholeRig()
        defer { rig.finish() }
        let timeline = try GStreamerEngineTests.book(rig, tones: [300, 600, 900, 1_200], seconds: 1)
        rig.engine.setRate(2)
        rig.engine.load(timeline, at: 0)
        rig.engine.play()
        #expect(await rig.log.wait { $0.ended }, "the book ends: \(rig.log.events.value.suffix(4))")
        let positions = rig.log.events.value.compactMap { if case .position(let p) = $0 { p } else { nil } }
        #expect(zip(positions, positions.dropFirst()).allSatisfy { $1 + 50 >= $0 }, "positions never jump back: \(positions)")
        #expect(positions.last == 4_000)
        let runs = AudioFixtures.toneRuns(of: rig.samples)
        #expect(GStreamerEngineTests.heard(runs, [(300, 500), (600, 500), (900, 500), (1_200, 500)]),
                "each file once, in turn, at double speed: heard \(runs)")
    }

    /// A file short enough to be read to its end while it prerolls (a
    /// jingle), opened at an offset: `about-to-finish` comes before the
    /// seek to the offset, which must still settle in this file.
    @Test func aShortFileOpenedPartWaySettlesThereAndPlaysOn() async throws {
        let rig = try rig()
        defer { rig.engine.stop(); try? FileManager.default.removeItem(at: rig.directory) }
        let timeline = try GStreamerEngineTests.book(rig, tones: [300, 600, 900], seconds: 1)
        rig.engine.load(timeline, at: 500)
        #expect(await rig.log.wait { $0.statuses.last == .paused && $0.lastPosition == 500 }, "\(rig.log.events.value.suffix(4))")
        try await Task.sleep(for: .milliseconds(300))
        #expect(rig.engine.position == 500, "\(rig.log.events.value.suffix(4))")
        rig.engine.play()
        #expect(await rig.log.wait { $0.ended }, "the book ends: \(rig.log.events.value.suffix(4))")
        let runs = AudioFixtures.toneRuns(of: rig.samples)
        #expect(GStreamerEngineTests.heard(runs, [(300, 500), (600, 1_000), (900, 1_000)]), "the rest of the first file, then the others once each: heard \(runs)")
    }

    /// A stream that ends with no file queued after it, short of the book's
    /// end (its `about-to-finish` held back while it settled): the next file
    /// is opened and plays, after a gap. Here playbin's signals are cut
    /// before the book is loaded, so no `about-to-finish` queues anything.
    @Test func aFileThatEndsWithNoneQueuedAfterItIsFollowedByTheNext() async throws {
        let rig = try rig()
        defer { rig.engine.stop(); try? FileManager.default.removeItem(at: rig.directory) }
        rig.engine.pipeline.perform { pipeline in
            guard pipeline.ensurePipeline(), let playbin = pipeline.playbin else { return }
            pipeline.disconnectSignals(playbin.pointer)
        }
        let timeline = try GStreamerEngineTests.book(rig, tones: [300, 600], seconds: 1)
        rig.engine.load(timeline, at: 0)
        rig.engine.play()
        #expect(await rig.log.wait { $0.ended }, "the book ends: \(rig.log.events.value.suffix(4))")
        #expect(rig.log.lastPosition == 2_000)
        let runs = AudioFixtures.toneRuns(of: rig.samples)
        #expect(GStreamerEngineTests.heard(runs, [(300, 1_000), (600, 1_000)]), "both files: heard \(runs)")
        #expect(rig.log.events.value.filter { if case .ended = $0 { true } else { false } }.count == 1, "the book ends once")
    }

    /// A jump to the start of another file (a chapter that starts a file)
    /// opens that file with no seek in it: the speed must still apply. The
    /// capture keeps all that was heard, so the second file must last half
    /// its length in it. The first file is long enough (20 s) that the
    /// jump comes while it plays, however late a busy machine makes it.
    @Test func theSpeedStaysAfterAJumpToTheStartOfAnotherFile() async throws {
        let rig = try GStreamerEngineTests.wholeRig()
        defer { rig.finish() }
        let first = try AudioFixtures.tone(500, seconds: 20, format: "wav", in: rig.directory, name: "file0")
        let second = try AudioFixtures.tone(700, seconds: 4, format: "wav", in: rig.directory, name: "file1")
        let timeline = PlaybackTimeline(bookID: "book", files: [.init(id: "af-0", url: first, start: 0, duration: 20_000),
                                                                .init(id: "af-1", url: second, start: 20_000, duration: 4_000)],
                                        chapters: [])
        rig.engine.setRate(2)
        rig.engine.load(timeline, at: 0)
        rig.engine.play()
        #expect(await rig.log.wait { ($0.lastPosition ?? 0) >= 1_000 })
        rig.engine.seek(to: 20_000)
        #expect(await rig.log.wait { $0.ended }, "the book ends: \(rig.log.events.value.suffix(4))")
        let runs = AudioFixtures.toneRuns(of: rig.samples)
        #expect(runs.count == 2 && GStreamerEngineTests.heard(Array(runs.suffix(1)), [(700, 2_000)]),
                "part of the first file, then the second at double speed: heard \(runs)")
    }

    /// A speed asked for while a seek settles applies once it has, though
    /// another speed was applied before. The file's last 4 s are another
    /// tone, where the seek goes: heard at 2× they last 2 s, at 1.5× 2.7 s.
    @Test func aSpeedAskedForWhileASeekSettlesApplies() async throws {
        let rig = try GStreamerEngineTests.wholeRig()
        defer { rig.finish() }
        let url = try AudioFixtures.tones([(500, 8), (700, 4)], in: rig.directory, name: "file0")
        let timeline = PlaybackTimeline(bookID: "book", files: [.init(id: "af-0", url: url, start: 0, duration: 12_000)], chapters: [])
        rig.engine.setRate(1.5)
        rig.engine.load(timeline, at: 0)
        rig.engine.play()
        #expect(await rig.log.wait { ($0.lastPosition ?? 0) >= 500 })
        rig.engine.seek(to: 8_000)
        rig.engine.setRate(2)
        #expect(await rig.log.wait { $0.ended }, "the book ends: \(rig.log.events.value.suffix(4))")
        let runs = AudioFixtures.toneRuns(of: rig.samples)
        #expect(runs.count == 2 && GStreamerEngineTests.heard(Array(runs.suffix(1)), [(700, 2_000)]),
                "the file's start at 1.5×, then its last part at the later speed: heard \(runs)")
    }

    /// At a gapless move the next file is heard at the speed from its first
    /// sample, however late the engine's queue sees that it started: here
    /// the queue is held for 600 ms across the move, as a busy machine can.
    /// (A seek once the queue saw the start played the file's opening at
    /// 1×, then again at 2×: 1,350 ms of the second tone.)
    @Test func aGaplessMoveKeepsTheSpeedFromTheNextFilesFirstSample() async throws {
        let rig = try GStreamerEngineTests.wholeRig()
        defer { rig.finish() }
        let timeline = try GStreamerEngineTests.book(rig, tones: [500, 700], seconds: 2)
        rig.engine.setRate(2)
        rig.engine.load(timeline, at: 0)
        rig.engine.play()
        #expect(await rig.log.wait { $0.isPlaying() })
        for _ in 0..<1_000 where rig.engine.position < 1_400 { try await Task.sleep(for: .milliseconds(5)) }
        rig.engine.pipeline.perform { _ in Thread.sleep(forTimeInterval: 0.6) }
        #expect(await rig.log.wait { $0.ended }, "the book ends: \(rig.log.events.value.suffix(4))")
        let runs = AudioFixtures.toneRuns(of: rig.samples)
        #expect(GStreamerEngineTests.heard(runs, [(500, 1_000), (700, 1_000)]), "each file once, at double speed: heard \(runs)")
    }
}
