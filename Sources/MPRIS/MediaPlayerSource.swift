import Foundation
import ListenUpCore

/// What the media controls show of a player, taken on the main actor and
/// read from the D-Bus thread.
public struct MediaState: Equatable, Sendable {
    public enum Status: String, Sendable {
        case playing = "Playing"
        case paused = "Paused"
        case stopped = "Stopped"
    }

    public var status: Status = .stopped
    public var bookID: String?
    public var title = ""
    public var authors: [String] = []
    public var album = ""
    /// Microseconds.
    public var length: Int64 = 0
    /// Microseconds, when the state was taken.
    public var position: Int64 = 0
    public var rate: Double = 1
    public var volume: Double = 1
    public var chapterIndex: Int?
    public var chapterCount = 0
    public var artURL: URL?

    public init() {}

    /// Whether anything is loaded.
    public var hasTrack: Bool { bookID != nil }
}

/// A player the media controls can show and drive: ``PlayerModel`` in the
/// app, a scripted one in tests.
@MainActor
public protocol MediaPlayerSource: AnyObject {
    /// The state now (read inside an observation: changes are tracked).
    var mediaState: MediaState { get }
    func send(_ intent: PlayerModel.Intent)
}

extension PlayerModel: MediaPlayerSource {
    public var mediaState: MediaState {
        var state = MediaState()
        switch status {
        case .playing, .buffering: state.status = .playing
        case .paused, .loading, .ended, .error: state.status = nowPlaying == nil ? .stopped : .paused
        case .idle, .stopped: state.status = .stopped
        }
        if let nowPlaying, status != .stopped, status != .idle {
            state.bookID = nowPlaying.bookID
            state.title = nowPlaying.title
            state.authors = nowPlaying.authors.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
            state.album = nowPlaying.title
            state.length = nowPlaying.duration * 1_000
            state.chapterCount = nowPlaying.chapters.count
        }
        state.position = position * 1_000
        state.rate = rate
        state.volume = volume
        state.chapterIndex = chapterIndex
        state.artURL = coverFile
        return state
    }
}
