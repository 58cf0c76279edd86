import Foundation
import Logging
import Observation

/// Keeps the account's playback preferences (default speed, skip lengths,
/// default sleep timer, default boost) in step between the server, the
/// settings and the player, for one signed-in session.
///
/// On a server that keeps them (``ServerConnection/keepsAccountPreferences``,
/// today's server) they are read when the library's live events connect
/// (at the start of the session and after each outage, as a change pushed
/// meanwhile was missed) and whenever the server says they changed
/// (`preferences.changed`); each answer is written into the settings, so
/// an offline start has them, and the player takes it at once. An edit is
/// sent to the server and what it answers (merged, clamped) is kept; a
/// failure keeps the old values and throws. On a server that keeps none
/// (REST v1) they are this device's settings alone, as always.
/// ``PlaybackSettings/evenLoudness`` is this device's on both.
///
/// Main actor; lives as long as the session's player (the navigator makes
/// both). After ``stop()`` nothing more is read or written.
@MainActor @Observable
public final class AccountPreferencesSync {
    /// The playback settings as kept now (the account's part included).
    public private(set) var playback: PlaybackSettings
    /// Whether the server keeps them for all the user's devices.
    public let keptOnServer: Bool

    @ObservationIgnored private let connection: (any ServerConnection)?
    @ObservationIgnored private let settings: SettingsClient
    @ObservationIgnored private let logger: Logger
    @ObservationIgnored private weak var player: PlayerModel?
    @ObservationIgnored private var reading: Task<Void, Never>?
    /// A read was asked for while one ran: it may have left before the change.
    @ObservationIgnored private var readAgain = false
    @ObservationIgnored private var stopped = false

    /// - Parameters:
    ///   - session: the signed-in session (nil: signed out or a preview; nothing is sent).
    ///   - player: told when the settings change.
    ///   - keptOnServer: what to say of where they are kept, instead of
    ///     asking the session's connection (previews show today's server;
    ///     with no session, changes are still saved here).
    public init(dependencies: Dependencies, session: Session?, player: PlayerModel?, keptOnServer: Bool? = nil) {
        connection = session?.connection
        settings = dependencies.settings
        logger = dependencies.logger
        self.player = player
        self.keptOnServer = keptOnServer ?? session?.connection.keepsAccountPreferences ?? false
        playback = dependencies.settings.load().playback
    }

    /// Reads the account's preferences from the server and keeps them (one
    /// read at a time; one asked for during a read runs after it). Does
    /// nothing on a server that keeps none. A failed read keeps what the
    /// settings hold.
    public func refresh() {
        guard keptOnServer, !stopped, let connection else { return }
        guard reading == nil else {
            readAgain = true
            return
        }
        reading = Task { [weak self, logger] in
            do throws(ServerError) {
                let answer = try await connection.accountPreferences()
                guard !Task.isCancelled, let answer else { return }
                self?.keep(answer)
            } catch {
                logger.debug("The account's preferences could not be read", metadata: ["code": "\(error.code)"])
            }
            guard let self else { return }
            self.reading = nil
            if self.readAgain, !Task.isCancelled {
                self.readAgain = false
                self.refresh()
            }
        }
    }

    /// Changes the account's preferences: on a server that keeps them it
    /// is told the fields `change` sets, and its answer is kept; otherwise
    /// the settings are changed here. Values are brought into the app's
    /// ranges first.
    /// - Throws: ``ServerError`` when the server could not be told (the
    ///   old values stay), ``SettingsError`` when the settings could not be saved.
    public func update(_ change: AccountPreferencesChange) async throws {
        guard !change.isEmpty else { return }
        let current = settings.load().playback
        let wanted = current.adopting(change.applied(to: current.accountPreferences))
        var clamped = change
        if change.defaultPlaybackSpeed != nil { clamped.defaultPlaybackSpeed = wanted.rate }
        if change.skipForwardSeconds != nil { clamped.skipForwardSeconds = wanted.skipForwardSeconds }
        if change.skipBackwardSeconds != nil { clamped.skipBackwardSeconds = wanted.skipBackSeconds }
        if change.sleepTimerMinutes != nil { clamped.sleepTimerMinutes = wanted.defaultSleepTimerMinutes }
        if change.volumeBoostDb != nil { clamped.volumeBoostDb = wanted.defaultVolumeBoostDb }
        if keptOnServer, let connection {
            guard let answer = try await connection.updateAccountPreferences(clamped) else { return }
            try save(settings.load().playback.adopting(answer))
        } else {
            try save(wanted)
        }
    }

    /// ``update(_:)`` where the server keeps none (REST v1, or signed out):
    /// the settings are changed here, at once.
    /// - Throws: ``SettingsError`` when the settings could not be saved.
    public func updateOnThisDevice(_ change: AccountPreferencesChange) throws {
        let current = settings.load().playback
        try save(current.adopting(change.applied(to: current.accountPreferences)))
    }

    /// Reads the settings again (another part of the app changed them).
    public func reload() {
        let saved = settings.load().playback
        if playback != saved { playback = saved }
    }

    /// Turns the default sleep timer off. Today's server cannot set it back
    /// to none (addendum §8.4), so this stays on this device: the next
    /// read from the server brings back the length it keeps.
    /// - Throws: ``SettingsError`` when the settings could not be saved.
    public func turnOffDefaultSleepTimer() throws {
        var next = settings.load().playback
        next.defaultSleepTimerMinutes = nil
        try save(next)
    }

    /// Turns "even out loudness" on or off (this device's setting).
    /// - Throws: ``SettingsError`` when the settings could not be saved.
    public func setEvenLoudness(_ on: Bool) throws {
        var next = settings.load().playback
        next.evenLoudness = on
        try save(next)
    }

    /// Stops reading (the session ended).
    public func stop() {
        stopped = true
        reading?.cancel()
        reading = nil
    }

    private func keep(_ account: AccountPreferences) {
        guard !stopped else { return }
        do {
            try save(settings.load().playback.adopting(account))
        } catch {
            logger.warning("The account's preferences could not be saved", metadata: ["reason": "\(error)"])
        }
    }

    /// Saves `next` as the playback settings (the rest of the settings as
    /// they are) and tells the player.
    private func save(_ next: PlaybackSettings) throws {
        var saved = settings.load()
        // The volume is the player's; keep the one saved last.
        let merged = PlaybackSettings(skipBackSeconds: next.skipBackSeconds, skipForwardSeconds: next.skipForwardSeconds,
                                      rate: next.rate, volume: saved.playback.volume,
                                      defaultSleepTimerMinutes: next.defaultSleepTimerMinutes,
                                      defaultVolumeBoostDb: next.defaultVolumeBoostDb, evenLoudness: next.evenLoudness)
        if saved.playback != merged {
            saved.playback = merged
            try settings.save(saved)
        }
        if playback != merged { playback = merged }
        player?.reloadSettings()
    }
}
