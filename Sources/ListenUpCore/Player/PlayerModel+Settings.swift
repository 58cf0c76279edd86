/// What the player takes from the playback settings (Preferences, or the
/// account's preferences the server keeps).
extension PlayerModel {
    /// The playback settings changed (Preferences, or the account's
    /// preferences read from the server): the skip lengths, the default
    /// sleep timer and loudness take effect at once; the default speed and
    /// boost apply to the next book never played (``adopt(_:)`` reads them),
    /// never to the book loaded, which keeps its own.
    ///
    /// Main actor.
    public func reloadSettings() {
        let settings = dependencies.settings.load().playback
        if skipBackSeconds != settings.skipBackSeconds { skipBackSeconds = settings.skipBackSeconds }
        if skipForwardSeconds != settings.skipForwardSeconds { skipForwardSeconds = settings.skipForwardSeconds }
        if defaultSleepTimerMinutes != settings.defaultSleepTimerMinutes { defaultSleepTimerMinutes = settings.defaultSleepTimerMinutes }
        if evenLoudness != settings.evenLoudness {
            evenLoudness = settings.evenLoudness
            applyGain()
        }
    }
}
