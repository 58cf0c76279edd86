import Foundation

/// What the desktop app does when its window is closed while a book plays
/// (Preferences → General → Keep Playing When Closed, on by default): the
/// app keeps running without a window, the media controls and the media
/// keys keep working, and activating the app brings the window back. With
/// no window and nothing playing for ``idleGrace``, it quits (the player
/// saves the position and sends its spans on the way out, as at any quit).
///
/// The rules live here; `ListenUpApplication` hides the window and keeps
/// the time. Headless has no window and is unchanged.
public enum BackgroundPolicy {
    /// How long the app stays with no window and nothing playing.
    public static let idleGrace: Duration = .seconds(600)

    /// The idle grace, or `LISTENUP_IDLE_QUIT_SECONDS` in `environment`
    /// (tests shorten it; a value that is not a positive number is ignored).
    public static func idleGrace(environment: [String: String]) -> Duration {
        guard let text = environment["LISTENUP_IDLE_QUIT_SECONDS"], let seconds = Double(text), seconds > 0, seconds.isFinite else {
            return idleGrace
        }
        return .milliseconds(Int64(seconds * 1_000))
    }

    /// Whether closing the window now leaves the app running: the setting is
    /// on and `player` plays (or is about to).
    @MainActor
    public static func keepsRunningWhenClosed(setting: Bool, player: PlayerModel?) -> Bool {
        setting && player?.isPlayingOrStarting == true
    }

    /// The line the desktop shows for the app running in the background
    /// (the Background portal's status: one line, under 96 characters):
    /// the book, and the chapter when it has one.
    public static func statusLine(title: String, chapter: String?) -> String {
        let line = if let chapter, !chapter.isEmpty, chapter != title { "\(title) — \(chapter)" } else { title }
        guard line.count > maximumStatusLength else { return line }
        return String(line.prefix(maximumStatusLength - 1)) + "…"
    }

    /// The portal's limit on a status line (characters, exclusive).
    static let maximumStatusLength = 95
}

extension PlayerModel {
    /// Audio plays, or is on its way (loading or buffering after Play).
    public var isPlayingOrStarting: Bool {
        status == .playing || status == .buffering || (status == .loading && wantsToPlay)
    }
}
