import CGStreamer
import Foundation
import GObjectOwnership
import ListenUpCore
import Logging

/// The gain (volume boost plus loudness correction) at the head of the
/// audio sink, with a limiter so a boosted book never clips.
///
/// The sink is one bin, `audioamplify ! rglimiter ! audioamplify !
/// audioconvert !` the output (autoaudiosink, or the bin a test or
/// `LISTENUP_AUDIO_SINK` names):
///
/// - **`audioamplify` (gain)** multiplies by the gain (over the ceiling
///   while limiting, see below), with its clipping off. The bin runs in
///   32-bit float (rglimiter takes nothing else), so a boosted sample may
///   go past 1.0 here without being cut: nothing is lost before the
///   limiter.
/// - **`rglimiter`** (GStreamer's ReplayGain limiter, plugins-good, the
///   element GStreamer pairs with a positive ReplayGain) leaves every
///   sample under 0.5 (-6 dBFS) exactly as it is and bends the ones above
///   along `0.5 + 0.5·tanh((x - 0.5) / 0.5)`, which never reaches 1.0
///   however loud the input. It works sample by sample (no attack, no
///   release, no pumping and no latency); the price is some softening of
///   the loudest peaks of a boosted book, which in speech are few.
/// - **`audioamplify` (ceiling)** scales the limiter's output by
///   ``GainStage/ceiling`` (-1 dBFS), the gain before it having been
///   divided by the same: below the knee the two cancel (the audio is
///   only the gain louder), and the loudest output stays a decibel under
///   full scale, so converting to 16 bits, resampling or a device's own
///   rounding cannot clip it either. The knee is then at -7 dBFS.
/// - **`audioconvert`** gives the output the format it takes, without
///   dither: at 0 dB a 16-bit book reaches a 16-bit output bit for bit.
///
/// Why in the sink and not in playbin's `audio-filter` (beside
/// `scaletempo`): playsink puts a queue of up to a second after the
/// filter, so a gain set there is heard a second late; after that queue
/// it is heard at the next buffer, like the volume. Why `audioamplify`
/// and not `volume`: playsink takes any element in the sink that has
/// GStreamer's stream-volume interface (`volume` has it) for the
/// player's volume control, which would then set the gain.
///
/// Why not `audiodynamic` (plugins-good's compressor): its curve has a
/// slope, not a bound, so a +12 dB boost of a full-scale peak needs a
/// ratio steep enough to flatten everything above the threshold, and its
/// hard knee is a corner in the waveform. No look-ahead limiter (LSP,
/// LADSPA, webrtcdsp) is among the packages the app requires.
///
/// At 0 dB and below the limiter is switched off (rglimiter's `enabled`:
/// its passthrough) and the ceiling is 1: a cut cannot make a sample
/// louder than it was. At 0 dB both factors are 1: the audio is the
/// book's own, bit for bit.
///
/// Made on the pipeline's queue when playbin is built (first play) and
/// used only there: not `Sendable`.
final class GainStage {
    /// What the three elements are set to for one gain.
    struct Settings: Equatable, Sendable {
        /// The first `audioamplify`'s factor: the gain, divided by
        /// `ceiling` while limiting.
        var gain: Double
        /// rglimiter's `enabled`.
        var limiting: Bool
        /// The last `audioamplify`'s factor.
        var ceiling: Double

        /// The settings for `decibels`, clamped to
        /// ``PlaybackEngineDefaults/gainRange``; not a number is 0 dB.
        init(decibels: Double) {
            let decibels = GainStage.clamp(decibels)
            let linear = pow(10, decibels / 20)
            if decibels > 0 {
                gain = linear / GainStage.ceiling
                limiting = true
                ceiling = GainStage.ceiling
            } else {
                gain = linear
                limiting = false
                ceiling = 1
            }
        }
    }

    /// The loudest the limiter lets out: -1 dBFS.
    static let ceiling = 0.891_250_938_133_745_6

    /// The element names inside the bin.
    private enum Name {
        static let gain = "listenup-gain"
        static let limiter = "listenup-limiter"
        static let ceiling = "listenup-ceiling"
    }

    /// The head of the sink bin, in `gst-launch` syntax; the output follows.
    static let head = "audioamplify name=\(Name.gain) clipping-method=none ! rglimiter name=\(Name.limiter) enabled=false "
        + "! audioamplify name=\(Name.ceiling) clipping-method=none ! audioconvert dithering=none"

    /// The output when no other is named: autoaudiosink.
    static let autoOutputName = "listenup-audio-output"

    /// `decibels` within ``PlaybackEngineDefaults/gainRange`` (not a
    /// number: 0).
    static func clamp(_ decibels: Double) -> Double {
        guard !decibels.isNaN else { return 0 }
        let range = PlaybackEngineDefaults.gainRange
        return min(max(decibels, range.lowerBound), range.upperBound)
    }

    private let logger: Logger
    /// The gain asked for last (kept across pipelines: a stop and the next
    /// load make a new playbin).
    private(set) var decibels: Double = 0
    private var applied: Settings?
    /// The three elements of the current bin, each with a reference.
    private var elements: (gain: OwnedElement, limiter: OwnedElement, ceiling: OwnedElement)?

    init(logger: Logger) {
        self.logger = logger
    }

    /// Records `decibels` and applies it to the bin, if there is one, from
    /// the next buffer on.
    func set(decibels: Double) {
        self.decibels = GainStage.clamp(decibels)
        apply()
    }

    /// autoaudiosink inside the sink bin (with a reference), when it is
    /// the output: which sink it chose tells whether there is audio.
    private(set) var autoOutput: OwnedElement?

    /// A new sink bin for playbin's `audio-sink` (floating, as
    /// `gst_element_factory_make` returns), set to the current gain, ending
    /// in `output` (a `gst-launch` description; nil: autoaudiosink). Nil
    /// when it cannot be made (the playbin then gets the output alone).
    func makeSink(output: String?) -> OpaquePointer? {
        release()
        let description = Self.head + " ! " + (output ?? "autoaudiosink name=\(Self.autoOutputName)")
        if let bin = makeBin(description, auto: output == nil) { return bin }
        logger.warning("The gain stage could not be made (audioamplify, rglimiter: gstreamer1.0-plugins-good): no boost")
        return nil
    }

    /// Lets the elements of the bin go (the pipeline is torn down).
    func release() {
        elements = nil
        autoOutput = nil
        applied = nil
    }

    private func makeBin(_ description: String, auto: Bool) -> OpaquePointer? {
        var error: UnsafeMutablePointer<GError>?
        let made = gst_parse_bin_from_description(description, 1, &error)
        let failed = error != nil
        if let error {
            logger.debug("Gain stage", metadata: ["reason": "\(String(cString: error.pointee.message))"])
            g_error_free(error)
        }
        guard let bin = made else { return nil }
        // Each with a reference of its own (transfer full).
        let gain = OwnedElement(taking: gst_bin_get_by_name(bin, Name.gain))
        let limiter = OwnedElement(taking: gst_bin_get_by_name(bin, Name.limiter))
        let ceiling = OwnedElement(taking: gst_bin_get_by_name(bin, Name.ceiling))
        let output = auto ? OwnedElement(taking: gst_bin_get_by_name(bin, Self.autoOutputName)) : nil
        guard !failed, let gain, let limiter, let ceiling, output != nil || !auto else {
            // Taken (so sunk: a floating object must not be finalised by an
            // unref) and let go at once, with the elements' references.
            _ = OwnedElement(taking: bin)
            return nil
        }
        elements = (gain, limiter, ceiling)
        autoOutput = output
        apply()
        return bin
    }

    /// Sets the elements in an order that never lets a sample out louder
    /// than the old or the new settings would (the streaming thread may
    /// process a buffer between two of the sets): the limiter is on
    /// before the gain rises, and off only after it has fallen.
    private func apply() {
        guard let elements else { return }
        let settings = Settings(decibels: decibels)
        guard settings != applied else { return }
        applied = settings
        if settings.limiting {
            listenup_gst_set_boolean(elements.limiter.pointer, "enabled", 1)
            listenup_gst_set_double(elements.ceiling.pointer, "amplification", settings.ceiling)
            listenup_gst_set_double(elements.gain.pointer, "amplification", settings.gain)
        } else {
            listenup_gst_set_double(elements.gain.pointer, "amplification", settings.gain)
            listenup_gst_set_double(elements.ceiling.pointer, "amplification", settings.ceiling)
            listenup_gst_set_boolean(elements.limiter.pointer, "enabled", 0)
        }
    }
}

@available(*, unavailable)
extension GainStage: Sendable {}
