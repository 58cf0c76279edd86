/// The library passes on what its live events say of the account's
/// playback preferences (kept beside the player: ``AccountPreferencesSync``).
extension LibraryModel {
    /// The live events (re)connected or the server said the account's
    /// preferences changed: they are read again (on a server that keeps them).
    func accountPreferencesMayHaveChanged() {
        player?.accountPreferences?.refresh()
    }
}
