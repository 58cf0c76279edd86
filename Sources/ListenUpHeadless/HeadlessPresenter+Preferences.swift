import Foundation
import JSONToolkit
import ListenUpCore

/// The headless form of the account's playback preferences (signed in only):
///
/// - `{"action":"preferences"}` prints
///   `{"event":"preferences","preferences":{"defaultPlaybackSpeed","defaultSkipForwardSec",
///   "defaultSkipBackwardSec","defaultSleepTimerMin","defaultVolumeBoostDb","evenLoudness"}}`
///   (`defaultSleepTimerMin` is `null` for none);
/// - the same line is printed whenever they change (an edit here, or the
///   server's word that they changed on another device);
/// - `{"action":"setPreferences", …any of those fields}` changes them: on
///   a server that keeps them it is told, else they are saved here. A value
///   out of range is `badCommand`; a server that does not answer is an
///   `error` line with the connection's code (the old values stay).
extension HeadlessPresenter {
    /// The `preferences` line for `playback`.
    static func preferencesLine(_ playback: PlaybackSettings) -> JSONValue {
        ["event": "preferences", "preferences": [
            "defaultPlaybackSpeed": .number(playback.rate),
            "defaultSkipForwardSec": .number(Double(playback.skipForwardSeconds)),
            "defaultSkipBackwardSec": .number(Double(playback.skipBackSeconds)),
            "defaultSleepTimerMin": playback.defaultSleepTimerMinutes.map { .number(Double($0)) } ?? .null,
            "defaultVolumeBoostDb": .number(playback.defaultVolumeBoostDb),
            "evenLoudness": .bool(playback.evenLoudness),
        ]]
    }

    /// What a `setPreferences` that does not fit is told.
    static let preferencesUsage = "“setPreferences” takes defaultPlaybackSpeed (0.5–3), defaultSkipForwardSec and "
        + "defaultSkipBackwardSec (5–300), defaultSleepTimerMin (1–480 or null), defaultVolumeBoostDb (0–12) "
        + "and evenLoudness (true or false)."

    /// Carries out `preferences` or `setPreferences` (its values checked
    /// already: ``HeadlessCommand/PreferencesChange``).
    func handlePreferences(_ command: HeadlessCommand) {
        guard let sync = navigator.accountPreferences else {
            emitError(code: "notSignedIn", message: "Sign in to see the playback preferences.")
            return
        }
        guard case .setPreferences(let request) = command else {
            printPreferences(sync.playback, evenIfUnchanged: true)
            return
        }
        Task { [weak self, weak sync] in
            guard let sync else { return }
            do {
                if let on = request.evenLoudness { try sync.setEvenLoudness(on) }
                if request.sleepOff { try sync.turnOffDefaultSleepTimer() }
                try await sync.update(request.change)
                // Acknowledged even when nothing changed (a line for each command).
                self?.printPreferences(sync.playback, evenIfUnchanged: true)
            } catch let error as ServerError {
                self?.emitError(code: error.code, message: error.userMessage)
            } catch {
                self?.emitError(code: "settingsNotSaved", message: "The playback preferences could not be saved.")
            }
        }
    }

    /// The session's preferences appeared: a line on each change from
    /// now on (``printPreferences(_:evenIfUnchanged:)``), not for what
    /// they were.
    func preferencesReplaced(_ sync: AccountPreferencesSync?) {
        guard let sync else { return }
        lastPreferencesLine = Self.preferencesLine(sync.playback)
    }

    func printPreferences(_ playback: PlaybackSettings, evenIfUnchanged: Bool = false) {
        let line = Self.preferencesLine(playback)
        guard evenIfUnchanged || line != lastPreferencesLine else { return }
        lastPreferencesLine = line
        emit(line)
    }
}
