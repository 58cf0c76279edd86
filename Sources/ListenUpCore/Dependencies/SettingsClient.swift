import Foundation
import Logging

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
    /// Follow the system, or always light or dark.
    public var colorScheme: ColorSchemePreference = .system
    /// The main window when it was last closed.
    public var window: WindowState = WindowState()
    /// Skip lengths, speed and volume (Preferences → Playback).
    public var playback: PlaybackSettings = PlaybackSettings()

    public init(serverURL: String? = nil, instanceID: String? = nil, serverGeneration: ServerGeneration = .restV1,
                librarySort: String? = nil, libraryLayout: String? = nil,
                colorScheme: ColorSchemePreference = .system, window: WindowState = WindowState(),
                playback: PlaybackSettings = PlaybackSettings()) {
        self.serverURL = serverURL
        self.instanceID = instanceID
        self.serverGeneration = serverGeneration
        self.librarySort = librarySort
        self.libraryLayout = libraryLayout
        self.colorScheme = colorScheme
        self.window = window
        self.playback = playback
    }

    private enum CodingKeys: String, CodingKey {
        case serverURL, instanceID, serverGeneration, librarySort, libraryLayout, colorScheme, window, playback
    }

    /// Reads a settings file; `serverGeneration`, `colorScheme` and `window`
    /// may be missing (the defaults are used: REST v1 for the server).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        serverURL = try container.decodeIfPresent(String.self, forKey: .serverURL)
        instanceID = try container.decodeIfPresent(String.self, forKey: .instanceID)
        serverGeneration = (try? container.decodeIfPresent(ServerGeneration.self, forKey: .serverGeneration)) ?? .restV1
        librarySort = try container.decodeIfPresent(String.self, forKey: .librarySort)
        libraryLayout = try container.decodeIfPresent(String.self, forKey: .libraryLayout)
        colorScheme = try container.decodeIfPresent(ColorSchemePreference.self, forKey: .colorScheme) ?? .system
        window = try container.decodeIfPresent(WindowState.self, forKey: .window) ?? WindowState()
        playback = try container.decodeIfPresent(PlaybackSettings.self, forKey: .playback) ?? PlaybackSettings()
    }
}

/// How the player behaves (Preferences → Playback).
public struct PlaybackSettings: Codable, Equatable, Sendable {
    /// Skip back, seconds (5...120).
    public var skipBackSeconds: Int
    /// Skip forward, seconds (5...120).
    public var skipForwardSeconds: Int
    /// The last speed chosen (0.5...3.0, 0.05 steps).
    public var rate: Double
    /// 0...1.
    public var volume: Double

    public static let skipRange = 5...120
    public static let rateRange = 0.5...3.0

    public init(skipBackSeconds: Int = 10, skipForwardSeconds: Int = 30, rate: Double = 1, volume: Double = 1) {
        self.skipBackSeconds = min(max(skipBackSeconds, Self.skipRange.lowerBound), Self.skipRange.upperBound)
        self.skipForwardSeconds = min(max(skipForwardSeconds, Self.skipRange.lowerBound), Self.skipRange.upperBound)
        self.rate = Self.normalizedRate(rate)
        self.volume = volume.isFinite ? min(max(volume, 0), 1) : 1
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

/// Reads and writes ``AppSettings``. A struct of closures: `.live` keeps them
/// in a file, `.inMemory` in memory (previews and tests).
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
    /// Settings in `directory/settings.json`, written atomically.
    ///
    /// A file that cannot be decoded is moved aside to `settings.json.corrupt`
    /// (so nothing is silently lost) and defaults are used.
    public static func file(in directory: URL, logger: Logger) -> SettingsClient {
        let url = directory.appendingPathComponent("settings.json")
        return SettingsClient(
            load: {
                guard let data = try? Data(contentsOf: url) else { return AppSettings() }
                do {
                    return try JSONDecoder().decode(AppSettings.self, from: data)
                } catch {
                    let aside = url.appendingPathExtension("corrupt")
                    try? FileManager.default.removeItem(at: aside)
                    try? FileManager.default.moveItem(at: url, to: aside)
                    logger.warning("Settings file unreadable; moved aside", metadata: ["path": "\(aside.path)"])
                    return AppSettings()
                }
            },
            save: { settings in
                do {
                    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
                    let encoder = JSONEncoder()
                    encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
                    try encoder.encode(settings).write(to: url, options: .atomic)
                } catch {
                    throw SettingsError.writeFailed(error.localizedDescription)
                }
            }
        )
    }

    /// Settings held in memory only, starting from `initial`.
    public static func inMemory(_ initial: AppSettings = AppSettings()) -> SettingsClient {
        let box = LockedValue(initial)
        return SettingsClient(load: { box.value }, save: { box.value = $0 })
    }
}
