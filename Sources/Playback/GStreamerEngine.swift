import Foundation
import ListenUpCore
import Logging

/// The app's ``PlaybackEngine``: GStreamer's `playbin`, one book at a time.
///
/// - **One timeline**: a book's files play as one. Positions are book
///   positions; the engine keeps the index of the file playing, queues the
///   next file in `about-to-finish` (no gap) and seeks across files by
///   switching the URI and seeking in the new file once it is ready. A
///   flushing seek holds the next file back until its flush has passed
///   (`Pipeline+Sources.swift` says why).
/// - **Speed with the pitch kept**: `scaletempo` is playbin's audio filter;
///   the speed is the rate of a flushing seek, applied again to any file
///   opened; the next file's stream at a gapless move is given it before
///   scaletempo (`Pipeline.watchSegments(of:)`), from its first sample.
/// - **Gain**: a gain and a limiter head the audio sink (``GainStage``).
/// - **Credentials**: `http(s)` files are read by souphttpsrc with the
///   timeline's headers set as its `extra-headers` in `source-setup`: the
///   token never goes into a URL or a log.
///
/// ## Threads: one serial queue, one lock
///
/// The engine has one concurrency style, Dispatch with a single executor:
///
/// - **One serial queue owns the pipeline** (``Pipeline``'s `queue`). Every
///   command, every bus message and the position ticker (a
///   `DispatchSourceTimer` on that queue) run there, in order, so the
///   pipeline's state (`Pipeline.swift`) needs no lock and no command ever
///   blocks the caller's thread (a state change to NULL can wait on a dead
///   connection: the main thread must not).
/// - **GStreamer's threads only enqueue or read one lock.** The bus's sync
///   handler runs on whichever thread posts a message; it takes a reference
///   to the message and hands it to the queue (`Pipeline+Bus.swift`), so
///   the engine starts no thread of its own and needs no GLib main loop
///   (the headless front has none). playbin's two signals come on its
///   streaming threads, and ``position`` on the caller's; those three read
///   and update one lock-guarded ``Pipeline/StreamingState``
///   (`Pipeline+Sources.swift`), the only state shared across threads.
/// - **Events leave through an `AsyncStream`**, the ``PlaybackEngine``
///   protocol's output, yielded from the queue.
///
/// Why not an actor: the protocol's commands and ``position`` are
/// synchronous, and GStreamer calls in from C on its own threads; a `Task`
/// per callback would not keep the bus's order, where `queue.async` does,
/// and Dispatch's timer source fires on the same queue the state lives on.
///
/// GStreamer is initialised when the first engine is made (on first play),
/// not at start-up.
public final class GStreamerEngine: PlaybackEngine {
    /// Internal, not private: a test reads what it has queued.
    let pipeline: Pipeline
    private let stream: AsyncStream<PlaybackEngineEvent>

    /// - Parameters:
    ///   - sinkDescription: a `gst-launch` style bin for the audio output
    ///     (tests capture PCM with one); nil: `LISTENUP_AUDIO_SINK` when
    ///     set, else `autoaudiosink`.
    public init(logger: Logger, sinkDescription: String? = nil) {
        let (stream, continuation) = AsyncStream.makeStream(of: PlaybackEngineEvent.self)
        self.stream = stream
        let sink = sinkDescription ?? ProcessInfo.processInfo.environment["LISTENUP_AUDIO_SINK"].flatMap { $0.isEmpty ? nil : $0 }
        pipeline = Pipeline(sinkDescription: sink, logger: logger, emit: { continuation.yield($0) })
    }

    deinit {
        pipeline.shutDown()
    }

    public func load(_ timeline: PlaybackTimeline, at position: Int64) { pipeline.perform { $0.load(timeline, at: position) } }
    public func play() { pipeline.perform { $0.play() } }
    public func pause() { pipeline.perform { $0.pause() } }
    public func stop() { pipeline.perform { $0.stop() } }
    public func seek(to position: Int64) { pipeline.perform { $0.seek(to: position, reportLoading: true) } }
    public func setRate(_ rate: Double) { pipeline.perform { $0.setRate(rate) } }
    public func setVolume(_ volume: Double) { pipeline.perform { $0.setVolume(volume) } }
    public func setGain(decibels: Double) { pipeline.perform { $0.gain.set(decibels: decibels) } }
    public func setHeaders(_ headers: [String: String]) { pipeline.setHeaders(headers) }
    public func setPositionInterval(_ interval: Duration) { pipeline.perform { $0.setPositionInterval(interval) } }
    public var position: Int64 { pipeline.currentPosition() }
    public func events() -> AsyncStream<PlaybackEngineEvent> { stream }
}
