import CGStreamer
import Foundation
import GObjectOwnership
import ListenUpCore
import Logging

/// The bus: a sync handler hands each message to the queue, where it is
/// acted on.
extension Pipeline {
    /// The messages the engine acts on; the bus drops the others.
    static let watchedMessages = GST_MESSAGE_ERROR.rawValue | GST_MESSAGE_EOS.rawValue | GST_MESSAGE_STATE_CHANGED.rawValue
        | GST_MESSAGE_BUFFERING.rawValue | GST_MESSAGE_ASYNC_DONE.rawValue | GST_MESSAGE_STREAM_START.rawValue

    /// Installs the sync handler on playbin's bus. It runs on the thread
    /// that posts each message (a streaming thread, GStreamer's, or the
    /// queue itself during a state change), takes a reference to a message
    /// the engine watches and queues it, with the epoch it was posted in;
    /// every message is then dropped from the bus, which nobody pops (so
    /// nothing waits on it, and no thread of ours sleeps on it).
    func watchBus(of element: OpaquePointer) {
        guard let bus = OwnedElement(taking: gst_element_get_bus(element)) else { return }
        let handler: GstBusSyncHandler = { _, message, context in
            if let message, let pipeline = CallbackContext.target(of: context, as: Pipeline.self) { pipeline.posted(message) }
            return GST_BUS_DROP
        }
        // The context is released by the bus when the handler is unset
        // (`unwatchBus`) or the bus is finalised, after any call under way.
        gst_bus_set_sync_handler(bus.pointer, handler, CallbackContext.retained(self), CallbackContext.destroyNotify)
        self.bus = bus
    }

    /// Removes the sync handler (before the pipeline goes to NULL: what is
    /// posted after that is flushed with the bus).
    func unwatchBus() {
        guard let bus else { return }
        gst_bus_set_sync_handler(bus.pointer, nil, nil, nil)
        self.bus = nil
    }

    /// A message, on the thread that posted it.
    private func posted(_ message: UnsafeMutablePointer<GstMessage>) {
        guard listenup_gst_message_type(message).rawValue & Self.watchedMessages != 0 else { return }
        let held = OwnedMessage(borrowing: message, counting: .gstMiniObject)
        let epoch = streaming.withLock { $0.epoch }
        queue.async {
            if epoch == self.streaming.withLock({ $0.epoch }) { self.handle(held.pointer) }
        }
    }

    /// One bus message, on the queue.
    private func handle(_ message: UnsafeMutablePointer<GstMessage>) {
        guard let playbin = playbin?.pointer else { return }
        let source = listenup_gst_message_source(message)
        let fromPlaybin = source.map { UnsafeMutableRawPointer($0) == UnsafeMutableRawPointer(playbin) } ?? false
        switch listenup_gst_message_type(message) {
        case GST_MESSAGE_ERROR:
            if let source, isRetiredSource(source) {
                logger.debug("Playback: an error of the previous run's source, dropped")
                return
            }
            handleError(message)
        case GST_MESSAGE_EOS:
            // The last file ran out (earlier files flow on gaplessly), or
            // one that queued none after it.
            if openNextAfterEnd() { return }
            ended = true
            wantsPlaying = false
            gst_element_set_state(playbin, GST_STATE_PAUSED)
            report(.paused)
            emit(.position(duration))
            emit(.ended)
        case GST_MESSAGE_ASYNC_DONE:
            if settling { asyncDone() }
        case GST_MESSAGE_STREAM_START:
            var groupID: guint = 0
            let group = gst_message_parse_group_id(message, &groupID) != 0 ? UInt32(groupID) : nil
            let switched = streaming.withLock { shared -> Bool in
                // The first stream of an open, or the same one started again
                // by a flushing seek: no move. (A start with no group id,
                // which playbin never posts, moves as before groups.)
                if let group {
                    let playing = shared.streamGroup
                    shared.streamGroup = group
                    guard let playing, group != playing else { return false }
                }
                guard !shared.queuedFileIndices.isEmpty else { return false }
                if shared.files.indices.contains(shared.fileIndex) {
                    shared.previousFileDuration = shared.files[shared.fileIndex].duration
                }
                shared.fileIndex = shared.queuedFileIndices.removeFirst()
                return true
            }
            if switched {
                // The new stream's segment was given the speed before
                // scaletempo; without scaletempo it starts at 1.
                appliedRate = retimesSegments ? rate : 1
                if appliedRate != rate, !settling { flushingSeek(to: 0) }
                emit(.position(currentPosition()))
                if let percent = queuedFileBuffering {
                    queuedFileBuffering = nil
                    buffered(percent)
                }
            }
        case GST_MESSAGE_BUFFERING:
            var percent: gint = 0
            gst_message_parse_buffering(message, &percent)
            // Once `about-to-finish` has queued the next file, the one
            // playing has been read to its end (its queue says 100 % from
            // then on): a lower level is the queued file's, filling while
            // this one plays on from what it has. It counts when that file
            // starts.
            if percent < 100, streaming.withLock({ !$0.queuedFileIndices.isEmpty }) {
                queuedFileBuffering = percent
                return
            }
            queuedFileBuffering = nil
            buffered(percent)
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

    /// A stream's buffering level: under 100 % the pipeline waits, paused,
    /// and at 100 % it goes on.
    private func buffered(_ percent: gint) {
        guard let playbin = playbin?.pointer else { return }
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
            guard let audioSink = audioSink?.pointer, let source = listenup_gst_message_source(message) else { return false }
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
