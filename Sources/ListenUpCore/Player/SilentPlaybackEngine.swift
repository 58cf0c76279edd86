import Foundation

/// The engine of previews and of tests that do not play: it has no audio
/// output, and says so (``PlaybackFailure/Kind/noAudioOutput``) when asked
/// to load a book.
public final class SilentPlaybackEngine: PlaybackEngine {
    private let continuation: AsyncStream<PlaybackEngineEvent>.Continuation
    private let stream: AsyncStream<PlaybackEngineEvent>

    public init() {
        (stream, continuation) = AsyncStream.makeStream()
    }

    public func load(_ timeline: PlaybackTimeline, at position: Int64) {
        continuation.yield(.status(.failed(PlaybackFailure(.noAudioOutput, detail: "no audio engine in this build", position: position))))
    }

    public func play() {}
    public func pause() {}
    public func stop() { continuation.yield(.status(.idle)) }
    public func seek(to position: Int64) {}
    public func setRate(_ rate: Double) {}
    public func setVolume(_ volume: Double) {}
    public func setGain(decibels: Double) {}
    public func setHeaders(_ headers: [String: String]) {}
    public var position: Int64 { 0 }
    public func events() -> AsyncStream<PlaybackEngineEvent> { stream }
}
