import CGStreamer
import Foundation
import GObjectOwnership
import ListenUpCore
import Logging

/// Making, restarting and tearing down playbin; opening a file, seeking,
/// and what follows a preroll. On the queue.
extension Pipeline {
    func ensurePipeline() -> Bool {
        if playbin != nil { return true }
        guard GStreamerRuntime.initialise(logger: logger) else {
            fail(PlaybackFailure(.other, detail: "GStreamer could not be initialised"))
            return false
        }
        // Floating as made: taking it sinks it, so the reference is ours.
        guard let element = OwnedElement(taking: gst_element_factory_make("playbin", "listenup-player")) else {
            fail(PlaybackFailure(.decode, detail: "playbin is missing (gstreamer1.0-plugins-base)"))
            return false
        }
        // Audio only, software volume (so the fade is the same on every output).
        listenup_gst_set_int(element.pointer, "flags", 0x02 | 0x10)
        if let scaletempo = gst_element_factory_make("scaletempo", nil) {
            watchSegments(of: scaletempo)
            // Floating: playbin sinks it and owns it from here on.
            listenup_gst_set_object(element.pointer, "audio-filter", scaletempo)
        } else {
            logger.warning("scaletempo is missing (gstreamer1.0-plugins-good): speed changes the pitch")
        }
        guard let sink = OwnedElement(taking: makeSink()) else {
            fail(PlaybackFailure(.noAudioOutput, detail: "the audio sink could not be made"))
            return false
        }
        audioSink = sink
        watchFlushes(of: sink.pointer)
        listenup_gst_set_object(element.pointer, "audio-sink", sink.pointer)
        listenup_gst_set_double(element.pointer, "volume", volume)
        playbin = element
        streaming.withLock { $0.playbin = element }
        connectSignals(element.pointer)
        watchBus(of: element.pointer)
        return true
    }

    /// The audio sink, floating (as `gst_element_factory_make` returns it).
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

    func teardown() {
        stopTicker()
        guard let playbin else { return }
        disconnectSignals(playbin.pointer)
        unwatchBus()
        gst_element_set_state(playbin.pointer, GST_STATE_NULL)
        self.playbin = nil
        gain.release()
        audioSink = nil
        settling = false
        buffering = false
        wantsPlaying = false
        pendingOffset = nil
        // The references it held (playbin, the sources) go after the lock.
        // The epoch carries on: a message of this pipeline still on its way
        // to the queue must not pass for one of the next pipeline's.
        let released = streaming.withLock { shared -> StreamingState in
            defer {
                var fresh = StreamingState()
                fresh.epoch = shared.epoch + 1
                shared = fresh
            }
            return shared
        }
        _ = released
    }

    /// Takes the pipeline back to READY for a new start, leaving behind
    /// what the last run said: an error the old source posted just before
    /// (a 401 on a token since refreshed, say) must not fail the new run.
    /// Messages posted until now carry the old epoch and are dropped on the
    /// queue.
    func restart(_ playbin: OpaquePointer) {
        gst_element_set_state(playbin, GST_STATE_READY)
        // The old stream's buffering is over with it: a new one that never
        // buffers (a downloaded file) would otherwise wait on it for good.
        buffering = false
        queuedFileBuffering = nil
        // Last: nothing of the new run exists yet, so whatever was posted
        // until now is the old run's.
        let released = streaming.withLock { shared -> OwnedElement? in
            shared.epoch += 1
            shared.previousFileDuration = nil
            defer {
                shared.retiredSource = shared.source
                shared.source = nil
            }
            return shared.retiredSource
        }
        _ = released // the source retired the time before, let go outside the lock
    }

    /// Points playbin at file `index` and prerolls it; the seek to `offset`
    /// and the play state follow in `asyncDone`.
    func open(file index: Int, offset: Int64) {
        guard let playbin else { return }
        let url = streaming.withLock { shared -> URL? in
            guard shared.files.indices.contains(index) else { return nil }
            shared.fileIndex = index
            shared.queuedFileIndices = []
            shared.streamGroup = nil
            return shared.files[index].url
        }
        guard let url else { return }
        listenup_gst_set_string(playbin.pointer, "uri", url.absoluteString)
        // A seek once prerolled: to the offset, and for the speed (the new
        // stream starts at rate 1, even at the file's start).
        appliedRate = 1
        pendingOffset = offset > 0 || rate != 1 ? offset : nil
        streaming.withLock { $0.holdsNextFile = pendingOffset != nil }
        settling = true
        report(.loading)
        let result = gst_element_set_state(playbin.pointer, GST_STATE_PAUSED)
        if result == GST_STATE_CHANGE_FAILURE {
            // The bus carries the reason (an ERROR message) in most cases.
            logger.debug("Playback: PAUSED refused")
        } else if result == GST_STATE_CHANGE_SUCCESS || result == GST_STATE_CHANGE_NO_PREROLL {
            asyncDone()
        }
        checkAutoSink()
    }

    /// A flushing seek in the file playing, at the current rate.
    /// - Returns: whether a seek was made, or the file opened again (false:
    ///   refused, or no playbin).
    @discardableResult
    func flushingSeek(to offset: Int64) -> Bool {
        guard let playbin else { return false }
        // After `about-to-finish` playbin has the next file lined up, and a
        // flushing seek in this one lets the next file's stream start at
        // once: the engine would take this file for the next (a paused seek
        // to 2 s reported 5 s). The file is opened again instead, which also
        // drops the next; `about-to-finish` queues it again near the end.
        // Otherwise the next file is held back from here until the seek's
        // flush (`holdsNextFile`): a file read to its end meanwhile is read
        // again after it.
        let queuedNext = streaming.withLock { shared -> Int? in
            guard shared.queuedFileIndices.isEmpty else { return shared.fileIndex }
            shared.holdsNextFile = true
            return nil
        }
        if let file = queuedNext {
            restart(playbin.pointer)
            open(file: file, offset: offset)
            return true
        }
        settling = true
        let flags = GstSeekFlags(rawValue: GST_SEEK_FLAG_FLUSH.rawValue | GST_SEEK_FLAG_ACCURATE.rawValue)
        let done = gst_element_seek(playbin.pointer, rate, GST_FORMAT_TIME, flags, GST_SEEK_TYPE_SET, gint64(max(0, offset) * 1_000_000),
                                    GST_SEEK_TYPE_NONE, -1)
        if done == 0 {
            settling = false
            streaming.withLock { $0.holdsNextFile = false }
            logger.debug("Playback: seek refused", metadata: ["offset": "\(offset)"])
            return false
        }
        appliedRate = rate
        return true
    }

    /// At the end of a stream that is not the book's last file, with no
    /// file queued after it (its `about-to-finish` was held back, or never
    /// came): opens the next file, to play on, with a gap.
    /// - Returns: whether there was a next file.
    func openNextAfterEnd() -> Bool {
        guard let playbin else { return false }
        let next = streaming.withLock { shared -> Int? in
            let index = shared.fileIndex + 1
            return shared.queuedFileIndices.isEmpty && shared.files.indices.contains(index) ? index : nil
        }
        guard let next else { return false }
        logger.debug("Playback: a file ended with none queued after it; opening the next", metadata: ["file": "\(next)"])
        restart(playbin.pointer)
        streaming.withLock { $0.lastPosition = $0.files[next].start }
        open(file: next, offset: 0)
        return true
    }

    /// The pipeline is prerolled (after a load, a file switch or a seek).
    func asyncDone() {
        guard let playbin else { return }
        if let offset = pendingOffset {
            pendingOffset = nil
            if flushingSeek(to: offset) { return }
            // Refused (a server that cannot start a file part-way): the
            // stream settles where it is, the file's start.
        }
        // A speed asked for while settling, or a file started meanwhile.
        if appliedRate != rate, flushingSeek(to: max(0, currentPosition() - currentFileStart())) { return }
        settling = false
        emit(.position(currentPosition()))
        if wantsPlaying, !buffering {
            gst_element_set_state(playbin.pointer, GST_STATE_PLAYING)
            // After a flushing seek in PLAYING the pipeline goes on by
            // itself and may post no new state change.
            report(.playing)
        } else if !buffering {
            report(.paused)
        }
    }

    /// autoaudiosink falls back to a fakesink when no output works: that is
    /// "no audio output", not silent success.
    private func checkAutoSink() {
        guard sinkDescription == nil, let output = gain.autoOutput?.pointer ?? audioSink?.pointer,
              let child = OwnedElement(taking: listenup_gst_first_child(output)) else { return }
        if listenup_gst_made_by(child.pointer, "fakesink") != 0 {
            fail(PlaybackFailure(.noAudioOutput, detail: "autoaudiosink found no working output", position: currentPosition()))
        }
    }
}
