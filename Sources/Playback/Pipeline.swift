import CGStreamer
import Dispatch
import Foundation
import GObjectOwnership
import ListenUpCore
import Logging

/// The pipeline and its state (``GStreamerEngine`` explains the threads).
///
/// The stored properties below are the queue's: read and written only on
/// `queue` (every entry point goes through ``perform(_:)``, the bus's
/// messages and the ticker are delivered there). What other threads touch
/// is ``streaming``, behind its lock (`Pipeline+Sources.swift`).
///
/// The parts: this file (state and commands), `Pipeline+Building.swift`
/// (making, restarting and tearing down playbin; opening files, seeking),
/// `Pipeline+Bus.swift` (the bus's messages), `Pipeline+Sources.swift`
/// (the state shared with GStreamer's threads: files, sources, position)
/// and `Pipeline+Reporting.swift` (status, failures, the position ticker).
///
/// `@unchecked Sendable`: the queue's state is confined to `queue`, and
/// `streaming` is a `LockedValue`; nothing else is mutable.
final class Pipeline: @unchecked Sendable {
    let queue = DispatchQueue(label: "io.github.listenup.playback")
    let logger: Logger
    let emit: @Sendable (PlaybackEngineEvent) -> Void
    let sinkDescription: String?
    /// The state GStreamer's threads share with the queue: the one lock.
    let streaming = LockedValue(StreamingState())

    // MARK: The queue's state

    /// playbin (also in `streaming`, for position queries from other threads).
    var playbin: OwnedElement?
    /// The audio sink bin playbin plays into.
    var audioSink: OwnedElement?
    /// playbin's bus, while its sync handler is ours.
    var bus: OwnedElement?
    /// The signal connections on playbin (each releases its context when
    /// disconnected).
    var signalHandlers: [gulong] = []
    /// The gain and limiter at the head of the audio sink.
    let gain: GainStage

    var duration: Int64 = 0
    /// The user wants audio (play was asked and not paused since).
    var wantsPlaying = false
    /// A position to seek to once the pipeline is prerolled (after a load or
    /// a file switch), in the file playing.
    var pendingOffset: Int64?
    /// A state change or flushing seek is under way.
    var settling = false
    var buffering = false
    /// The queued file's buffering level, under 100 %, while the file
    /// before it plays on (from the bus's BUFFERING messages); it counts
    /// when that file's stream starts.
    var queuedFileBuffering: gint?
    var rate: Double = 1
    /// The rate of the last seek made in the stream playing: a file starts
    /// at 1, after an open or a gapless move alike. While it differs from
    /// `rate`, the rate is applied once the pipeline has settled.
    var appliedRate: Double = 1
    /// Whether a new stream's segment is given the speed before scaletempo
    /// (``watchSegments(of:)``), so that a gapless move keeps it.
    var retimesSegments = false
    var volume: Double = 1
    var ended = false
    var failed = false
    var lastStatus: PlaybackEngineStatus = .idle
    var ticker: DispatchSourceTimer?
    /// How often the ticker reports the position while playing.
    var positionInterval: Duration = PlaybackEngineDefaults.positionInterval

    init(sinkDescription: String?, logger: Logger, emit: @escaping @Sendable (PlaybackEngineEvent) -> Void) {
        self.sinkDescription = sinkDescription
        self.logger = logger
        self.emit = emit
        gain = GainStage(logger: logger)
    }

    /// Runs `body` on the pipeline's queue.
    func perform(_ body: @escaping @Sendable (Pipeline) -> Void) {
        queue.async { body(self) }
    }

    /// Tears the pipeline down on its queue, without waiting: a state change
    /// to NULL waits for the streaming threads, and souphttpsrc's can hang on
    /// a connection that died silently, which must not freeze the thread
    /// that let the engine go (the main thread, when a session ends).
    func shutDown() {
        queue.async { self.teardown() }
    }

    // MARK: Commands (on the queue)

    func load(_ timeline: PlaybackTimeline, at position: Int64) {
        // After a failure, a new playbin: the failed run's elements can be
        // left half-started (a source refused with a 401 while prerolling),
        // and uridecodebin may start them again, old headers and all, on
        // the next PAUSED, failing the new run with the old run's error.
        if failed { teardown() }
        guard ensurePipeline(), let playbin else { return }
        failed = false
        ended = false
        duration = timeline.duration
        restart(playbin.pointer)
        streaming.withLock {
            $0.files = timeline.files
            $0.headers = timeline.headers
            $0.queuedFileIndices = []
        }
        guard let (index, offset) = timeline.locate(position) else {
            fail(PlaybackFailure(.notFound, detail: "the book has no audio files", position: position))
            return
        }
        streaming.withLock { $0.lastPosition = position }
        open(file: index, offset: offset)
    }

    func play() {
        guard let playbin, !failed else { return }
        wantsPlaying = true
        if ended {
            ended = false
            seek(to: 0, reportLoading: false)
        }
        if !settling, !buffering { gst_element_set_state(playbin.pointer, GST_STATE_PLAYING) }
    }

    func pause() {
        guard let playbin else { return }
        wantsPlaying = false
        gst_element_set_state(playbin.pointer, GST_STATE_PAUSED)
        stopTicker()
        if !settling { report(.paused) }
    }

    func stop() {
        teardown()
        report(.idle)
    }

    func seek(to position: Int64, reportLoading: Bool) {
        guard let playbin, !failed else { return }
        let files = streaming.withLock { $0.files }
        let timeline = PlaybackTimeline(bookID: "", files: files, chapters: [])
        guard let (index, offset) = timeline.locate(position) else { return }
        ended = false
        if reportLoading { report(.loading) }
        streaming.withLock {
            $0.lastPosition = timeline.files[index].start + offset
            $0.previousFileDuration = nil
        }
        if index != streaming.withLock({ $0.fileIndex }) {
            restart(playbin.pointer)
            open(file: index, offset: offset)
        } else if settling {
            pendingOffset = offset
        } else if !flushingSeek(to: offset) {
            // Refused: it stays where it is, and says so.
            asyncDone()
            return
        }
        emit(.position(timeline.files[index].start + offset))
    }

    func setRate(_ rate: Double) {
        let rate = min(max(rate, 0.5), 3)
        guard rate != self.rate else { return }
        self.rate = rate
        streaming.withLock { $0.rate = rate }
        guard playbin != nil, !settling, !failed else { return }
        // A flushing seek where we are, at the new rate.
        flushingSeek(to: max(0, currentPosition() - currentFileStart()))
    }

    func setVolume(_ volume: Double) {
        self.volume = min(max(volume, 0), 1)
        if let playbin { listenup_gst_set_double(playbin.pointer, "volume", self.volume) }
    }
}
