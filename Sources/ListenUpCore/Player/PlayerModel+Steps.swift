/// The window's keys for the volume and the speed: ↑/↓ move the volume by
/// the volume slider's 5 % steps, +/− the speed by the speed field's 0.05×
/// steps (from a value between steps, to the next one), and M mutes and
/// brings the volume back.
extension PlayerModel {
    /// Steps per unit of the volume (5 %) and of the speed (0.05×).
    static let stepsPerUnit = 20.0

    /// The volume `steps` steps up (negative: down), within 0...1.
    ///
    /// Main actor.
    public func volume(steppedBy steps: Int) -> Double {
        min(max(Self.stepped(volume, by: steps), 0), 1)
    }

    /// The speed `steps` steps up (negative: down), within 0.5...3.
    ///
    /// Main actor.
    public func rate(steppedBy steps: Int) -> Double {
        PlaybackSettings.normalizedRate(Self.stepped(rate, by: steps))
    }

    /// `value` moved `steps` steps along the grid of ``stepsPerUnit``: a
    /// value between two steps goes to the next one in that direction.
    private static func stepped(_ value: Double, by steps: Int, nudge: Double = 1e-6) -> Double {
        let scaled = value * stepsPerUnit
        let base = if steps > 0 { (scaled + nudge).rounded(.down) } else if steps < 0 { (scaled - nudge).rounded(.up) } else { scaled.rounded() }
        return (base + Double(steps)) / stepsPerUnit
    }

    /// Volume 0, remembering the volume; again (or from 0 by any means),
    /// back to the volume remembered (full volume when there is none).
    func toggleMute() {
        if volume > 0 {
            let before = volume
            changeVolume(0)
            volumeBeforeMute = before
        } else {
            let back = volumeBeforeMute ?? 1
            volumeBeforeMute = nil
            changeVolume(back)
        }
    }
}
