import CGStreamer
import GObjectOwnership
import ListenUpCore
import Logging

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

extension ReferenceCounting {
    /// A `GstMiniObject` (a `GstMessage`): GStreamer's own count, which
    /// GObject's functions do not know. Only usable once GStreamer is loaded.
    static let gstMiniObject = ReferenceCounting(
        retain: { _ = gst_mini_object_ref($0.assumingMemoryBound(to: GstMiniObject.self)) },
        release: { gst_mini_object_unref($0.assumingMemoryBound(to: GstMiniObject.self)) }
    )
}

/// A bus message the engine holds (from the sync handler to the queue).
typealias OwnedMessage = OwnedReference<UnsafeMutablePointer<GstMessage>>
/// A GStreamer element, bin or bus the engine holds.
typealias OwnedElement = OwnedReference<OpaquePointer>
