import Foundation

/// What the app remembers between runs outside the secret store.
public struct AppSettings: Codable, Equatable, Sendable {
    /// The verified server's normalised URL, if any.
    public var serverURL: String?
    /// The verified server's instance id (`data.id`), if any.
    public var instanceID: String?
    /// The protocol the verified server speaks; a server saved before this
    /// was recorded speaks REST v1.
    public var serverGeneration: ServerGeneration = .restV1
    /// How the library is ordered (``LibrarySort`` raw value).
    public var librarySort: String?
    /// Grid or list (``LibraryLayout`` raw value).
    public var libraryLayout: String?
    /// How each browse list is ordered: ``BrowseKind`` raw value to
    /// ``BrowseSort`` raw value (a list not named is by name).
    public var browseSorts: [String: String] = [:]
    /// Follow the system, or always light or dark.
    public var colorScheme: ColorSchemePreference = .system
    /// The main window when it was last closed.
    public var window: WindowState = WindowState()
    /// Skip lengths, speed and volume (Preferences → Playback).
    public var playback: PlaybackSettings = PlaybackSettings()
    /// Closing the window while a book plays leaves it playing, the app
    /// running without a window (Preferences → General; on unless turned off).
    public var keepsPlayingWhenClosed = true
    /// A registration waiting for an administrator's approval, so that the
    /// app reopens on Waiting for Approval (never with its password).
    public var pendingRegistration: PendingRegistration?
    /// Every saved (server, account) pair, the active one (``serverURL``)
    /// included; read it through ``savedServers`` (a file from before the
    /// list has only ``serverURL``).
    public var servers: [SavedServer] = []

    public init(serverURL: String? = nil, instanceID: String? = nil, serverGeneration: ServerGeneration = .restV1,
                librarySort: String? = nil, libraryLayout: String? = nil, browseSorts: [String: String] = [:],
                colorScheme: ColorSchemePreference = .system, window: WindowState = WindowState(),
                playback: PlaybackSettings = PlaybackSettings(), keepsPlayingWhenClosed: Bool = true) {
        self.serverURL = serverURL
        self.instanceID = instanceID
        self.serverGeneration = serverGeneration
        self.librarySort = librarySort
        self.libraryLayout = libraryLayout
        self.browseSorts = browseSorts
        self.colorScheme = colorScheme
        self.window = window
        self.playback = playback
        self.keepsPlayingWhenClosed = keepsPlayingWhenClosed
    }

    private enum CodingKeys: String, CodingKey {
        case serverURL, instanceID, serverGeneration, librarySort, libraryLayout, browseSorts, colorScheme, window, playback
        case keepsPlayingWhenClosed, pendingRegistration, servers
    }

    /// Reads a settings file; `serverGeneration`, `browseSorts`,
    /// `colorScheme`, `window`, `playback` and `keepsPlayingWhenClosed` may
    /// be missing (the defaults are used: REST v1 for the server, every
    /// list by name, keep playing when closed).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        serverURL = try container.decodeIfPresent(String.self, forKey: .serverURL)
        instanceID = try container.decodeIfPresent(String.self, forKey: .instanceID)
        serverGeneration = (try? container.decodeIfPresent(ServerGeneration.self, forKey: .serverGeneration)) ?? .restV1
        librarySort = try container.decodeIfPresent(String.self, forKey: .librarySort)
        libraryLayout = try container.decodeIfPresent(String.self, forKey: .libraryLayout)
        browseSorts = (try? container.decodeIfPresent([String: String].self, forKey: .browseSorts)) ?? [:]
        colorScheme = try container.decodeIfPresent(ColorSchemePreference.self, forKey: .colorScheme) ?? .system
        window = try container.decodeIfPresent(WindowState.self, forKey: .window) ?? WindowState()
        playback = try container.decodeIfPresent(PlaybackSettings.self, forKey: .playback) ?? PlaybackSettings()
        keepsPlayingWhenClosed = try container.decodeIfPresent(Bool.self, forKey: .keepsPlayingWhenClosed) ?? true
        pendingRegistration = try? container.decodeIfPresent(PendingRegistration.self, forKey: .pendingRegistration)
        servers = (try? container.decodeIfPresent([SavedServer].self, forKey: .servers)) ?? []
    }
}

/// How the player behaves (Preferences → Playback).
///
/// On a server that keeps the account's preferences (today's server) the
/// default speed, skip lengths, default sleep timer and default boost are
/// the account's, written here each time the server says what they are
/// (so an offline start has them); on REST v1 they are this device's
/// alone. ``evenLoudness`` and ``volume`` are always this device's.
public struct PlaybackSettings: Codable, Equatable, Sendable {
    /// Skip back, seconds (5...300, the account's range).
    public var skipBackSeconds: Int
    /// Skip forward, seconds (5...300).
    public var skipForwardSeconds: Int
    /// The default speed: where a book never played starts (0.5...3.0, 0.05 steps).
    public var rate: Double
    /// 0...1.
    public var volume: Double
    /// The sleep timer's default length, minutes (1...480); nil for none.
    public var defaultSleepTimerMinutes: Int?
    /// The volume boost of a book whose row has none, dB (0...12, 0.5 dB steps).
    public var defaultVolumeBoostDb: Double
    /// "Even out loudness": the player applies the book's measured
    /// normalization gain when on (this device's setting only).
    public var evenLoudness: Bool

    /// The skip lengths the account allows (the server's `SKIP_RANGE`).
    public static let skipRange = 5...300
    /// The player's speed range.
    public static let rateRange = 0.5...3.0
    /// The default sleep timer's range, minutes (the server's `SLEEP_RANGE`).
    public static let sleepTimerRange = 1...480

    /// Creates settings, each value brought into its range.
    public init(skipBackSeconds: Int = 10, skipForwardSeconds: Int = 30, rate: Double = 1, volume: Double = 1,
                defaultSleepTimerMinutes: Int? = nil, defaultVolumeBoostDb: Double = 0, evenLoudness: Bool = false) {
        self.skipBackSeconds = min(max(skipBackSeconds, Self.skipRange.lowerBound), Self.skipRange.upperBound)
        self.skipForwardSeconds = min(max(skipForwardSeconds, Self.skipRange.lowerBound), Self.skipRange.upperBound)
        self.rate = Self.normalizedRate(rate)
        self.volume = volume.isFinite ? min(max(volume, 0), 1) : 1
        self.defaultSleepTimerMinutes = defaultSleepTimerMinutes.map {
            min(max($0, Self.sleepTimerRange.lowerBound), Self.sleepTimerRange.upperBound)
        }
        self.defaultVolumeBoostDb = ListeningRules.boost(defaultVolumeBoostDb)
        self.evenLoudness = evenLoudness
    }

    private enum CodingKeys: String, CodingKey {
        case skipBackSeconds, skipForwardSeconds, rate, volume, defaultSleepTimerMinutes, defaultVolumeBoostDb, evenLoudness
    }

    /// Reads settings; the fields added later may be missing.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(skipBackSeconds: try c.decodeIfPresent(Int.self, forKey: .skipBackSeconds) ?? 10,
                  skipForwardSeconds: try c.decodeIfPresent(Int.self, forKey: .skipForwardSeconds) ?? 30,
                  rate: try c.decodeIfPresent(Double.self, forKey: .rate) ?? 1,
                  volume: try c.decodeIfPresent(Double.self, forKey: .volume) ?? 1,
                  defaultSleepTimerMinutes: try c.decodeIfPresent(Int.self, forKey: .defaultSleepTimerMinutes),
                  defaultVolumeBoostDb: try c.decodeIfPresent(Double.self, forKey: .defaultVolumeBoostDb) ?? 0,
                  evenLoudness: try c.decodeIfPresent(Bool.self, forKey: .evenLoudness) ?? false)
    }

    /// The same settings with every value brought into its range.
    public var normalized: PlaybackSettings {
        PlaybackSettings(skipBackSeconds: skipBackSeconds, skipForwardSeconds: skipForwardSeconds, rate: rate, volume: volume,
                         defaultSleepTimerMinutes: defaultSleepTimerMinutes, defaultVolumeBoostDb: defaultVolumeBoostDb,
                         evenLoudness: evenLoudness)
    }

    /// The account's part of these settings.
    public var accountPreferences: AccountPreferences {
        AccountPreferences(defaultPlaybackSpeed: rate, skipForwardSeconds: skipForwardSeconds, skipBackwardSeconds: skipBackSeconds,
                           sleepTimerMinutes: defaultSleepTimerMinutes, volumeBoostDb: defaultVolumeBoostDb)
    }

    /// These settings with the account's preferences in place of their own
    /// (brought into this app's ranges: a speed over 3.0 plays at 3.0).
    public func adopting(_ account: AccountPreferences) -> PlaybackSettings {
        PlaybackSettings(skipBackSeconds: account.skipBackwardSeconds, skipForwardSeconds: account.skipForwardSeconds,
                         rate: account.defaultPlaybackSpeed, volume: volume, defaultSleepTimerMinutes: account.sleepTimerMinutes,
                         defaultVolumeBoostDb: account.volumeBoostDb, evenLoudness: evenLoudness)
    }

    /// `rate` inside 0.5...3.0, on a 0.05 step.
    public static func normalizedRate(_ rate: Double) -> Double {
        guard rate.isFinite else { return 1 }
        let stepped = (rate * 20).rounded() / 20
        return min(max(stepped, rateRange.lowerBound), rateRange.upperBound)
    }
}

/// The appearance the user chose (Preferences → Appearance).
public enum ColorSchemePreference: String, CaseIterable, Codable, Sendable {
    /// Follow the system's light or dark style.
    case system = "default"
    case light
    case dark
}

/// The main window's size and state, restored at the next start.
public struct WindowState: Codable, Equatable, Sendable {
    /// The default size's width, in logical pixels.
    public var width: Int
    /// The default size's height, in logical pixels.
    public var height: Int
    public var maximized: Bool

    /// The size a first start opens with.
    public static let defaultWidth = 900
    public static let defaultHeight = 680
    /// Smaller saved sizes are not restored (a window that small is a mistake).
    public static let minimumWidth = 360
    public static let minimumHeight = 294

    public init(width: Int = WindowState.defaultWidth, height: Int = WindowState.defaultHeight, maximized: Bool = false) {
        self.width = width
        self.height = height
        self.maximized = maximized
    }

    /// The size to open with: the saved one, or the default when the saved
    /// one is too small (or nonsense).
    public var restoredSize: (width: Int, height: Int) {
        guard width >= Self.minimumWidth, height >= Self.minimumHeight, width <= 16_384, height <= 16_384 else {
            return (Self.defaultWidth, Self.defaultHeight)
        }
        return (width, height)
    }
}

/// Why settings could not be saved.
public enum SettingsError: Error, Equatable, Sendable {
    /// The settings file could not be written; the text says why.
    case writeFailed(String)
}

/// Reads and writes ``AppSettings``. A struct of closures: the app's
/// (`.live`, GSettings, and `.file`, the settings file it imports once,
/// both in `ListenUpLive`) and `.inMemory` (previews and tests).
public struct SettingsClient: Sendable {
    /// Returns the saved settings; defaults when nothing (valid) is saved.
    public var load: @Sendable () -> AppSettings
    /// Saves the settings, atomically.
    public var save: @Sendable (AppSettings) throws -> Void

    public init(load: @escaping @Sendable () -> AppSettings, save: @escaping @Sendable (AppSettings) throws -> Void) {
        self.load = load
        self.save = save
    }
}

extension SettingsClient {
    /// Settings held in memory only, starting from `initial`.
    public static func inMemory(_ initial: AppSettings = AppSettings()) -> SettingsClient {
        let box = LockedValue(initial)
        return SettingsClient(load: { box.value }, save: { box.value = $0 })
    }
}
