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
        let newer: ListeningPosition? = switch (local, server) {
        case let (local?, server?): server.updatedAt > local.updatedAt ? server : local
        case let (local?, nil): local
        case let (nil, server?): server
        case (nil, nil): nil
        }
        guard var newer else { return nil }
        if newer.finished || (duration > 0 && newer.position >= duration - 1_000) { newer.position = 0 }
        newer.position = min(max(0, newer.position), max(0, duration))
        return newer
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
