/// `UserPreferencesService.getMyPreferences()` and
/// `updateMyPreferences(request)`'s result (addendum §1.7): the account's
/// playback preferences, kept by the server for every device of the user.
///
/// Upstream: `contract/.../api/dto/preferences/UserPreferencesDtos.kt`
/// (`@SerialName("UserPreferencesDto")`). Kotlin omits the defaulted
/// `defaultSleepTimerMin` when null and `defaultVolumeBoostDb` when 0
/// (`encodeDefaults = false`, §1.4); this type decodes them as such and
/// encodes the same way (for the demo server).
public struct UserPreferencesDto: Codable, Sendable, Equatable {
    /// The speed of a book never played (a Kotlin `Float`; the server keeps 0.5…4.0).
    public var defaultPlaybackSpeed: Double
    /// Skip forward, seconds (the server keeps 5…300).
    public var defaultSkipForwardSec: Int
    /// Skip back, seconds (the server keeps 5…300).
    public var defaultSkipBackwardSec: Int
    /// The sleep timer's default length, minutes (1…480), or nil for none (default nil).
    public var defaultSleepTimerMin: Int?
    /// Whether shaking the phone restarts the sleep timer (a phone's setting; kept, not used here).
    public var shakeToResetSleepTimer: Bool
    /// The volume boost of a book never boosted, dB (0…12, default 0).
    public var defaultVolumeBoostDb: Double

    /// The server's values for a user who never set any
    /// (`UserPreferencesServiceImpl.defaults()`: 1.0, 30, 10, null, false, 0).
    public static let serverDefaults = UserPreferencesDto(defaultPlaybackSpeed: 1, defaultSkipForwardSec: 30,
                                                          defaultSkipBackwardSec: 10, shakeToResetSleepTimer: false)

    /// Creates preferences; each parameter sets the property of the same name.
    public init(defaultPlaybackSpeed: Double, defaultSkipForwardSec: Int, defaultSkipBackwardSec: Int,
                defaultSleepTimerMin: Int? = nil, shakeToResetSleepTimer: Bool, defaultVolumeBoostDb: Double = 0) {
        self.defaultPlaybackSpeed = defaultPlaybackSpeed
        self.defaultSkipForwardSec = defaultSkipForwardSec
        self.defaultSkipBackwardSec = defaultSkipBackwardSec
        self.defaultSleepTimerMin = defaultSleepTimerMin
        self.shakeToResetSleepTimer = shakeToResetSleepTimer
        self.defaultVolumeBoostDb = defaultVolumeBoostDb
    }

    private enum CodingKeys: String, CodingKey {
        case defaultPlaybackSpeed, defaultSkipForwardSec, defaultSkipBackwardSec, defaultSleepTimerMin, shakeToResetSleepTimer,
             defaultVolumeBoostDb
    }

    /// Decodes preferences, filling the Kotlin defaults of omitted fields.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(defaultPlaybackSpeed: try c.decode(Double.self, forKey: .defaultPlaybackSpeed),
                  defaultSkipForwardSec: try c.decode(Int.self, forKey: .defaultSkipForwardSec),
                  defaultSkipBackwardSec: try c.decode(Int.self, forKey: .defaultSkipBackwardSec),
                  defaultSleepTimerMin: try c.decodeIfPresent(Int.self, forKey: .defaultSleepTimerMin),
                  shakeToResetSleepTimer: try c.decode(Bool.self, forKey: .shakeToResetSleepTimer),
                  defaultVolumeBoostDb: try c.decode(.defaultVolumeBoostDb, default: 0))
    }

    /// Writes the fields in declaration order, omitting the two defaulted
    /// ones at their defaults, as kotlinx does.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(defaultPlaybackSpeed, forKey: .defaultPlaybackSpeed)
        try c.encode(defaultSkipForwardSec, forKey: .defaultSkipForwardSec)
        try c.encode(defaultSkipBackwardSec, forKey: .defaultSkipBackwardSec)
        try c.encodeIfPresent(defaultSleepTimerMin, forKey: .defaultSleepTimerMin)
        try c.encode(shakeToResetSleepTimer, forKey: .shakeToResetSleepTimer)
        if defaultVolumeBoostDb != 0 { try c.encode(defaultVolumeBoostDb, forKey: .defaultVolumeBoostDb) }
    }
}

/// `updateMyPreferences(request)`'s argument (addendum §1.7): PATCH
/// semantics, a nil (omitted) field means "unchanged". The server merges
/// the rest onto the stored row and clamps it (speed 0.5…4.0, skips
/// 5…300, sleep timer 1…480, boost 0…12); it cannot set the sleep timer
/// back to none (addendum §8.4).
///
/// Upstream: `UpdateUserPreferencesRequest` in `UserPreferencesDtos.kt`.
/// Encodes only the fields that are set, as kotlinx does for `T? = null`.
public struct UpdateUserPreferencesRequest: Codable, Sendable, Equatable {
    /// A new default speed, or nil.
    public var defaultPlaybackSpeed: Double?
    /// A new skip forward, seconds, or nil.
    public var defaultSkipForwardSec: Int?
    /// A new skip back, seconds, or nil.
    public var defaultSkipBackwardSec: Int?
    /// A new sleep timer length, minutes, or nil.
    public var defaultSleepTimerMin: Int?
    /// A new shake-to-reset, or nil.
    public var shakeToResetSleepTimer: Bool?
    /// A new default boost, dB, or nil.
    public var defaultVolumeBoostDb: Double?

    /// Creates a request; each parameter sets the property of the same name (nil: unchanged).
    public init(defaultPlaybackSpeed: Double? = nil, defaultSkipForwardSec: Int? = nil, defaultSkipBackwardSec: Int? = nil,
                defaultSleepTimerMin: Int? = nil, shakeToResetSleepTimer: Bool? = nil, defaultVolumeBoostDb: Double? = nil) {
        self.defaultPlaybackSpeed = defaultPlaybackSpeed
        self.defaultSkipForwardSec = defaultSkipForwardSec
        self.defaultSkipBackwardSec = defaultSkipBackwardSec
        self.defaultSleepTimerMin = defaultSleepTimerMin
        self.shakeToResetSleepTimer = shakeToResetSleepTimer
        self.defaultVolumeBoostDb = defaultVolumeBoostDb
    }

    /// Whether it changes nothing.
    public var isEmpty: Bool { self == UpdateUserPreferencesRequest() }

    /// `base` with the set fields of this request, clamped as the server
    /// clamps (`UserPreferencesServiceImpl.updateMyPreferences`).
    /// - Parameter base: the stored preferences (or ``UserPreferencesDto/serverDefaults``).
    /// - Returns: the merged, clamped preferences.
    public func merged(onto base: UserPreferencesDto) -> UserPreferencesDto {
        func clamp<T: Comparable>(_ value: T, _ range: ClosedRange<T>) -> T { min(max(value, range.lowerBound), range.upperBound) }
        let speed = defaultPlaybackSpeed.flatMap { $0.isFinite ? $0 : nil } ?? base.defaultPlaybackSpeed
        let boost = defaultVolumeBoostDb.flatMap { $0.isFinite ? $0 : nil } ?? base.defaultVolumeBoostDb
        return UserPreferencesDto(
            defaultPlaybackSpeed: clamp(speed, 0.5...4.0),
            defaultSkipForwardSec: clamp(defaultSkipForwardSec ?? base.defaultSkipForwardSec, 5...300),
            defaultSkipBackwardSec: clamp(defaultSkipBackwardSec ?? base.defaultSkipBackwardSec, 5...300),
            defaultSleepTimerMin: (defaultSleepTimerMin ?? base.defaultSleepTimerMin).map { clamp($0, 1...480) },
            shakeToResetSleepTimer: shakeToResetSleepTimer ?? base.shakeToResetSleepTimer,
            defaultVolumeBoostDb: clamp(boost, 0...12))
    }
}
