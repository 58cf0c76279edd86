import CAdwaita
import Foundation
import GtkBridge
import ListenUpCore

/// Preferences → Playback: Skip Back and Skip Forward, Default Speed,
/// Default Sleep Timer (off, or minutes), Default Volume Boost and Even Out
/// Loudness. On a server that keeps the account's preferences the group
/// says they are kept there for all the user's devices; a change the
/// server does not take is a toast (the window's) and the kept value comes
/// back into the row.
///
/// Follows ``PreferencesModel/playback`` with an observation of its own;
/// a row is set only when its value differs, so setting it never sends
/// the same value back.
@MainActor
final class PlaybackGroup {
    /// The `AdwPreferencesGroup`.
    var widget: UnsafeMutablePointer<GtkWidget> { group.pointer }
    private let group: PreferencesGroup
    private let model: PreferencesModel
    let skipBack: SpinButton, skipForward: SpinButton, speed: SpinButton, sleepMinutes: SpinButton, boost: SpinButton
    let sleepSwitch: Switch, loudness: Switch
    private var connections: [SignalConnection] = []
    private var observation: StateObservation?
    /// True while the rows are being set from the model (their signals are not the user's).
    private var following = false

    /// - Parameter template: the preferences window's, which holds the
    ///   group; the ranges are the core's rules, set here.
    init(model: PreferencesModel, template: Template) {
        self.model = model
        group = template.child("playback")
        (skipBack, skipForward, speed) = (template.child("skip-back"), template.child("skip-forward"), template.child("default-speed"))
        (sleepMinutes, boost) = (template.child("sleep-minutes"), template.child("default-boost"))
        (sleepSwitch, loudness) = (template.child("sleep-switch"), template.child("even-loudness"))
        let playback = model.playback
        let skips = Double(PlaybackSettings.skipRange.lowerBound)...Double(PlaybackSettings.skipRange.upperBound)
        skipBack.configure(range: skips, step: 5, digits: 0, value: Double(playback.skipBackSeconds))
        skipForward.configure(range: skips, step: 5, digits: 0, value: Double(playback.skipForwardSeconds))
        speed.configure(range: PlaybackSettings.rateRange, step: 0.05, digits: 2, value: playback.rate)
        sleepMinutes.configure(range: Double(PlaybackSettings.sleepTimerRange.lowerBound)...Double(PlaybackSettings.sleepTimerRange.upperBound),
                               step: 5, digits: 0, value: Double(playback.defaultSleepTimerMinutes ?? 30))
        boost.configure(range: ListeningRules.boostRange, step: 0.5, digits: 1, value: playback.defaultVolumeBoostDb)

        for spin in [skipBack, skipForward] {
            connections.append(spin.connect(.valueChanged) { [weak self] in
                guard let self, !self.following else { return }
                self.model.setSkip(backSeconds: Int(self.skipBack.value), forwardSeconds: Int(self.skipForward.value))
            })
        }
        connections.append(speed.connect(.valueChanged) { [weak self] in
            guard let self, !self.following else { return }
            self.model.setDefaultSpeed(self.speed.value)
        })
        connections.append(boost.connect(.valueChanged) { [weak self] in
            guard let self, !self.following else { return }
            self.model.setDefaultVolumeBoost(self.boost.value)
        })
        connections.append(sleepMinutes.connect(.valueChanged) { [weak self] in self?.sleepChanged() })
        connections.append(sleepSwitch.connect(.notify("active")) { [weak self] in self?.sleepChanged() })
        connections.append(loudness.connect(.notify("active")) { [weak self] in
            guard let self, !self.following else { return }
            self.model.setEvenLoudness(self.loudness.isOn)
        })
        observation = StateObservation { [weak self] in self?.follow() }
    }

    /// Ends the observation and the signals (the window closed).
    func teardown() {
        observation?.cancel()
        observation = nil
        connections.removeAll()
    }

    private func sleepChanged() {
        guard !following else { return }
        sleepMinutes.isSensitive = sleepSwitch.isOn
        model.setDefaultSleepTimer(minutes: sleepSwitch.isOn ? Int(sleepMinutes.value) : nil)
    }

    private func follow() {
        let playback = model.playback
        _ = model.playbackRefusals  // a refused change: show the kept values again
        group.groupDescription = model.playbackKeptOnServer ? tr("Kept on your server for all your devices.") : nil
        following = true
        defer { following = false }
        skipBack.show(Double(playback.skipBackSeconds))
        skipForward.show(Double(playback.skipForwardSeconds))
        speed.show(playback.rate)
        boost.show(playback.defaultVolumeBoostDb)
        if let minutes = playback.defaultSleepTimerMinutes { sleepMinutes.show(Double(minutes)) }
        sleepSwitch.isOn = playback.defaultSleepTimerMinutes != nil
        sleepMinutes.isSensitive = playback.defaultSleepTimerMinutes != nil
        loudness.isOn = playback.evenLoudness
    }
}
