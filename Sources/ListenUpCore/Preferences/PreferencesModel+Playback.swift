/// Preferences → Playback: the skip lengths, the default speed, sleep timer
/// and boost (the account's, on a server that keeps them), and "even out
/// loudness" (this device's).
extension PreferencesModel {
    /// The session's account preferences, or this device's settings when signed out.
    var preferencesSync: AccountPreferencesSync { navigator?.accountPreferences ?? localPreferences }

    /// The playback settings as kept now.
    public var playback: PlaybackSettings { preferencesSync.playback }

    /// Whether the server keeps them for all the user's devices (the window says so).
    public var playbackKeptOnServer: Bool { preferencesSync.keptOnServer }

    /// How far skip back goes, seconds.
    public var skipBackSeconds: Int { playback.skipBackSeconds }
    /// How far skip forward goes, seconds.
    public var skipForwardSeconds: Int { playback.skipForwardSeconds }

    /// Changes the skip lengths (5…300 s); the player takes them at once.
    public func setSkip(backSeconds: Int, forwardSeconds: Int) {
        changePlayback(AccountPreferencesChange(skipForwardSeconds: forwardSeconds, skipBackwardSeconds: backSeconds))
    }

    /// Changes the default speed (0.5…3.0), for books never played.
    public func setDefaultSpeed(_ rate: Double) {
        changePlayback(AccountPreferencesChange(defaultPlaybackSpeed: rate))
    }

    /// Changes the default boost (0…12 dB), for books never boosted.
    public func setDefaultVolumeBoost(_ decibels: Double) {
        changePlayback(AccountPreferencesChange(volumeBoostDb: decibels))
    }

    /// Sets the default sleep timer, minutes (1…480), or turns it off (nil;
    /// on today's server that stays on this device, addendum §8.4).
    public func setDefaultSleepTimer(minutes: Int?) {
        guard let minutes else {
            guard playback.defaultSleepTimerMinutes != nil else { return }
            do { try preferencesSync.turnOffDefaultSleepTimer() } catch { notice = tr("The playback settings could not be saved.") }
            return
        }
        changePlayback(AccountPreferencesChange(sleepTimerMinutes: minutes))
    }

    /// Turns "even out loudness" on or off (this device's setting).
    public func setEvenLoudness(_ on: Bool) {
        guard on != playback.evenLoudness else { return }
        do { try preferencesSync.setEvenLoudness(on) } catch { notice = tr("The playback settings could not be saved.") }
    }

    /// Sends the fields of `change` that differ from what is kept: to the
    /// server when it keeps them (its answer is kept; a failure says so in
    /// ``notice`` and the old values stay shown), else to the settings here.
    public func changePlayback(_ change: AccountPreferencesChange) {
        let current = playback
        let wanted = current.adopting(change.applied(to: current.accountPreferences))
        var changed = AccountPreferencesChange()
        if wanted.rate != current.rate { changed.defaultPlaybackSpeed = wanted.rate }
        if wanted.skipForwardSeconds != current.skipForwardSeconds { changed.skipForwardSeconds = wanted.skipForwardSeconds }
        if wanted.skipBackSeconds != current.skipBackSeconds { changed.skipBackwardSeconds = wanted.skipBackSeconds }
        if wanted.defaultSleepTimerMinutes != current.defaultSleepTimerMinutes { changed.sleepTimerMinutes = wanted.defaultSleepTimerMinutes }
        if wanted.defaultVolumeBoostDb != current.defaultVolumeBoostDb { changed.volumeBoostDb = wanted.defaultVolumeBoostDb }
        guard !changed.isEmpty else { return }
        let sync = preferencesSync
        guard sync.keptOnServer else {
            do { try sync.updateOnThisDevice(changed) } catch { notice = tr("The playback settings could not be saved.") }
            return
        }
        Task { [weak self] in
            do {
                try await sync.update(changed)
            } catch {
                guard let self else { return }
                self.playbackRefusals += 1
                self.notice = tr("The server did not take the change. Try again when it can be reached.")
            }
        }
    }
}
