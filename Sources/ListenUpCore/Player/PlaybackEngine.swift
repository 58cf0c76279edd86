import Foundation

/// What plays audio: one book (a ``PlaybackTimeline``) at a time.
///
/// The app's is GStreamer (`GStreamerEngine` in the `Playback` module);
/// models only see this protocol, so tests can script one. Every call may
/// come from any task and returns at once; what happens is reported through
/// ``events()``. Positions are book positions in milliseconds.
public protocol PlaybackEngine: AnyObject, Sendable {
    /// Loads `timeline` paused at `position` (replacing any book loaded).
    /// Reports ``PlaybackEngineEvent/status(_:)`` `.loading`, then `.paused`
    /// once the first audio is ready (or `.failed`).
    func load(_ timeline: PlaybackTimeline, at position: Int64)
    func play()
    func pause()
    /// Unloads the book and frees the audio output.
    func stop()
    /// Moves to `position` on the book timeline (across files), keeping the
    /// play or pause state. Reports the position reached.
    func seek(to position: Int64)
    /// Playback speed, pitch kept (0.5...3.0).
    func setRate(_ rate: Double)
    /// 0...1 (linear).
    func setVolume(_ volume: Double)
    /// The gain applied to the audio, in decibels: the volume boost plus
    /// the book's loudness correction (`normalizationGainDb`), which the
    /// caller adds up; 0 until set.
    ///
    /// Clamped to ``PlaybackEngineDefaults/gainRange`` (-24...+12 dB; not a
    /// number is 0 dB). 0 dB leaves the audio as it is; above 0 dB a
    /// limiter keeps every sample under full scale, and audio that the
    /// gain leaves well below full scale is only made louder, not
    /// reshaped. Takes effect on what plays next, while playing, without
    /// a reload, and holds for every later load, seek and file until set
    /// again. The volume (``setVolume(_:)``) applies after it.
    func setGain(decibels: Double)
    /// New headers for `http(s)` files (a refreshed Bearer token); used from
    /// the next request on.
    func setHeaders(_ headers: [String: String])
    /// How often ``PlaybackEngineEvent/position(_:)`` is reported while
    /// playing (``PlaybackEngineDefaults/positionInterval`` until set): each report wakes the
    /// model and its observers, so the player asks for more only when it
    /// needs them (a sleep timer's fade).
    func setPositionInterval(_ interval: Duration)
    /// The position now (a query, cheap enough to call a few times a second).
    var position: Int64 { get }
    /// Everything that happens, from now on, in order. One consumer.
    func events() -> AsyncStream<PlaybackEngineEvent>
}

extension PlaybackEngine {
    /// Engines that report on a clock of their own ignore it.
    public func setPositionInterval(_ interval: Duration) {}
}

/// What engines do unless told otherwise.
public enum PlaybackEngineDefaults {
    /// Position reports while playing: once a second, what the time labels
    /// show; a thin progress line moves by less than a pixel in between.
    public static let positionInterval: Duration = .seconds(1)

    /// The gains ``PlaybackEngine/setGain(decibels:)`` applies, in
    /// decibels: down to -24 (a loudness correction of a loud book) and up
    /// to +12 (the server's `VolumeBoostLimits` maximum).
    public static let gainRange: ClosedRange<Double> = -24...12
}

/// What an engine reports.
public enum PlaybackEngineEvent: Equatable, Sendable {
    case status(PlaybackEngineStatus)
    /// The position, every position interval while playing and after every
    /// seek or file change.
    case position(Int64)
    /// The end of the book was reached (the engine is paused at the end).
    case ended
}

public enum PlaybackEngineStatus: Equatable, Sendable {
    /// Nothing loaded.
    case idle
    /// Loading a book or seeking: no audio yet.
    case loading
    case playing
    case paused
    /// Playing, but waiting for data (`percent` of the buffer filled).
    case buffering(percent: Int)
    case failed(PlaybackFailure)
}

/// Why the engine stopped.
public struct PlaybackFailure: Error, Equatable, Sendable {
    public enum Kind: String, Equatable, Sendable {
        /// No audio output could be opened.
        case noAudioOutput
        /// The server refused the credentials (HTTP 401): refresh and retry.
        case unauthorized
        /// HTTP 403.
        case forbidden
        /// HTTP 404 (or a missing local file).
        case notFound
        /// The server could not be reached or the connection broke and could
        /// not be resumed.
        case network
        /// The audio could not be decoded (corrupt file, missing codec).
        case decode
        case other
    }

    public var kind: Kind
    /// For the log (never shown as is; never holds a token).
    public var detail: String
    /// Where the failure struck, on the book timeline.
    public var position: Int64?

    public init(_ kind: Kind, detail: String = "", position: Int64? = nil) {
        self.kind = kind
        self.detail = detail
        self.position = position
    }
}
