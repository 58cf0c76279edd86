import Foundation
import ListenUpCore
import ListenUpTestSupport
import Logging
import Playback
import Testing

/// Real audio files made at test time with `gst-launch-1.0`, and the PCM the
/// engine plays, captured to a file by the sink the test hands it.
enum AudioFixtures {
    /// Formats the engine must play, with the pipeline tail that makes each.
    static let encoders: [String: String] = [
        "m4b": "avenc_aac ! mp4mux",
        "m4a": "avenc_aac ! mp4mux",
        "mp3": "lamemp3enc ! xingmux ! id3v2mux",
        "opus": "opusenc ! oggmux",
        "ogg": "opusenc ! oggmux",
        "flac": "flacenc",
        "wav": "wavenc",
    ]

    static func requireTools() throws {
        let available = FileManager.default.isExecutableFile(atPath: "/usr/bin/gst-launch-1.0")
        try ServiceRequirement.check(available, requiredBy: "LISTENUP_REQUIRE_GSTREAMER",
                                     "gst-launch-1.0 is missing (Debian package gstreamer1.0-tools)")
    }

    static func directory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("listenup-audio-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// A sine tone of `frequency` Hz, `seconds` long (44.1 kHz mono), as
    /// `format`, its peak at `amplitude` of full scale.
    static func tone(_ frequency: Int, seconds: Double, format: String, in directory: URL, name: String? = nil,
                     amplitude: Double = 0.5) throws -> URL {
        let url = directory.appendingPathComponent("\(name ?? "\(frequency)hz").\(format)")
        let encoder = try #require(encoders[format])
        let buffers = Int((seconds * 10).rounded())
        let description = "audiotestsrc wave=sine freq=\(frequency) volume=\(amplitude) num-buffers=\(buffers) samplesperbuffer=4410 "
            + "! audio/x-raw,rate=44100,channels=1 ! audioconvert ! audioresample ! \(encoder) ! filesink location=\(url.path)"
        let (status, output) = try ToolProcess.run(["/usr/bin/gst-launch-1.0", "-q"] + description.split(separator: " ").map(String.init))
        #expect(status == 0, "gst-launch failed: \(output)")
        return url
    }

    /// One WAV file of sine tones one after another, each `seconds` long:
    /// a file whose parts can be told apart by ear.
    static func tones(_ parts: [(hertz: Int, seconds: Double)], in directory: URL, name: String) throws -> URL {
        let url = directory.appendingPathComponent("\(name).wav")
        let caps = "audio/x-raw,rate=44100,channels=1"
        let sources = parts.map { part in
            "audiotestsrc wave=sine freq=\(part.hertz) volume=0.5 num-buffers=\(Int((part.seconds * 10).rounded())) samplesperbuffer=4410 ! \(caps) ! parts."
        }
        let description = "concat name=parts ! \(caps) ! wavenc ! filesink location=\(url.path) " + sources.joined(separator: " ")
        let (status, output) = try ToolProcess.run(["/usr/bin/gst-launch-1.0", "-q"] + description.split(separator: " ").map(String.init))
        #expect(status == 0, "gst-launch failed: \(output)")
        return url
    }

    /// A sink that writes what is played as 16 kHz mono S16LE PCM, in real time.
    /// It appends, so a restart (a new file opened) keeps what was heard;
    /// filesink still empties the file at every flush (a seek, the speed
    /// applied), so a capture holds what was heard since the last one.
    static func captureSink(to url: URL) -> String {
        "audioconvert ! audioresample ! audio/x-raw,format=S16LE,channels=1,rate=16000 ! filesink location=\(url.path) append=true sync=true buffer-mode=unbuffered"
    }

    static let captureRate = 16_000

    /// A sink that writes what is played as ``captureSink(to:)`` does, to
    /// `descriptor`, a file opened to append: fdsink moves its offset at a
    /// flush, and an append ignores it, so the capture keeps everything
    /// heard, seeks and speed changes and all. Its length is how long the
    /// listener listened, whatever the machine's load.
    static func wholeCaptureSink(descriptor: Int32) -> String {
        "audioconvert ! audioresample ! audio/x-raw,format=S16LE,channels=1,rate=16000 ! fdsink fd=\(descriptor) sync=true"
    }

    /// A sink that writes what is played as 44.1 kHz mono 32-bit float PCM
    /// (the fixtures' own rate: nothing resampled), in real time: levels
    /// and peaks as the engine lets them out, not rounded to 16 bits.
    static func floatCaptureSink(to url: URL) -> String {
        "audioconvert ! audioresample ! audio/x-raw,format=F32LE,channels=1,rate=44100 ! filesink location=\(url.path) append=true sync=true buffer-mode=unbuffered"
    }

    static let floatCaptureRate = 44_100

    /// The samples of a float capture.
    static func floatSamples(_ url: URL) -> [Float] {
        guard let data = try? Data(contentsOf: url) else { return [] }
        return data.withUnsafeBytes { raw in
            Array(raw.bindMemory(to: Float.self))
        }
    }

    /// The samples of a capture.
    static func samples(_ url: URL) -> [Int16] {
        guard let data = try? Data(contentsOf: url) else { return [] }
        return data.withUnsafeBytes { raw in
            Array(raw.bindMemory(to: Int16.self))
        }
    }

    /// The frequency of the last `milliseconds` of sound in `samples`, from
    /// zero crossings. Silence at the end is left out: a file that played to
    /// its end before the capture was read (a busy machine) ends in its
    /// encoder's padding (an MP3's is tens of milliseconds of zeros), which
    /// would count as a lower tone.
    static func frequency(of samples: [Int16], lastMilliseconds: Int = 300) -> Double {
        let sounding = samples.lastIndex { abs(Int($0)) > 200 }.map { samples[...$0] } ?? []
        let count = min(sounding.count, captureRate * lastMilliseconds / 1_000)
        guard count > 100 else { return 0 }
        let window = sounding.suffix(count)
        var crossings = 0
        var previous = window.first ?? 0
        for sample in window.dropFirst() {
            if (previous < 0 && sample >= 0) || (previous >= 0 && sample < 0) { crossings += 1 }
            previous = sample
        }
        return Double(crossings) / 2 / (Double(count) / Double(captureRate))
    }
}

extension AudioFixtures {
    /// A tone heard without a break: its frequency and how long it lasted.
    struct ToneRun: CustomStringConvertible, Sendable {
        var hertz: Double
        var milliseconds: Int
        var description: String { "\(Int(hertz.rounded())) Hz for \(milliseconds) ms" }
    }

    /// The tones of a capture in the order heard: 50-ms windows, each read
    /// by ``frequency(of:lastMilliseconds:)``, run together while each is
    /// within 10 % of the run's mean (at a speed other than 1×, scaletempo
    /// stitches the sound from overlapping pieces, and a window read 850 Hz
    /// of a 900-Hz tone). Silent windows and runs under 150 ms (a window
    /// across the change from one tone to the next) are left out. The
    /// tests' tones are at least 25 % apart.
    static func toneRuns(of samples: [Int16]) -> [ToneRun] {
        let window = captureRate / 20
        var runs: [ToneRun] = []
        for start in stride(from: 0, to: samples.count - window + 1, by: window) {
            let slice = Array(samples[start..<start + window])
            guard slice.contains(where: { abs(Int($0)) > 200 }) else { continue }
            let hertz = frequency(of: slice, lastMilliseconds: 50)
            if let last = runs.last, abs(last.hertz - hertz) < last.hertz * 0.1 {
                let windows = Double(last.milliseconds / 50)
                runs[runs.count - 1].hertz = (last.hertz * windows + hertz) / (windows + 1)
                runs[runs.count - 1].milliseconds += 50
            } else {
                runs.append(ToneRun(hertz: hertz, milliseconds: 50))
            }
        }
        return runs.filter { $0.milliseconds >= 150 }
    }
}

/// Collects an engine's events.
final class EventLog: Sendable {
    let events = LockedValue<[PlaybackEngineEvent]>([])
    private let task: Task<Void, Never>

    init(_ engine: GStreamerEngine) {
        let events = events
        let stream = engine.events()
        task = Task {
            for await event in stream { events.withLock { $0.append(event) } }
        }
    }

    deinit { task.cancel() }

    var statuses: [PlaybackEngineStatus] {
        events.value.compactMap { if case .status(let status) = $0 { status } else { nil } }
    }

    var lastPosition: Int64? {
        events.value.last { if case .position = $0 { true } else { false } }.flatMap { if case .position(let p) = $0 { p } else { nil } }
    }

    var failure: PlaybackFailure? {
        statuses.lazy.compactMap { if case .failed(let failure) = $0 { failure } else { nil } }.first
    }

    var ended: Bool { events.value.contains(.ended) }

    /// Waits until `condition` holds (polling), at most `timeout`.
    @discardableResult
    func wait(timeout: Duration = .seconds(10), _ condition: (EventLog) -> Bool) async -> Bool {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if condition(self) { return true }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return condition(self)
    }

    func isPlaying() -> Bool { statuses.last == .playing }
    /// Playing was reported (a short file may have ended since).
    func hasPlayed() -> Bool { statuses.contains(.playing) }
}

let quietLogger = Logger(label: "playback-test", factory: { _ in SwiftLogNoOpLogHandler() })
