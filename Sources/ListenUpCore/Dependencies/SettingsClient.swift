import Foundation
import Logging

/// What the app remembers between runs outside the secret store.
public struct AppSettings: Codable, Equatable, Sendable {
    /// The verified server's normalised URL, if any.
    public var serverURL: String?
    /// The verified server's instance id (`data.id`), if any.
    public var instanceID: String?
    /// How the library is ordered (``LibrarySort`` raw value).
    public var librarySort: String?
    /// Grid or list (``LibraryLayout`` raw value).
    public var libraryLayout: String?

    public init(serverURL: String? = nil, instanceID: String? = nil, librarySort: String? = nil, libraryLayout: String? = nil) {
        self.serverURL = serverURL
        self.instanceID = instanceID
        self.librarySort = librarySort
        self.libraryLayout = libraryLayout
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
