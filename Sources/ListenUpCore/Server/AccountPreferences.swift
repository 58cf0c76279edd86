import Foundation

/// The account's playback preferences, as the app speaks of them: the
/// defaults a server keeps for all of a user's devices (today's server's
/// `UserPreferencesService`, addendum §1.7). A server that keeps none
/// (REST v1, the Go server) leaves them on this device, in the settings.
///
/// A value; the protocol's DTOs never reach the core.
public struct AccountPreferences: Equatable, Sendable {
    /// The speed a book never played starts at.
    public var defaultPlaybackSpeed: Double
    /// How far skip forward goes, seconds.
    public var skipForwardSeconds: Int
    /// How far skip back goes, seconds.
    public var skipBackwardSeconds: Int
    /// The sleep timer's default length, minutes; nil for none.
    public var sleepTimerMinutes: Int?
    /// The volume boost a book never boosted starts with, dB.
    public var volumeBoostDb: Double

    /// Creates preferences; each parameter sets the property of the same name.
    public init(defaultPlaybackSpeed: Double = 1, skipForwardSeconds: Int = 30, skipBackwardSeconds: Int = 10,
                sleepTimerMinutes: Int? = nil, volumeBoostDb: Double = 0) {
        self.defaultPlaybackSpeed = defaultPlaybackSpeed
        self.skipForwardSeconds = skipForwardSeconds
        self.skipBackwardSeconds = skipBackwardSeconds
        self.sleepTimerMinutes = sleepTimerMinutes
        self.volumeBoostDb = volumeBoostDb
    }
}

/// A change to ``AccountPreferences``: only the fields set change (PATCH).
public struct AccountPreferencesChange: Equatable, Sendable {
    /// A new default speed, or nil.
    public var defaultPlaybackSpeed: Double?
    /// A new skip forward, seconds, or nil.
    public var skipForwardSeconds: Int?
    /// A new skip back, seconds, or nil.
    public var skipBackwardSeconds: Int?
    /// A new default sleep timer, minutes, or nil. Today's server cannot set
    /// it back to none (addendum §8.4): turning it off stays on this device.
    public var sleepTimerMinutes: Int?
    /// A new default boost, dB, or nil.
    public var volumeBoostDb: Double?

    /// Creates a change; each parameter sets the property of the same name (nil: unchanged).
    public init(defaultPlaybackSpeed: Double? = nil, skipForwardSeconds: Int? = nil, skipBackwardSeconds: Int? = nil,
                sleepTimerMinutes: Int? = nil, volumeBoostDb: Double? = nil) {
        self.defaultPlaybackSpeed = defaultPlaybackSpeed
        self.skipForwardSeconds = skipForwardSeconds
        self.skipBackwardSeconds = skipBackwardSeconds
        self.sleepTimerMinutes = sleepTimerMinutes
        self.volumeBoostDb = volumeBoostDb
    }

    /// Whether it changes nothing.
    public var isEmpty: Bool { self == AccountPreferencesChange() }

    /// `preferences` with this change applied, unclamped.
    public func applied(to preferences: AccountPreferences) -> AccountPreferences {
        AccountPreferences(defaultPlaybackSpeed: defaultPlaybackSpeed ?? preferences.defaultPlaybackSpeed,
                           skipForwardSeconds: skipForwardSeconds ?? preferences.skipForwardSeconds,
                           skipBackwardSeconds: skipBackwardSeconds ?? preferences.skipBackwardSeconds,
                           sleepTimerMinutes: sleepTimerMinutes ?? preferences.sleepTimerMinutes,
                           volumeBoostDb: volumeBoostDb ?? preferences.volumeBoostDb)
    }
}
