import CGStreamer
import Dispatch
import Foundation
import ListenUpCore
import Logging

/// The app's ``PlaybackEngine``: GStreamer's `playbin`, one book at a time.
///
/// - **One timeline**: a book's files play as one. Positions are book
///   positions; the engine keeps the index of the file playing, queues the
///   next file in `about-to-finish` (no gap) and seeks across files by
///   switching the URI and seeking in the new file once it is ready.
/// - **Speed with the pitch kept**: `scaletempo` is playbin's audio filter;
///   the speed is the rate of a flushing seek, applied again when the next
///   file starts (a new file starts at rate 1).
/// - **Gain**: a gain and a limiter head the audio sink (``GainStage``).
/// - **Credentials**: `http(s)` files are read by souphttpsrc with the
///   timeline's headers set as its `extra-headers` in `source-setup`: the
///   token never goes into a URL or a log.
/// - **Threads**: every pipeline operation runs on one serial queue; a
///   thread of its own pops the bus and hands messages to that queue, so
///   the engine needs no GLib main loop (the headless front has none) and
///   never blocks the caller's thread. The two playbin signals come on
///   GStreamer's streaming threads and read only the lock-guarded file list.
///
/// GStreamer is initialised when the first engine is made (on first play),
/// not at start-up.
public final class GStreamerEngine: PlaybackEngine {
    private let pipeline: Pipeline
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

/// The pipeline and its state. Everything but the lock-guarded `shared`
/// values is touched only on `queue`.
///
/// `@unchecked Sendable`: the mutable state is confined to `queue` (every
/// entry point goes through ``perform(_:)``), and what other threads read
/// (the playbin signals, ``currentPosition()``) is in `shared`, behind a lock.
final class Pipeline: @unchecked Sendable {
    /// What the signal handlers and position queries read from other threads.
    struct Shared {
        var files: [PlaybackTimeline.File] = []
        var headers: [String: String] = [:]
        /// The file playing now.
        var fileIndex = 0
        /// The file queued in `about-to-finish`, which becomes the one
        /// playing at its stream-start.
        var queuedFileIndex: Int?
        /// The last book position known: what a position query answers
        /// while the pipeline cannot (a flushing seek, a file switch).
        var lastPosition: Int64 = 0
        /// Counts the pipeline's restarts (a load, a move to another
        /// file): a bus message popped before one is stale after it.
        var epoch = 0
        /// Set at a gapless move to the next file: how long the file before
        /// lasted. Until the sink plays the new file's segment, a position
        /// query can still answer in the old one (near its end), which
        /// would read as a jump ahead in the new file.
        var previousFileDuration: Int64?
        /// The source element of this run (`source-setup`), and the one
        /// retired by the last restart, each holding a reference (as bit
        /// patterns: the lock-guarded state stays plain values). An HTTP
        /// source can post an error after its run has ended (a 401 on the
        /// token just replaced, from its session's own thread): that error
        /// is the retired source's, not the new run's.
        var source: UInt = 0
        var retiredSource: UInt = 0
    }

    /// The bus thread's name (15 bytes at most, the kernel's limit).
    static let busThreadName = "listenup-gstbus"
    private let queue = DispatchQueue(label: "io.github.listenup.playback")
    private let lock = NSLock()
    private var shared = Shared()
    private let logger: Logger
    private let emit: @Sendable (PlaybackEngineEvent) -> Void
    private let sinkDescription: String?

    private var playbin: OpaquePointer?
    private var audioSink: OpaquePointer?
    private var busThread: Thread?
    /// The bus thread's own flag (a new one per thread: a thread told to
    /// end must not be revived by the next pipeline's start).
    private var busRunning = LockedFlag()
    private var signalHandlers: [gulong] = []
    /// The gain and limiter at the head of the audio sink.
    let gain: GainStage

    private var duration: Int64 = 0
    /// The user wants audio (play was asked and not paused since).
    private var wantsPlaying = false
    /// A position to seek to once the pipeline is prerolled (after a load or
    /// a file switch), in the file playing.
    private var pendingOffset: Int64?
    /// A state change or flushing seek is under way.
    private var settling = false
    private var buffering = false
    private var rate: Double = 1
    private var volume: Double = 1
    private var ended = false
    private var failed = false
    private var lastStatus: PlaybackEngineStatus = .idle
    private var ticker: DispatchSourceTimer?
    /// How often the ticker reports the position while playing.
    private var positionInterval: Duration = PlaybackEngineDefaults.positionInterval

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

    // MARK: Shared state

    private func withShared<Result>(_ body: (inout Shared) -> Result) -> Result {
        lock.withLock { body(&shared) }
    }

    func setHeaders(_ headers: [String: String]) {
        withShared { $0.headers = headers }
    }

    /// The book position: the file's start plus the position in it; while
    /// the pipeline cannot say (mid-seek, mid-switch), the last one known.
    func currentPosition() -> Int64 {
        let (start, last, element) = lock.withLock {
            (shared.files.indices.contains(shared.fileIndex) ? shared.files[shared.fileIndex].start : 0, shared.lastPosition, playbin)
        }
        guard let element else { return last }
        var nanoseconds: gint64 = 0
        guard gst_element_query_position(element, GST_FORMAT_TIME, &nanoseconds) != 0, nanoseconds >= 0 else { return last }
        let inFile = Int64(nanoseconds / 1_000_000)
        let position = withShared { shared -> Int64 in
            // Just after a gapless move, an answer from the old file's end
            // is the new file's start (until the sink says otherwise).
            if let previous = shared.previousFileDuration {
                if inFile >= previous - Self.switchTolerance { return start }
                shared.previousFileDuration = nil
            }
            shared.lastPosition = start + inFile
            return start + inFile
        }
        return position
    }

    /// How close to the previous file's end an answer must be, just after
    /// a gapless move, to be taken for one from that file.
    static let switchTolerance: Int64 = 500

    // MARK: Commands (on the queue)

    func load(_ timeline: PlaybackTimeline, at position: Int64) {
        guard ensurePipeline(), let playbin else { return }
        failed = false
        ended = false
        duration = timeline.duration
        restart(playbin)
        withShared {
            $0.files = timeline.files
            $0.headers = timeline.headers
            $0.queuedFileIndex = nil
        }
        guard let (index, offset) = timeline.locate(position) else {
            fail(PlaybackFailure(.notFound, detail: "the book has no audio files", position: position))
            return
        }
        withShared { $0.lastPosition = position }
        open(file: index, offset: offset)
    }

    func play() {
        guard let playbin, !failed else { return }
        wantsPlaying = true
        if ended {
            ended = false
            seek(to: 0, reportLoading: false)
        }
        if !settling, !buffering { gst_element_set_state(playbin, GST_STATE_PLAYING) }
    }

    func pause() {
        guard let playbin else { return }
        wantsPlaying = false
        gst_element_set_state(playbin, GST_STATE_PAUSED)
        stopTicker()
        if !settling { report(.paused) }
    }

    func stop() {
        teardown()
        report(.idle)
    }

    func seek(to position: Int64, reportLoading: Bool) {
        guard let playbin, !failed else { return }
        let files = withShared { $0.files }
        let timeline = PlaybackTimeline(bookID: "", files: files, chapters: [])
        guard let (index, offset) = timeline.locate(position) else { return }
        ended = false
        if reportLoading { report(.loading) }
        withShared {
            $0.lastPosition = timeline.files[index].start + offset
            $0.previousFileDuration = nil
        }
        if index != withShared({ $0.fileIndex }) {
            restart(playbin)
            open(file: index, offset: offset)
        } else if settling {
            pendingOffset = offset
        } else {
            flushingSeek(to: offset)
        }
        emit(.position(timeline.files[index].start + offset))
    }

    func setRate(_ rate: Double) {
        let rate = min(max(rate, 0.5), 3)
        guard rate != self.rate else { return }
        self.rate = rate
        guard playbin != nil, !settling, !failed else { return }
        // A flushing seek where we are, at the new rate.
        let offset = currentPosition() - withShared { $0.files.indices.contains($0.fileIndex) ? $0.files[$0.fileIndex].start : 0 }
        flushingSeek(to: max(0, offset))
    }

    func setVolume(_ volume: Double) {
        self.volume = min(max(volume, 0), 1)
        if let playbin { listenup_gst_set_double(playbin, "volume", self.volume) }
    }

    // MARK: The pipeline

    /// Takes the pipeline back to READY for a new start, leaving behind
    /// what the last run said: an error the old source posted just before
    /// (a 401 on a token since refreshed, say) must not fail the new run.
    /// Messages still on the bus are flushed; ones the bus thread already
    /// took carry the old epoch and are dropped on the queue.
    private func restart(_ playbin: OpaquePointer) {
        gst_element_set_state(playbin, GST_STATE_READY)
        if let bus = gst_element_get_bus(playbin) {
            gst_bus_set_flushing(bus, 1)
            gst_bus_set_flushing(bus, 0)
            gst_object_unref(bus)
        }
        // Last: nothing of the new run exists yet, so whatever the bus
        // thread took until now is the old run's.
        let released = withShared { shared -> UInt in
            shared.epoch += 1
            shared.previousFileDuration = nil
            defer {
                shared.retiredSource = shared.source
                shared.source = 0
            }
            return shared.retiredSource
        }
        if let old = OpaquePointer(bitPattern: released) { gst_object_unref(old) }
    }

    private func ensurePipeline() -> Bool {
        if playbin != nil { return true }
        guard GStreamerRuntime.initialise(logger: logger) else {
            fail(PlaybackFailure(.other, detail: "GStreamer could not be initialised"))
            return false
        }
        guard let element = gst_element_factory_make("playbin", "listenup-player") else {
            fail(PlaybackFailure(.decode, detail: "playbin is missing (gstreamer1.0-plugins-base)"))
            return false
        }
        // Audio only, software volume (so the fade is the same on every output).
        listenup_gst_set_int(element, "flags", 0x02 | 0x10)
        if let scaletempo = gst_element_factory_make("scaletempo", nil) {
            listenup_gst_set_object(element, "audio-filter", scaletempo)
        } else {
            logger.warning("scaletempo is missing (gstreamer1.0-plugins-good): speed changes the pitch")
        }
        guard let sink = makeSink() else {
            gst_object_unref(element)
            fail(PlaybackFailure(.noAudioOutput, detail: "the audio sink could not be made"))
            return false
        }
        audioSink = sink
        gst_object_ref(sink)
        listenup_gst_set_object(element, "audio-sink", sink)
        listenup_gst_set_double(element, "volume", volume)
        playbin = element
        connectSignals(element)
        startBusThread(element)
        return true
    }

    private func makeSink() -> OpaquePointer? {
        if let sink = gain.makeSink(output: sinkDescription) { return sink }
        guard let sinkDescription else { return gst_element_factory_make("autoaudiosink", "listenup-audio-output") }
        var error: UnsafeMutablePointer<GError>?
        let bin = gst_parse_bin_from_description(sinkDescription, 1, &error)
        if let error {
            logger.error("LISTENUP_AUDIO_SINK is not a usable bin", metadata: ["reason": "\(String(cString: error.pointee.message))"])
            g_error_free(error)
        }
        return bin
    }

    private func teardown() {
        stopTicker()
        guard let playbin else { return }
        for handler in signalHandlers { g_signal_handler_disconnect(listenup_gst_instance(playbin), handler) }
        signalHandlers = []
        stopBusThread(playbin)
        gst_element_set_state(playbin, GST_STATE_NULL)
        gst_object_unref(playbin)
        self.playbin = nil
        gain.release()
        if let audioSink { gst_object_unref(audioSink) }
        audioSink = nil
        settling = false
        buffering = false
        wantsPlaying = false
        pendingOffset = nil
        let sources = withShared { shared -> [UInt] in
            defer { shared = Shared() }
            return [shared.source, shared.retiredSource]
        }
        for held in sources { if let object = OpaquePointer(bitPattern: held) { gst_object_unref(object) } }
    }

    /// Points playbin at file `index` and prerolls it; the seek to `offset`
    /// and the play state follow in `asyncDone`.
    private func open(file index: Int, offset: Int64) {
        guard let playbin else { return }
        let url = withShared { shared -> URL? in
            guard shared.files.indices.contains(index) else { return nil }
            shared.fileIndex = index
            shared.queuedFileIndex = nil
            return shared.files[index].url
        }
        guard let url else { return }
        listenup_gst_set_string(playbin, "uri", url.absoluteString)
        pendingOffset = offset > 0 ? offset : nil
        settling = true
        report(.loading)
        let result = gst_element_set_state(playbin, GST_STATE_PAUSED)
        if result == GST_STATE_CHANGE_FAILURE {
            // The bus carries the reason (an ERROR message) in most cases.
            logger.debug("Playback: PAUSED refused")
        } else if result == GST_STATE_CHANGE_SUCCESS || result == GST_STATE_CHANGE_NO_PREROLL {
            asyncDone()
        }
        checkAutoSink()
    }

    private func flushingSeek(to offset: Int64) {
        guard let playbin else { return }
        settling = true
        let flags = GstSeekFlags(rawValue: GST_SEEK_FLAG_FLUSH.rawValue | GST_SEEK_FLAG_ACCURATE.rawValue)
        let done = gst_element_seek(playbin, rate, GST_FORMAT_TIME, flags, GST_SEEK_TYPE_SET, gint64(max(0, offset) * 1_000_000),
                                    GST_SEEK_TYPE_NONE, -1)
        if done == 0 {
            settling = false
            logger.debug("Playback: seek refused", metadata: ["offset": "\(offset)"])
        }
    }

    /// The pipeline is prerolled (after a load, a file switch or a seek).
    private func asyncDone() {
        guard let playbin else { return }
        if let offset = pendingOffset {
            pendingOffset = nil
            flushingSeek(to: offset)
            return
        }
        if rate != 1, !rateApplied {
            rateApplied = true
            flushingSeek(to: max(0, currentPosition() - currentFileStart()))
            return
        }
        settling = false
        emit(.position(currentPosition()))
        if wantsPlaying, !buffering {
            gst_element_set_state(playbin, GST_STATE_PLAYING)
            // After a flushing seek in PLAYING the pipeline goes on by
            // itself and may post no new state change.
            report(.playing)
        } else if !buffering {
            report(.paused)
        }
    }

    /// Whether the current rate has been applied to the file playing (a
    /// file starts at rate 1).
    private var rateApplied = false

    private func currentFileStart() -> Int64 {
        withShared { $0.files.indices.contains($0.fileIndex) ? $0.files[$0.fileIndex].start : 0 }
    }

    /// autoaudiosink falls back to a fakesink when no output works: that is
    /// "no audio output", not silent success.
    private func checkAutoSink() {
        guard sinkDescription == nil, let output = gain.autoOutput ?? audioSink, let child = listenup_gst_first_child(output) else { return }
        defer { gst_object_unref(child) }
        if listenup_gst_made_by(child, "fakesink") != 0 {
            fail(PlaybackFailure(.noAudioOutput, detail: "autoaudiosink found no working output", position: currentPosition()))
        }
    }

    // MARK: Reporting

    private func report(_ status: PlaybackEngineStatus) {
        guard status != lastStatus else { return }
        lastStatus = status
        emit(.status(status))
        if status == .playing { startTicker() } else if case .buffering = status {} else { stopTicker() }
    }

    private func fail(_ failure: PlaybackFailure) {
        guard !failed else { return }
        failed = true
        wantsPlaying = false
        settling = false
        stopTicker()
        if let playbin { gst_element_set_state(playbin, GST_STATE_READY) }
        logger.warning("Playback failed", metadata: ["kind": "\(failure.kind.rawValue)", "detail": "\(failure.detail)"])
        lastStatus = .failed(failure)
        emit(.status(.failed(failure)))
    }

    func setPositionInterval(_ interval: Duration) {
        let interval = max(interval, .milliseconds(50))
        guard interval != positionInterval else { return }
        positionInterval = interval
        if ticker != nil {
            stopTicker()
            startTicker()
        }
    }

    private func startTicker() {
        guard ticker == nil else { return }
        let timer = DispatchSource.makeTimerSource(queue: queue)
        schedule(timer)
        timer.setEventHandler { [weak self] in
            guard let self else { return }
            self.emit(.position(self.currentPosition()))
        }
        timer.resume()
        ticker = timer
    }

    /// The next report one interval from now, then every interval.
    private func schedule(_ timer: any DispatchSourceTimer) {
        let milliseconds = Int(positionInterval.components.seconds * 1_000 + positionInterval.components.attoseconds / 1_000_000_000_000_000)
        timer.schedule(deadline: .now() + .milliseconds(milliseconds), repeating: .milliseconds(milliseconds))
    }

    private func stopTicker() {
        ticker?.cancel()
        ticker = nil
    }

    // MARK: Signals (streaming threads)

    private func connectSignals(_ element: OpaquePointer) {
        let context = Unmanaged.passUnretained(self).toOpaque()
        let aboutToFinish: @convention(c) (OpaquePointer?, gpointer?) -> Void = { element, context in
            guard let element, let context else { return }
            Unmanaged<Pipeline>.fromOpaque(context).takeUnretainedValue().queueNextFile(element)
        }
        let sourceSetup: @convention(c) (OpaquePointer?, OpaquePointer?, gpointer?) -> Void = {
            _, source, context in
            guard let source, let context else { return }
            Unmanaged<Pipeline>.fromOpaque(context).takeUnretainedValue().configure(source: source)
        }
        signalHandlers.append(g_signal_connect_data(listenup_gst_instance(element), "about-to-finish", unsafeBitCast(aboutToFinish, to: GCallback.self),
                                                    context, nil, GConnectFlags(rawValue: 0)))
        signalHandlers.append(g_signal_connect_data(listenup_gst_instance(element), "source-setup", unsafeBitCast(sourceSetup, to: GCallback.self),
                                                    context, nil, GConnectFlags(rawValue: 0)))
    }

    /// `about-to-finish`: the next file's URI, set now for a gapless move.
    private func queueNextFile(_ element: OpaquePointer) {
        let next = withShared { shared -> URL? in
            let index = shared.fileIndex + 1
            guard shared.files.indices.contains(index) else { return nil }
            shared.queuedFileIndex = index
            return shared.files[index].url
        }
        guard let next else { return }
        listenup_gst_set_string(element, "uri", next.absoluteString)
    }

    /// `source-setup`: the headers (the Bearer token) for HTTP sources.
    private func configure(source: OpaquePointer) {
        gst_object_ref(source)
        let replaced = withShared { shared -> UInt in
            defer { shared.source = UInt(bitPattern: Int(bitPattern: UnsafeMutableRawPointer(source))) }
            return shared.source
        }
        if let old = OpaquePointer(bitPattern: replaced) { gst_object_unref(old) }
        guard listenup_gst_has_property(source, "extra-headers") != 0 else { return }
        let headers = withShared { $0.headers }
        if !headers.isEmpty, let structure = gst_structure_new_empty("extra-headers") {
            for (name, value) in headers { listenup_gst_structure_set_string(structure, name, value) }
            listenup_gst_set_structure(source, "extra-headers", structure)
            gst_structure_free(structure)
        }
        if listenup_gst_has_property(source, "retries") != 0 { listenup_gst_set_int(source, "retries", 5) }
        if listenup_gst_has_property(source, "timeout") != 0 { listenup_gst_set_uint(source, "timeout", 15) }
        if listenup_gst_has_property(source, "user-agent") != 0 { listenup_gst_set_string(source, "user-agent", "ListenUp-Linux") }
    }

    // MARK: The bus

    private func startBusThread(_ element: OpaquePointer) {
        guard let bus = gst_element_get_bus(element) else { return }
        let running = LockedFlag()
        running.value = true
        busRunning = running
        let messages = GST_MESSAGE_ERROR.rawValue | GST_MESSAGE_EOS.rawValue | GST_MESSAGE_STATE_CHANGED.rawValue
            | GST_MESSAGE_BUFFERING.rawValue | GST_MESSAGE_ASYNC_DONE.rawValue | GST_MESSAGE_STREAM_START.rawValue
            | GST_MESSAGE_APPLICATION.rawValue
        let busBox = UnsafeSendable(bus)
        // The thread sleeps until a message comes (no polling: a playing
        // book wakes it only for what matters); `stopBusThread` wakes it
        // with an application message to end it.
        let thread = Thread { [weak self] in
            // Named for `top -H` and the benches, through pthreads: setting
            // `Thread.current.name` from inside does not always reach the
            // kernel (the thread kept the process's name now and then).
            listenup_name_current_thread(Pipeline.busThreadName)
            defer { gst_object_unref(busBox.value) }
            while running.value {
                // GstClockTime.max is GST_CLOCK_TIME_NONE: wait for ever.
                guard let message = gst_bus_timed_pop_filtered(busBox.value, GstClockTime.max, GstMessageType(rawValue: messages))
                else { continue }
                guard running.value, listenup_gst_message_type(message) != GST_MESSAGE_APPLICATION else {
                    gst_message_unref(message)
                    continue
                }
                let box = UnsafeSendable(message)
                guard let self else {
                    gst_message_unref(message)
                    return
                }
                let epoch = self.withShared { $0.epoch }
                self.queue.async {
                    if epoch == self.withShared({ $0.epoch }) { self.handle(box.value) }
                    gst_message_unref(box.value)
                }
            }
        }
        thread.start()
        busThread = thread
    }

    /// Ends the bus thread, which wakes on its next message and sees it is
    /// no longer wanted. The state changes on the way to NULL usually post
    /// one, but nothing promises it, so a message of our own is posted:
    /// before the pipeline goes to NULL, which sets its bus flushing (a
    /// message posted then would be dropped).
    private func stopBusThread(_ element: OpaquePointer) {
        guard busThread != nil else { return }
        busRunning.value = false
        busThread = nil
        if let bus = gst_element_get_bus(element) {
            _ = gst_bus_post(bus, gst_message_new_application(nil, gst_structure_new_empty("listenup-stop-bus")))
            gst_object_unref(bus)
        }
    }

    /// One bus message, on the queue.
    private func handle(_ message: UnsafeMutablePointer<GstMessage>) {
        guard let playbin else { return }
        let source = listenup_gst_message_source(message)
        let fromPlaybin = source.map { UnsafeMutableRawPointer($0) == UnsafeMutableRawPointer(playbin) } ?? false
        switch listenup_gst_message_type(message) {
        case GST_MESSAGE_ERROR:
            let retired = withShared { $0.retiredSource }
            if retired != 0, let source, UInt(bitPattern: Int(bitPattern: UnsafeMutableRawPointer(source))) == retired {
                logger.debug("Playback: an error of the previous run's source, dropped")
                return
            }
            handleError(message)
        case GST_MESSAGE_EOS:
            // The last file ran out (earlier files flow on gaplessly).
            ended = true
            wantsPlaying = false
            gst_element_set_state(playbin, GST_STATE_PAUSED)
            report(.paused)
            emit(.position(duration))
            emit(.ended)
        case GST_MESSAGE_ASYNC_DONE:
            if settling { asyncDone() }
        case GST_MESSAGE_STREAM_START:
            let switched = withShared { shared -> Bool in
                guard let queued = shared.queuedFileIndex else { return false }
                if shared.files.indices.contains(shared.fileIndex) {
                    shared.previousFileDuration = shared.files[shared.fileIndex].duration
                }
                shared.fileIndex = queued
                shared.queuedFileIndex = nil
                return true
            }
            if switched {
                rateApplied = false
                if rate != 1, !settling {
                    rateApplied = true
                    flushingSeek(to: 0)
                }
                emit(.position(currentPosition()))
            }
        case GST_MESSAGE_BUFFERING:
            var percent: gint = 0
            gst_message_parse_buffering(message, &percent)
            if percent < 100 {
                if !buffering, wantsPlaying { gst_element_set_state(playbin, GST_STATE_PAUSED) }
                buffering = true
                if wantsPlaying { report(.buffering(percent: Int(percent))) }
            } else if buffering {
                buffering = false
                // Settled while buffering (a seek or a new file while
                // paused): the pause it held back is reported now.
                if !settling {
                    if wantsPlaying { gst_element_set_state(playbin, GST_STATE_PLAYING) } else { report(.paused) }
                }
            }
        case GST_MESSAGE_STATE_CHANGED where fromPlaybin:
            var old = GST_STATE_NULL
            var new = GST_STATE_NULL
            var pending = GST_STATE_NULL
            gst_message_parse_state_changed(message, &old, &new, &pending)
            if new == GST_STATE_PLAYING {
                report(.playing)
            } else if new == GST_STATE_PAUSED, old == GST_STATE_PLAYING, !buffering, !wantsPlaying {
                report(.paused)
            }
        default:
            break
        }
    }

    private func handleError(_ message: UnsafeMutablePointer<GstMessage>) {
        var error: UnsafeMutablePointer<GError>?
        var debug: UnsafeMutablePointer<gchar>?
        gst_message_parse_error(message, &error, &debug)
        defer {
            if let error { g_error_free(error) }
            g_free(debug)
        }
        let status = listenup_gst_error_http_status(message)
        let domain = error?.pointee.domain ?? 0
        let code = error?.pointee.code ?? 0
        let text = error.map { String(cString: $0.pointee.message) } ?? "unknown error"
        let fromSink: Bool = {
            guard let audioSink, let source = listenup_gst_message_source(message) else { return false }
            return UnsafeMutableRawPointer(source) == UnsafeMutableRawPointer(audioSink)
                || gst_object_has_as_ancestor(source, audioSink) != 0
        }()
        let kind: PlaybackFailure.Kind
        switch status {
        case 401, 407: kind = .unauthorized
        case 403: kind = .forbidden
        case 404, 410: kind = .notFound
        case 400..<600: kind = .network
        default:
            if fromSink {
                kind = .noAudioOutput
            } else if domain == listenup_gst_resource_error_quark() {
                switch GstResourceError(rawValue: UInt32(code)) {
                case GST_RESOURCE_ERROR_NOT_FOUND: kind = .notFound
                case GST_RESOURCE_ERROR_NOT_AUTHORIZED: kind = .unauthorized
                default: kind = .network
                }
            } else if domain == listenup_gst_stream_error_quark() || domain == listenup_gst_core_error_quark() {
                kind = .decode
            } else {
                kind = .other
            }
        }
        // The detail goes to the log: GStreamer's text, never the URL's
        // headers (the token is in none of them).
        fail(PlaybackFailure(kind, detail: status > 0 ? "HTTP \(status): \(text)" : text, position: currentPosition()))
    }
}

/// A flag read by the bus thread and set by the queue.
final class LockedFlag: @unchecked Sendable {
    // `@unchecked Sendable`: `stored` is only read and written under `lock`.
    private let lock = NSLock()
    private var stored = false

    var value: Bool {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }
}

/// A C pointer handed to another thread that owns it from then on.
struct UnsafeSendable<Value>: @unchecked Sendable {
    // `@unchecked Sendable`: the value is handed over, never shared; the
    // receiving thread is its only user.
    let value: Value

    init(_ value: Value) { self.value = value }
}

/// GStreamer's process-wide initialisation, once.
enum GStreamerRuntime {
    private static let state = LockedValue<Bool?>(nil)

    /// Loads and initialises GStreamer on first call (the app does not link
    /// it: CGStreamer.h); false if it cannot be.
    static func initialise(logger: Logger) -> Bool {
        state.withLock { done in
            if let done { return done }
            if let failure = listenup_gst_load() {
                logger.error("GStreamer could not be loaded", metadata: ["reason": "\(String(cString: failure))"])
                done = false
                return false
            }
            var error: UnsafeMutablePointer<GError>?
            let ok = gst_init_check(nil, nil, &error) != 0
            if let error {
                logger.error("GStreamer could not start", metadata: ["reason": "\(String(cString: error.pointee.message))"])
                g_error_free(error)
            }
            done = ok
            return ok
        }
    }
}
