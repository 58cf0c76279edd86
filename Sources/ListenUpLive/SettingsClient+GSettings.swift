import Foundation
import ListenUpCore
import GSettings
import Logging

extension SettingsClient {
    /// The GSettings schema id (also the application id).
    public static let schemaID = "io.github.listenup.Desktop"

    /// Settings in GSettings under `store`'s schema (`data/io.github.listenup.Desktop.gschema.xml`).
    /// Saving writes only the keys that changed.
    public static func gsettings(_ store: SettingsStore) -> SettingsClient {
        SettingsClient(
            load: {
                func text(_ key: String) -> String? { store.string(key).flatMap { $0.isEmpty ? nil : $0 } }
                var settings = AppSettings(
                    serverURL: text("server-url"),
                    instanceID: text("instance-id"),
                    serverGeneration: text("server-protocol").flatMap(ServerGeneration.init(rawValue:)) ?? .restV1,
                    librarySort: text("library-sort"),
                    libraryLayout: text("library-layout"),
                    browseSorts: store.stringDictionary("browse-sorts") ?? [:],
                    colorScheme: text("color-scheme").flatMap(ColorSchemePreference.init(rawValue:)) ?? .system,
                    window: WindowState(
                        width: store.integer("window-width") ?? WindowState.defaultWidth,
                        height: store.integer("window-height") ?? WindowState.defaultHeight,
                        maximized: store.bool("window-maximized") ?? false),
                    playback: PlaybackSettings(
                        skipBackSeconds: store.integer("skip-back-seconds") ?? 10,
                        skipForwardSeconds: store.integer("skip-forward-seconds") ?? 30,
                        rate: store.double("playback-rate") ?? 1,
                        volume: store.double("volume") ?? 1,
                        defaultSleepTimerMinutes: store.integer("default-sleep-timer-minutes").flatMap { $0 > 0 ? $0 : nil },
                        defaultVolumeBoostDb: store.double("default-volume-boost-db") ?? 0,
                        evenLoudness: store.bool("even-loudness") ?? false),
                    keepsPlayingWhenClosed: store.bool("keep-playing-when-closed") ?? true
                )
                settings.pendingRegistration = text("pending-registration").flatMap {
                    try? JSONDecoder().decode(PendingRegistration.self, from: Data($0.utf8))
                }
                settings.servers = text("saved-servers").flatMap {
                    try? JSONDecoder().decode([SavedServer].self, from: Data($0.utf8))
                } ?? []
                return settings
            },
            save: { settings in
                var refused: [String] = []
                func write(_ key: String, _ value: String?) {
                    let value = value ?? ""
                    if store.string(key) != value, !store.set(key, string: value) {
                        // nil for an enum key means "back to the default".
                        if value.isEmpty { store.reset(key) } else { refused.append(key) }
                    }
                }
                write("server-url", settings.serverURL)
                write("instance-id", settings.instanceID)
                write("server-protocol", settings.serverGeneration.rawValue)
                write("library-sort", settings.librarySort)
                write("library-layout", settings.libraryLayout)
                // JSON without the password (PendingRegistration never encodes it).
                write("pending-registration", settings.pendingRegistration.flatMap {
                    (try? JSONEncoder().encode($0)).flatMap { String(data: $0, encoding: .utf8) }
                })
                write("saved-servers", settings.servers.isEmpty ? nil : (try? JSONEncoder().encode(settings.servers))
                    .flatMap { String(data: $0, encoding: .utf8) })
                if store.stringDictionary("browse-sorts") != settings.browseSorts,
                   !store.set("browse-sorts", stringDictionary: settings.browseSorts) {
                    refused.append("browse-sorts")
                }
                write("color-scheme", settings.colorScheme.rawValue)
                if store.integer("window-width") != settings.window.width, !store.set("window-width", integer: settings.window.width) {
                    refused.append("window-width")
                }
                if store.integer("window-height") != settings.window.height, !store.set("window-height", integer: settings.window.height) {
                    refused.append("window-height")
                }
                if store.bool("window-maximized") != settings.window.maximized {
                    store.set("window-maximized", bool: settings.window.maximized)
                }
                let playback = settings.playback
                // The default sleep timer's "none" is 0.
                for (key, value) in [("skip-back-seconds", playback.skipBackSeconds), ("skip-forward-seconds", playback.skipForwardSeconds),
                                     ("default-sleep-timer-minutes", playback.defaultSleepTimerMinutes ?? 0)]
                where store.integer(key) != value && !store.set(key, integer: value) {
                    refused.append(key)
                }
                for (key, value) in [("playback-rate", playback.rate), ("volume", playback.volume),
                                     ("default-volume-boost-db", playback.defaultVolumeBoostDb)]
                where store.double(key) != value && !store.set(key, double: value) {
                    refused.append(key)
                }
                if store.bool("even-loudness") != playback.evenLoudness { store.set("even-loudness", bool: playback.evenLoudness) }
                if store.bool("keep-playing-when-closed") != settings.keepsPlayingWhenClosed {
                    store.set("keep-playing-when-closed", bool: settings.keepsPlayingWhenClosed)
                }
                store.flush()
                if !refused.isEmpty { throw SettingsError.writeFailed("GSettings refused \(refused.joined(separator: ", "))") }
            }
        )
    }

    /// The app's settings as a GNOME app keeps them: GSettings, with the
    /// schema from GLib's sources or from `locations` (installed prefix,
    /// checkout build folder).
    ///
    /// A `settings.json` in `legacyDirectory` (settings kept as a JSON file,
    /// ``SettingsClient/file(in:logger:)``) is imported once and renamed
    /// `settings.json.migrated`, so nothing the user set is lost. When the schema is nowhere to be found (a binary run
    /// straight from a fresh build folder), the app still runs: settings are
    /// held in memory for this run (seeded from that file if present), and a
    /// warning says so.
    public static func live(locations: ResourceLocations, legacyDirectory: URL, logger: Logger) -> SettingsClient {
        live(store: Result { try SettingsStore(schemaID: schemaID, extraSchemaDirectories: locations.schemaDirectories) },
             legacyDirectory: legacyDirectory, logger: logger)
    }

    /// ``live(locations:legacyDirectory:logger:)`` with the store already
    /// opened (or not): the import and the fallback, testable on their own.
    static func live(store opened: Result<SettingsStore, any Error>, legacyDirectory: URL, logger: Logger) -> SettingsClient {
        let legacy = SettingsClient.file(in: legacyDirectory, logger: logger)
        let legacyURL = legacyDirectory.appendingPathComponent("settings.json")
        let hasLegacy = FileManager.default.fileExists(atPath: legacyURL.path)
        let store: SettingsStore
        do {
            store = try opened.get()
        } catch {
            logger.warning("Settings: \(error); settings are kept in memory for this run. Run `make run`, or install the app, to keep them.")
            return .inMemory(hasLegacy ? legacy.load() : AppSettings())
        }
        logger.debug("Settings: GSettings schema \(schemaID) from \(store.schemaDirectory ?? "the default sources")",
                     metadata: ["backend": "\(store.backendName)"])
        if let path = store.keyfileWithoutSessionBus {
            logger.info("No D-Bus session bus: settings are kept in \(path)")
        }
        let client = SettingsClient.gsettings(store)
        if hasLegacy {
            do {
                try client.save(legacy.load())
                try FileManager.default.moveItem(at: legacyURL, to: legacyURL.appendingPathExtension("migrated"))
                logger.info("Settings: imported settings.json into GSettings", metadata: ["path": "\(legacyURL.path).migrated"])
            } catch {
                logger.warning("Settings: settings.json could not be imported", metadata: ["error": "\(error)"])
            }
        }
        return client
    }
}
