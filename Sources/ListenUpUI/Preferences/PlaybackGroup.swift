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
    let widget: UnsafeMutablePointer<GtkWidget>
    private let model: PreferencesModel
    let skipBack: UnsafeMutablePointer<GtkWidget>
    let skipForward: UnsafeMutablePointer<GtkWidget>
    let speed: UnsafeMutablePointer<GtkWidget>
    let sleepSwitch: UnsafeMutablePointer<GtkWidget>
    let sleepMinutes: UnsafeMutablePointer<GtkWidget>
    let boost: UnsafeMutablePointer<GtkWidget>
    let loudness: UnsafeMutablePointer<GtkWidget>
    private var connections: [SignalConnection] = []
    private var observation: StateObservation?
    /// True while the rows are being set from the model (their signals are not the user's).
    private var following = false

    init(model: PreferencesModel) {
        self.model = model
        widget = newObject(adw_preferences_group_new())
        adw_preferences_group_set_title(widget.cast(to: AdwPreferencesGroup.self), tr("Playback"))
        let playback = model.playback
        skipBack = Self.spin(range: Double(PlaybackSettings.skipRange.lowerBound)...Double(PlaybackSettings.skipRange.upperBound),
                             step: 5, digits: 0, value: Double(playback.skipBackSeconds))
        skipForward = Self.spin(range: Double(PlaybackSettings.skipRange.lowerBound)...Double(PlaybackSettings.skipRange.upperBound),
                                step: 5, digits: 0, value: Double(playback.skipForwardSeconds))
        speed = Self.spin(range: PlaybackSettings.rateRange, step: 0.05, digits: 2, value: playback.rate)
        sleepMinutes = Self.spin(range: Double(PlaybackSettings.sleepTimerRange.lowerBound)...Double(PlaybackSettings.sleepTimerRange.upperBound),
                                 step: 5, digits: 0, value: Double(playback.defaultSleepTimerMinutes ?? 30))
        sleepSwitch = newObject(gtk_switch_new())
        boost = Self.spin(range: ListeningRules.boostRange, step: 0.5, digits: 1, value: playback.defaultVolumeBoostDb)
        loudness = newObject(gtk_switch_new())

        add(tr("Skip Back"), subtitle: tr("Seconds"), skipBack)
        add(tr("Skip Forward"), subtitle: tr("Seconds"), skipForward)
        add(tr("Default Speed"), subtitle: tr("For books not played yet"), speed)
        add(tr("Default Sleep Timer"), subtitle: tr("Minutes, when the timer is on"), sleepMinutes, sleepSwitch)
        add(tr("Default Volume Boost"), subtitle: tr("Decibels, for books not boosted yet"), boost)
        let loudnessRow = add(tr("Even Out Loudness"), subtitle: tr("Levels books recorded at different volumes"), loudness)
        adw_action_row_set_activatable_widget(loudnessRow.cast(to: AdwActionRow.self), loudness)

        for spin in [skipBack, skipForward] {
            connections.append(spin.connect(.valueChanged) { [weak self] in
                guard let self, !self.following else { return }
                self.model.setSkip(backSeconds: Int(gtk_spin_button_get_value(self.skipBack.opaque)),
                                   forwardSeconds: Int(gtk_spin_button_get_value(self.skipForward.opaque)))
            })
        }
        connections.append(speed.connect(.valueChanged) { [weak self] in
            guard let self, !self.following else { return }
            self.model.setDefaultSpeed(gtk_spin_button_get_value(self.speed.opaque))
        })
        connections.append(boost.connect(.valueChanged) { [weak self] in
            guard let self, !self.following else { return }
            self.model.setDefaultVolumeBoost(gtk_spin_button_get_value(self.boost.opaque))
        })
        connections.append(sleepMinutes.connect(.valueChanged) { [weak self] in self?.sleepChanged() })
        connections.append(sleepSwitch.connect(.notify("active")) { [weak self] in self?.sleepChanged() })
        connections.append(loudness.connect(.notify("active")) { [weak self] in
            guard let self, !self.following else { return }
            self.model.setEvenLoudness(gtk_switch_get_active(self.loudness.opaque) != 0)
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
        let on = gtk_switch_get_active(sleepSwitch.opaque) != 0
        gtk_widget_set_sensitive(sleepMinutes, on ? 1 : 0)
        model.setDefaultSleepTimer(minutes: on ? Int(gtk_spin_button_get_value(sleepMinutes.opaque)) : nil)
    }

    private func follow() {
        let playback = model.playback
        _ = model.playbackRefusals  // a refused change: show the kept values again
        let description = model.playbackKeptOnServer ? tr("Kept on your server for all your devices.") : nil
        adw_preferences_group_set_description(widget.cast(to: AdwPreferencesGroup.self), description)
        following = true
        defer { following = false }
        Self.set(skipBack, Double(playback.skipBackSeconds))
        Self.set(skipForward, Double(playback.skipForwardSeconds))
        Self.set(speed, playback.rate)
        Self.set(boost, playback.defaultVolumeBoostDb)
        if let minutes = playback.defaultSleepTimerMinutes { Self.set(sleepMinutes, Double(minutes)) }
        let on: gboolean = playback.defaultSleepTimerMinutes == nil ? 0 : 1
        if gtk_switch_get_active(sleepSwitch.opaque) != on { gtk_switch_set_active(sleepSwitch.opaque, on) }
        gtk_widget_set_sensitive(sleepMinutes, on)
        let even: gboolean = playback.evenLoudness ? 1 : 0
        if gtk_switch_get_active(loudness.opaque) != even { gtk_switch_set_active(loudness.opaque, even) }
    }

    @discardableResult
    private func add(_ title: String, subtitle: String, _ suffixes: UnsafeMutablePointer<GtkWidget>...) -> UnsafeMutablePointer<GtkWidget> {
        let row = newObject(adw_action_row_new())
        adw_preferences_row_set_title(row.cast(to: AdwPreferencesRow.self), title)
        adw_action_row_set_subtitle(row.cast(to: AdwActionRow.self), subtitle)
        for suffix in suffixes {
            gtk_widget_set_valign(suffix, GTK_ALIGN_CENTER)
            suffix.setAccessibleLabel(title)
            adw_action_row_add_suffix(row.cast(to: AdwActionRow.self), suffix)
        }
        adw_preferences_group_add(widget.cast(to: AdwPreferencesGroup.self), row)
        return row
    }

    private static func spin(range: ClosedRange<Double>, step: Double, digits: UInt32, value: Double) -> UnsafeMutablePointer<GtkWidget> {
        let spin = newObject(gtk_spin_button_new_with_range(range.lowerBound, range.upperBound, step))
        gtk_spin_button_set_digits(spin.opaque, digits)
        gtk_spin_button_set_value(spin.opaque, value)
        return spin
    }

    private static func set(_ spin: UnsafeMutablePointer<GtkWidget>, _ value: Double) {
        if abs(gtk_spin_button_get_value(spin.opaque) - value) > 0.001 { gtk_spin_button_set_value(spin.opaque, value) }
    }
}
