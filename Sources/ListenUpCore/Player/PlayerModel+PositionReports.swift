import Foundation

/// How often the engine reports the position: as rarely as what the player
/// and its watchers need allows.
extension PlayerModel {
    /// Tells the engine how often to report the position from now on.
    func updatePositionInterval() {
        engine?.setPositionInterval(positionReportInterval())
    }

    /// Four times a second over a sleep timer's fade, so the volume slides
    /// rather than steps; every second while someone watches the position
    /// move (a window on screen, a paired device following); otherwise only when the player's own work is next due: the
    /// position save (every 10 s), the end of the chapter (a span is cut
    /// there), the start of the sleep timer's fade.
    func positionReportInterval() -> Duration {
        let fadeLead = ListeningRules.sleepFadeMilliseconds + 2_000
        if let sleepRemaining, sleepRemaining <= fadeLead { return .milliseconds(250) }
        if isPositionWatched || hasRemoteFollowers { return PlaybackEngineDefaults.positionInterval }
        var due = Self.saveInterval
        if let lastSaved { due -= ContinuousClock.now - lastSaved.at }
        if let chapter, chapter.end > position {
            // Book milliseconds at the playing rate, and a little after the
            // boundary so the report lands in the next chapter.
            due = min(due, .milliseconds(Int64(Double(chapter.end - position) / max(rate, 0.5)) + 100))
        }
        if let sleepRemaining { due = min(due, .milliseconds(sleepRemaining - fadeLead)) }
        return max(due, .milliseconds(250))
    }

    /// Takes the engine's position now, when it is ahead of the last report:
    /// with nobody watching (a hidden window) reports come seconds apart, and
    /// a span closed on the last one would lose what played since.
    func catchUpPosition() {
        guard status == .playing, let engine, timeline != nil else { return }
        let now = engine.position
        guard now > position, let duration = nowPlaying?.duration, now <= duration else { return }
        position = now
        updateChapter()
    }
}
