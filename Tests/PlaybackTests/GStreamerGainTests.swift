import Foundation
import ListenUpCore
import Playback
import Testing

/// The gain stage with real GStreamer: tones of known level played through
/// the engine, the PCM captured as float and measured. One at a time (they
/// play in real time), beside the engine's other tests: a suite of their
/// own, so the two serialized suites do not add up to the longest path of
/// a test run.
@Suite("The GStreamer engine's gain stage", .serialized)
struct GStreamerGainTests {
    typealias Rig = GStreamerEngineTests.Rig

    /// The level of the last `milliseconds` of a float capture.
    struct Level: CustomStringConvertible {
        var rms: Double
        var peak: Double
        var count: Int

        init(_ samples: [Float], lastMilliseconds milliseconds: Int? = nil) {
            let window = milliseconds.map { samples.suffix(AudioFixtures.floatCaptureRate * $0 / 1_000) } ?? samples[...]
            count = window.count
            rms = window.isEmpty ? 0 : (window.reduce(0) { $0 + Double($1) * Double($1) } / Double(window.count)).squareRoot()
            peak = window.reduce(0) { max($0, abs(Double($1))) }
        }

        var description: String { "rms \(rms), peak \(peak) over \(count) samples" }
    }

    func floatRig() throws -> Rig {
        try GStreamerEngineTests.rig(capturingTo: "capture.f32", sink: AudioFixtures.floatCaptureSink)
    }

    /// One 440 Hz file per entry of `seconds`, each peaking at `amplitude`.
    func tones(_ rig: Rig, amplitude: Double, seconds: [Double]) throws -> PlaybackTimeline {
        var start: Int64 = 0
        let files = try seconds.enumerated().map { index, length in
            let url = try AudioFixtures.tone(440, seconds: length, format: "wav", in: rig.directory, name: "level\(index)", amplitude: amplitude)
            defer { start += Int64(length * 1_000) }
            return PlaybackTimeline.File(id: "af-\(index)", url: url, start: start, duration: Int64(length * 1_000))
        }
        return PlaybackTimeline(bookID: "book", files: files, chapters: [])
    }

    /// Waits until a position of at least `position` is reported after a
    /// `.loading` that came after the first `events` events (the load or
    /// seek just asked for): a report of the run before cannot pass for
    /// one of this run.
    func playedTo(_ rig: Rig, _ position: Int64, after events: Int = 0) async -> Bool {
        await rig.log.wait { log in
            let events = log.events.value.dropFirst(events)
            guard let loading = events.lastIndex(of: .status(.loading)) else { return false }
            return events[loading...].contains { if case .position(let reached) = $0 { reached >= position } else { false } }
        }
    }

    /// About -20 dBFS RMS: a sine peaking at 0.1414.
    static let quiet = 0.1414
    /// About -3 dBFS: a sine peaking at 0.708.
    static let loud = 0.708

    @Test func sixDecibelsDoubleTheLevelOfAQuietPassage() async throws {
        let rig = try floatRig()
        defer { rig.engine.stop(); try? FileManager.default.removeItem(at: rig.directory) }
        let timeline = try tones(rig, amplitude: Self.quiet, seconds: [4])
        rig.engine.load(timeline, at: 0)
        rig.engine.play()
        #expect(await playedTo(rig, 1_200), "\(rig.log.statuses)")
        let unity = Level(AudioFixtures.floatSamples(rig.capture), lastMilliseconds: 400)

        // Set before a load: it holds for the book loaded next.
        rig.engine.setGain(decibels: 6)
        let before = rig.log.events.value.count
        rig.engine.load(timeline, at: 0)
        rig.engine.play()
        #expect(await playedTo(rig, 1_200, after: before), "\(rig.log.statuses)")
        let boosted = Level(AudioFixtures.floatSamples(rig.capture), lastMilliseconds: 400)

        #expect(abs(unity.rms - Self.quiet / 2.0.squareRoot()) < 0.005, "0 dB plays the passage as it is: \(unity)")
        let ratio = boosted.rms / unity.rms
        #expect(abs(ratio - 2) < 0.1, "+6 dB: RMS ratio \(ratio) (\(boosted) against \(unity))")
    }

    @Test func twelveDecibelsOnALoudPassageNeverReachFullScale() async throws {
        let rig = try floatRig()
        defer { rig.engine.stop(); try? FileManager.default.removeItem(at: rig.directory) }
        rig.engine.setGain(decibels: 12)
        rig.engine.load(try tones(rig, amplitude: Self.loud, seconds: [3]), at: 0)
        rig.engine.play()
        #expect(await playedTo(rig, 1_500), "\(rig.log.statuses)")
        let level = Level(AudioFixtures.floatSamples(rig.capture))
        #expect(level.count > AudioFixtures.floatCaptureRate, "a second of audio at least: \(level)")
        // Unlimited, +12 dB would peak at 2.8 (+9 dBFS); the limiter's
        // ceiling is 0.891 (-1 dBFS): a margin of 0.45 dB at least.
        #expect(level.peak < 0.95, "+12 dB on -3 dBFS: \(level)")
        #expect(level.peak > 0.85, "yet louder than the passage, up to the ceiling: \(level)")
        #expect(level.rms > Self.loud / 2.0.squareRoot() * 1.1, "louder on average too: \(level)")
    }

    @Test func zeroDecibelsLeaveTheAudioUntouched() async throws {
        let rig = try floatRig()
        defer { rig.engine.stop(); try? FileManager.default.removeItem(at: rig.directory) }
        // Back to 0 dB after a boost: the limiter is out of the way again.
        rig.engine.setGain(decibels: 12)
        rig.engine.setGain(decibels: 0)
        rig.engine.load(try tones(rig, amplitude: Self.loud, seconds: [3]), at: 0)
        rig.engine.play()
        #expect(await playedTo(rig, 1_000), "\(rig.log.statuses)")
        let samples = AudioFixtures.floatSamples(rig.capture)
        let level = Level(samples)
        #expect(abs(level.peak - Self.loud) < 0.002, "the peak is the file's: \(level)")
        // The file is 16-bit: untouched, every sample is still a multiple
        // of 2^-15; any arithmetic on the way (a gain of 1/c·c, the
        // limiter) moves most of them off that grid.
        let offGrid = samples.filter { ($0 * 32_768).rounded() != $0 * 32_768 }.count
        #expect(samples.count > 1_000 && offGrid == 0, "\(offGrid) of \(samples.count) samples changed")
    }

    @Test func aGainSetWhilePlayingChangesWhatFollowsAndHoldsAcrossFiles() async throws {
        let rig = try floatRig()
        defer { rig.engine.stop(); try? FileManager.default.removeItem(at: rig.directory) }
        rig.engine.load(try tones(rig, amplitude: Self.quiet, seconds: [4, 4]), at: 0)
        rig.engine.play()
        #expect(await playedTo(rig, 800), "\(rig.log.statuses)")
        let unity = Level(AudioFixtures.floatSamples(rig.capture), lastMilliseconds: 300)

        rig.engine.setGain(decibels: 6)
        try await captured(rig, moreMilliseconds: 700)
        let boosted = Level(AudioFixtures.floatSamples(rig.capture), lastMilliseconds: 300)
        #expect(abs(boosted.rms / unity.rms - 2) < 0.1, "+6 dB while playing: \(boosted) against \(unity)")

        // A seek into the next file restarts the pipeline: the gain stays.
        let before = rig.log.events.value.count
        rig.engine.seek(to: 4_500)
        #expect(await playedTo(rig, 5_200, after: before), "\(rig.log.events.value.suffix(4))")
        let nextFile = Level(AudioFixtures.floatSamples(rig.capture), lastMilliseconds: 300)
        #expect(abs(nextFile.rms / unity.rms - 2) < 0.1, "+6 dB in the next file: \(nextFile) against \(unity)")

        rig.engine.setGain(decibels: -6)
        try await captured(rig, moreMilliseconds: 700)
        let cut = Level(AudioFixtures.floatSamples(rig.capture), lastMilliseconds: 300)
        #expect(abs(cut.rms / unity.rms - 0.5) < 0.025, "-6 dB while playing: \(cut) against \(unity)")
    }

    /// Waits until the capture holds `milliseconds` more audio than now
    /// (the capture file's sink keeps the clock, so on a busy machine wall
    /// time is no measure of what was played), 15 s at most.
    func captured(_ rig: Rig, moreMilliseconds milliseconds: Int) async throws {
        let wanted = AudioFixtures.floatSamples(rig.capture).count + 44_100 * milliseconds / 1_000
        for _ in 0..<300 where AudioFixtures.floatSamples(rig.capture).count < wanted {
            try await Task.sleep(for: .milliseconds(50))
        }
    }
}
