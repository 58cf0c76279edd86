import CGStreamer
import Foundation
import GObjectOwnership
import ListenUpCore

/// The state shared with GStreamer's threads, and the two playbin signals
/// that read it: which file plays, its source element, the position.
extension Pipeline {
    /// What playbin's signal handlers (streaming threads) and position
    /// queries (any thread) read and update, always under `streaming`'s
    /// lock. The references in it are released outside the lock: whoever
    /// takes one out lets it go after the lock is left.
    struct StreamingState: Sendable {
        /// playbin, for position queries from other threads (a reference of
        /// their own for the length of a query, so a teardown meanwhile
        /// cannot finalise it under them).
        var playbin: OwnedElement?
        var files: [PlaybackTimeline.File] = []
        var headers: [String: String] = [:]
        /// The file playing now.
        var fileIndex = 0
        /// The files queued in `about-to-finish` whose streams have not
        /// started yet, in order; each becomes the one playing at its
        /// stream-start. More than one when the files are shorter than
        /// what playbin reads ahead: the next file is read to its end, and
        /// the one after it queued, before the file playing has been heard.
        var queuedFileIndices: [Int] = []
        /// The stream group of the file playing (each file is one; a
        /// STREAM_START carries its id), nil until the first stream of an
        /// open has started. A flushing seek starts the same group's stream
        /// again, and its STREAM_START can come after the next file has been
        /// queued (a short file is read to its end at once): only another
        /// group is the queued file's.
        var streamGroup: UInt32?
        /// Set from the moment a flushing seek is decided (and while a file
        /// opened part-way, or at a speed, prerolls before its seek) until
        /// the seek's flush reaches the audio sink (``Pipeline/watchFlushes(of:)``).
        /// A file short enough to be read to its end at once (a jingle)
        /// brings `about-to-finish` before the flush, and with the next file
        /// queued the seek goes to the next file's stream and never settles.
        /// The seek reads the file to its end again, and that
        /// `about-to-finish` (after the flush: it can come before the seek
        /// call has returned) queues the next. Should none come, the end of
        /// the stream opens it (``Pipeline/openNextAfterEnd()``).
        var holdsNextFile = false
        /// The speed the engine plays at: a stream's SEGMENT at rate 1 is
        /// given it before scaletempo (``Pipeline/watchSegments(of:)``).
        var rate: Double = 1
        /// The last book position known: what a position query answers
        /// while the pipeline cannot (a flushing seek, a file switch).
        var lastPosition: Int64 = 0
        /// Counts the pipeline's restarts (a load, a move to another
        /// file): a bus message posted before one is stale after it.
        var epoch = 0
        /// Set at a gapless move to the next file: how long the file before
        /// lasted. Until the sink plays the new file's segment, a position
        /// query can still answer in the old one (near its end), which
        /// would read as a jump ahead in the new file.
        var previousFileDuration: Int64?
        /// The source element of this run (`source-setup`), and the one
        /// retired by the last restart. An HTTP source can post an error
        /// after its run has ended (a 401 on the token just replaced, from
        /// its session's own thread): that error is the retired source's,
        /// not the new run's.
        var source: OwnedElement?
        var retiredSource: OwnedElement?

        /// Where the file playing starts on the book's timeline.
        var fileStart: Int64 { files.indices.contains(fileIndex) ? files[fileIndex].start : 0 }
    }

    /// How close to the previous file's end an answer must be, just after
    /// a gapless move, to be taken for one from that file.
    static let switchTolerance: Int64 = 500

    func setHeaders(_ headers: [String: String]) {
        streaming.withLock { $0.headers = headers }
    }

    /// The book position: the file's start plus the position in it; while
    /// the pipeline cannot say (mid-seek, mid-switch), the last one known.
    /// Any thread.
    func currentPosition() -> Int64 {
        let (start, last, element) = streaming.withLock { ($0.fileStart, $0.lastPosition, $0.playbin) }
        guard let element else { return last }
        var nanoseconds: gint64 = 0
        guard gst_element_query_position(element.pointer, GST_FORMAT_TIME, &nanoseconds) != 0, nanoseconds >= 0 else { return last }
        let inFile = Int64(nanoseconds / 1_000_000)
        return streaming.withLock { shared -> Int64 in
            // Just after a gapless move, an answer from the old file's end
            // is the new file's start (until the sink says otherwise).
            if let previous = shared.previousFileDuration {
                if inFile >= previous - Self.switchTolerance { return start }
                shared.previousFileDuration = nil
            }
            shared.lastPosition = start + inFile
            return start + inFile
        }
    }

    func currentFileStart() -> Int64 {
        streaming.withLock { $0.fileStart }
    }

    // MARK: Signals (streaming threads)

    /// Connects `about-to-finish` and `source-setup`; each connection holds
    /// a context released when it is disconnected (teardown) or playbin is
    /// finalised, whichever comes first.
    func connectSignals(_ element: OpaquePointer) {
        let aboutToFinish: @convention(c) (OpaquePointer?, gpointer?) -> Void = { element, context in
            guard let element, let pipeline = CallbackContext.target(of: context, as: Pipeline.self) else { return }
            pipeline.queueNextFile(element)
        }
        let sourceSetup: @convention(c) (OpaquePointer?, OpaquePointer?, gpointer?) -> Void = { _, source, context in
            guard let source, let pipeline = CallbackContext.target(of: context, as: Pipeline.self) else { return }
            pipeline.configure(source: source)
        }
        let release: GClosureNotify = { context, _ in CallbackContext.release(context) }
        signalHandlers.append(g_signal_connect_data(listenup_gst_instance(element), "about-to-finish", unsafeBitCast(aboutToFinish, to: GCallback.self),
                                                    CallbackContext.retained(self), release, GConnectFlags(rawValue: 0)))
        signalHandlers.append(g_signal_connect_data(listenup_gst_instance(element), "source-setup", unsafeBitCast(sourceSetup, to: GCallback.self),
                                                    CallbackContext.retained(self), release, GConnectFlags(rawValue: 0)))
    }

    /// Watches the flushes that reach `sink`'s pad (a streaming thread, or
    /// the thread that seeks): the end of a flush ends a hold on the next
    /// file (``StreamingState/holdsNextFile``). Every `about-to-finish`
    /// before it is the flushed stream's; every one after, the new one's
    /// (the flush passes the decoders before the new stream's data does).
    /// The probe lives as long as the pad; its context is released with it.
    func watchFlushes(of sink: OpaquePointer) {
        guard let pad = OwnedElement(taking: gst_element_get_static_pad(sink, "sink")) else {
            logger.warning("Playback: the audio sink has no sink pad to watch")
            return
        }
        let probe: GstPadProbeCallback = { _, info, context in
            if let info, listenup_gst_probe_event_type(info) == GST_EVENT_FLUSH_STOP,
               let pipeline = CallbackContext.target(of: context, as: Pipeline.self) {
                pipeline.streaming.withLock { $0.holdsNextFile = false }
            }
            return GST_PAD_PROBE_OK
        }
        _ = gst_pad_add_probe(pad.pointer, GST_PAD_PROBE_TYPE_EVENT_FLUSH, probe, CallbackContext.retained(self), CallbackContext.destroyNotify)
    }

    /// Gives every SEGMENT at rate 1 that reaches scaletempo's pad the
    /// engine's speed (any thread: the streaming thread). A new stream
    /// starts at rate 1, the next file's at a gapless move too: given the
    /// speed here it is heard at that speed from its first sample, where a
    /// seek once the queue saw its start played its opening at 1× and then
    /// again. A segment of the engine's own seeks already has the speed.
    func watchSegments(of scaletempo: OpaquePointer) {
        guard let pad = OwnedElement(taking: gst_element_get_static_pad(scaletempo, "sink")) else {
            logger.warning("Playback: scaletempo has no sink pad to watch")
            return
        }
        let probe: GstPadProbeCallback = { _, info, context in
            if let info, let pipeline = CallbackContext.target(of: context, as: Pipeline.self) {
                _ = listenup_gst_probe_segment_at_rate(info, pipeline.streaming.withLock { $0.rate })
            }
            return GST_PAD_PROBE_OK
        }
        _ = gst_pad_add_probe(pad.pointer, GST_PAD_PROBE_TYPE_EVENT_DOWNSTREAM, probe, CallbackContext.retained(self),
                              CallbackContext.destroyNotify)
        retimesSegments = true
    }

    /// Disconnects the signals (their contexts are released by GLib).
    func disconnectSignals(_ element: OpaquePointer) {
        for handler in signalHandlers { g_signal_handler_disconnect(listenup_gst_instance(element), handler) }
        signalHandlers = []
    }

    /// `about-to-finish`: the next file's URI, set now for a gapless move.
    /// The file read to its end is the last one queued, if any: its stream
    /// may not have started yet.
    private func queueNextFile(_ element: OpaquePointer) {
        let next = streaming.withLock { shared -> URL? in
            guard !shared.holdsNextFile else { return nil }
            let index = (shared.queuedFileIndices.last ?? shared.fileIndex) + 1
            guard shared.files.indices.contains(index) else { return nil }
            shared.queuedFileIndices.append(index)
            return shared.files[index].url
        }
        guard let next else { return }
        listenup_gst_set_string(element, "uri", next.absoluteString)
    }

    /// `source-setup`: keeps the run's source; the headers (the Bearer
    /// token) for HTTP sources.
    private func configure(source: OpaquePointer) {
        let held = OwnedElement(borrowing: source)
        let replaced = streaming.withLock { shared -> OwnedElement? in
            defer { shared.source = held }
            return shared.source
        }
        _ = replaced // released here, outside the lock
        guard listenup_gst_has_property(source, "extra-headers") != 0 else { return }
        let headers = streaming.withLock { $0.headers }
        if !headers.isEmpty, let structure = gst_structure_new_empty("extra-headers") {
            for (name, value) in headers { listenup_gst_structure_set_string(structure, name, value) }
            listenup_gst_set_structure(source, "extra-headers", structure)
            gst_structure_free(structure)
        }
        if listenup_gst_has_property(source, "retries") != 0 { listenup_gst_set_int(source, "retries", 5) }
        if listenup_gst_has_property(source, "timeout") != 0 { listenup_gst_set_uint(source, "timeout", 15) }
        if listenup_gst_has_property(source, "user-agent") != 0 { listenup_gst_set_string(source, "user-agent", "ListenUp-Linux") }
    }

    /// Whether `source` is the source the last restart retired.
    func isRetiredSource(_ source: OpaquePointer) -> Bool {
        streaming.withLock { $0.retiredSource?.refers(to: source) ?? false }
    }
}
