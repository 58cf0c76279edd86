import Foundation

/// The listening rules of the player, as pure functions (tested alone).
public enum ListeningRules {
    /// How far back to go when playback resumes after a pause of `pause`:
    /// nothing after a blink (under a second: a double press), 3 s after a
    /// short pause, 15 s after an hour, 30 s after a day.
    public static func rewind(afterPause pause: TimeInterval) -> Int64 {
        switch pause {
        case ..<1: 0
        case ..<3_600: 3_000
        case ..<86_400: 15_000
        default: 30_000
        }
    }

    /// Where to start a book: the newer of this device's position and the
    /// server's (a finished book, or one at its very end, starts over).
    public static func resumePoint(local: ListeningPosition?, server: ListeningPosition?, duration: Int64) -> ListeningPosition? {
        guard var newer = newer(local: local, server: server) else { return nil }
        if newer.finished || (duration > 0 && newer.position >= duration - 1_000) { newer.position = 0 }
        newer.position = min(max(0, newer.position), max(0, duration))
        return newer
    }

    /// The newer of this device's row and the server's (by when it was
    /// listened, `lastPlayedAt`; a tie keeps this device's, as the server
    /// keeps the stored row on a tie).
    public static func newer(local: ListeningPosition?, server: ListeningPosition?) -> ListeningPosition? {
        switch (local, server) {
        case let (local?, server?): server.updatedAt > local.updatedAt ? server : local
        case let (local?, nil): local
        case let (nil, server?): server
        case (nil, nil): nil
        }
    }

    /// The volume boost range, dB (today's server's `VolumeBoostLimits`).
    public static let boostRange = 0.0...12.0

    /// `decibels` inside ``boostRange``, on a 0.5 dB step (0 when not a number).
    public static func boost(_ decibels: Double) -> Double {
        guard decibels.isFinite else { return 0 }
        return min(max((decibels * 2).rounded() / 2, boostRange.lowerBound), boostRange.upperBound)
    }

    /// "Previous chapter": back to the start of the chapter playing when
    /// more than 3 s into it, otherwise to the chapter before.
    public static func previousChapterTarget(chapters: [PlaybackTimeline.Chapter], position: Int64) -> Int64 {
        guard let index = chapters.lastIndex(where: { $0.start <= position }) else { return 0 }
        if position - chapters[index].start > 3_000 || index == 0 { return chapters[index].start }
        return chapters[index - 1].start
    }

    /// How long a sleep timer fades out at its end.
    public static let sleepFadeMilliseconds: Int64 = 10_000

    /// The volume factor of a sleep timer with `remaining` milliseconds
    /// (of listening) left: 1 until the last 10 s, then down to 0.
    public static func sleepFade(remaining: Int64) -> Double {
        min(1, max(0, Double(remaining) / Double(sleepFadeMilliseconds)))
    }

    /// A span is worth sending when it moved forward.
    public static func isWorthSending(start: Int64, end: Int64) -> Bool {
        end > start
    }
}
