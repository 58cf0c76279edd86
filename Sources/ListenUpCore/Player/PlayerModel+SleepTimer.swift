import Foundation

/// The sleep timer: set, counted down in listening time (held while
/// paused), and the fade over its last seconds, applied with the volume.
extension PlayerModel {
    func setSleepTimer(_ timer: SleepTimer?) {
        sleepTimer = timer
        switch timer {
        case .minutes(let minutes)?:
            let total = Int64(max(1, minutes)) * 60_000
            sleepDeadline = ContinuousClock.now + .milliseconds(total)
            sleepRemaining = total
        case .endOfChapter?:
            sleepDeadline = nil
            sleepChapterEnd = chapter?.end ?? nowPlaying?.duration
            sleepRemaining = chapterRemainingAtRate
        case nil:
            sleepDeadline = nil
            sleepRemaining = nil
        }
        applyVolume()
        updatePositionInterval()
    }

    /// What is left of the chapter that was playing when the timer was
    /// set, in listening time.
    private var chapterRemainingAtRate: Int64 {
        let end = sleepChapterEnd ?? position
        return Int64((Double(max(0, end - position)) / max(rate, 0.5)).rounded())
    }

    /// Counts the sleep timer down (called on every position report while
    /// playing); fades out over its last 10 s, then pauses.
    func tickSleepTimer() {
        guard let sleepTimer else { return }
        switch sleepTimer {
        case .minutes:
            guard let sleepDeadline else { return }
            let left = sleepDeadline - ContinuousClock.now
            sleepRemaining = max(0, Int64(left.milliseconds))
        case .endOfChapter:
            sleepRemaining = chapterRemainingAtRate
        }
        applyVolume()
        if let sleepRemaining, sleepRemaining <= 0 {
            dependencies.logger.info("Sleep timer: paused")
            pause()
            setSleepTimer(nil)
        }
    }

    /// The sleep timer stops counting while paused: it is listening time.
    func holdSleepTimer() {
        guard case .minutes = sleepTimer, let sleepRemaining else { return }
        sleepDeadline = nil
        self.sleepRemaining = sleepRemaining
    }

    func restartSleepTimer() {
        guard case .minutes = sleepTimer, sleepDeadline == nil, let sleepRemaining else { return }
        sleepDeadline = ContinuousClock.now + .milliseconds(sleepRemaining)
    }

    func applyVolume() {
        let fade = sleepRemaining.map(ListeningRules.sleepFade(remaining:)) ?? 1
        engine?.setVolume(volume * fade)
    }
}
