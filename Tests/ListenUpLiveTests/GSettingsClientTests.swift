import Foundation
import GSettings
import ListenUpTestSupport
import Logging
import Testing
@testable import ListenUpCore
@testable import ListenUpLive

/// `SettingsClient.gsettings` and `.live` over the real schema (compiled from
/// data/) with values in a key file in a temp folder.
@Suite("SettingsClient over GSettings")
struct GSettingsClientTests {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("listenup-gsettings-\(UUID().uuidString)")
    let logs = LogCapture()

    var keyfile: String { folder.appendingPathComponent("keyfile").path }

    func openStore() throws -> SettingsStore {
        try SettingsStore(schemaID: SettingsClient.schemaID, extraSchemaDirectories: [CompiledSchema.directory.get()],
                          backend: .keyfile(path: keyfile))
    }

    @Test func roundTripsEveryField() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let fields = AppSettings(serverURL: "https://books.example.org", instanceID: "inst-1", serverGeneration: .krpc, librarySort: "duration",
                                libraryLayout: "list", browseSorts: ["series": "bookCount", "authors": "recentlyAdded"], colorScheme: .dark, window: WindowState(width: 1200, height: 800, maximized: true),
                                playback: PlaybackSettings(skipBackSeconds: 15, skipForwardSeconds: 200, rate: 1.25, volume: 0.5,
                                                           defaultSleepTimerMinutes: 45, defaultVolumeBoostDb: 4.5, evenLoudness: true),
                                keepsPlayingWhenClosed: false)
        var saved = fields
        saved.servers = [SavedServer(url: try #require(URL(string: "https://books.example.org")), generation: .krpc, instanceID: "inst-1",
                                     userID: "u1", userDisplayName: "Ada"),
                         SavedServer(url: try #require(URL(string: "http://10.0.0.2:8080")), userID: "u2")]
        try SettingsClient.gsettings(openStore()).save(saved)
        #expect(try SettingsClient.gsettings(openStore()).load() == saved)
        let store = try openStore()
        #expect(store.integer("default-sleep-timer-minutes") == 45 && store.double("default-volume-boost-db") == 4.5)
        #expect(store.bool("even-loudness") == true && store.integer("skip-forward-seconds") == 200)
        #expect(store.bool("keep-playing-when-closed") == false)
        #expect(store.stringDictionary("browse-sorts") == ["series": "bookCount", "authors": "recentlyAdded"])
    }

    @Test func theDefaultSleepTimerTurnsOffAsZero() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let client = try SettingsClient.gsettings(openStore())
        try client.save(AppSettings(playback: PlaybackSettings(defaultSleepTimerMinutes: 30)))
        #expect(client.load().playback.defaultSleepTimerMinutes == 30)
        try client.save(AppSettings(playback: PlaybackSettings(defaultSleepTimerMinutes: nil)))
        #expect(try openStore().integer("default-sleep-timer-minutes") == 0)
        #expect(try SettingsClient.gsettings(openStore()).load().playback.defaultSleepTimerMinutes == nil)
    }

    @Test func defaultsAreTheSchemaDefaults() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let loaded = try SettingsClient.gsettings(openStore()).load()
        #expect(loaded.serverURL == nil)
        #expect(loaded.serverGeneration == .restV1, "a server saved before the key existed speaks REST v1")
        #expect(loaded.librarySort == "title")
        #expect(loaded.colorScheme == .system)
        #expect(loaded.window == WindowState())
        #expect(loaded.playback == PlaybackSettings(), "no sleep timer, no boost, loudness as recorded")
        #expect(loaded.keepsPlayingWhenClosed, "keep playing when the window closes")
    }

    @Test func clearingTheServerWritesAnEmptyValue() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let client = try SettingsClient.gsettings(openStore())
        try client.save(AppSettings(serverURL: "https://a.example", librarySort: "author"))
        try client.save(AppSettings(serverURL: nil, librarySort: nil))
        let loaded = try SettingsClient.gsettings(openStore()).load()
        #expect(loaded.serverURL == nil)
        #expect(loaded.librarySort == "title", "back to the schema default")
    }

    @Test func aValueOutsideTheSchemaIsRefusedAndReported() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let client = try SettingsClient.gsettings(openStore())
        #expect(throws: SettingsError.self) { try client.save(AppSettings(librarySort: "pages")) }
        #expect(client.load().librarySort == "title")
    }

    @Test func anOldSettingsFileIsImportedOnceAndKept() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let legacy = folder.appendingPathComponent("config")
        try FileManager.default.createDirectory(at: legacy, withIntermediateDirectories: true)
        try Data(#"{"serverURL":"https://old.example","librarySort":"author","libraryLayout":"list"}"#.utf8)
            .write(to: legacy.appendingPathComponent("settings.json"))
        let client = SettingsClient.live(store: Result { try openStore() }, legacyDirectory: legacy, logger: logs.logger)
        #expect(client.load().serverURL == "https://old.example")
        #expect(client.load().librarySort == "author")
        #expect(!FileManager.default.fileExists(atPath: legacy.appendingPathComponent("settings.json").path))
        #expect(FileManager.default.fileExists(atPath: legacy.appendingPathComponent("settings.json.migrated").path))
        // A second start finds nothing to import and keeps what GSettings holds.
        try client.save(AppSettings(serverURL: "https://new.example"))
        let again = SettingsClient.live(store: Result { try openStore() }, legacyDirectory: legacy, logger: logs.logger)
        #expect(again.load().serverURL == "https://new.example")
    }

    @Test func noSchemaMeansMemoryAndAWarningNotACrash() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let missing = Result<SettingsStore, any Error> {
            try SettingsStore(schemaID: "io.github.listenup.Missing", extraSchemaDirectories: [], backend: .memory)
        }
        let client = SettingsClient.live(store: missing, legacyDirectory: folder, logger: logs.logger)
        try client.save(AppSettings(serverURL: "https://a.example"))
        #expect(client.load().serverURL == "https://a.example")
        #expect(logs.text.contains("kept in memory for this run"))
    }

    @Test func resourceLocationsFindTheCheckoutAndThePrefix() {
        let checkout = ResourceLocations(executable: URL(fileURLWithPath: "/src/app/.build/x86_64-unknown-linux-gnu/debug/listenup"))
        #expect(checkout.schemaDirectories == ["/src/app/.build/x86_64-unknown-linux-gnu/share/glib-2.0/schemas", "/src/app/.build/schemas"])
        let installed = ResourceLocations(executable: URL(fileURLWithPath: "/app/bin/listenup"))
        #expect(installed.schemaDirectories == ["/app/share/glib-2.0/schemas"])
        #expect(installed.localeDirectory(environment: [:]) == "/app/share/locale")
        #expect(installed.localeDirectory(environment: ["LISTENUP_LOCALE_DIR": "/x/locale"]) == "/x/locale")
    }
}
