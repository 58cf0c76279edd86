import Foundation
import GSettings
import ListenUpTestSupport
import Testing

/// The real schema from data/ (compiled by `CompiledSchema`), with values kept
/// in a key file in a temp folder.
struct SettingsStoreTests {
    static let schemaID = "io.github.listenup.Desktop"

    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("gsettings-\(UUID().uuidString)")
    let schemas: String
    var keyfile: String { folder.appendingPathComponent("keyfile").path }

    init() throws {
        schemas = try CompiledSchema.directory.get()
    }

    func open() throws -> SettingsStore {
        try SettingsStore(schemaID: Self.schemaID, extraSchemaDirectories: [schemas], backend: .keyfile(path: keyfile))
    }

    @Test func defaultsComeFromTheSchema() throws {
        let store = try open()
        #expect(store.schemaDirectory == schemas)
        #expect(store.backendName == "GKeyfileSettingsBackend")
        #expect(store.string("server-url") == "")
        #expect(store.string("library-sort") == "title")
        #expect(store.integer("window-width") == 900)
        #expect(store.bool("window-maximized") == false)
    }

    @Test func valuesSurviveReopening() throws {
        do {
            let store = try open()
            #expect(store.set("server-url", string: "https://books.example.org"))
            #expect(store.set("library-sort", string: "recentlyAdded"))
            #expect(store.set("window-width", integer: 1234))
            #expect(store.set("window-maximized", bool: true))
            store.flush()
        }
        let reopened = try open()
        #expect(reopened.string("server-url") == "https://books.example.org")
        #expect(reopened.string("library-sort") == "recentlyAdded")
        #expect(reopened.integer("window-width") == 1234)
        #expect(reopened.bool("window-maximized") == true)
        let file = try String(contentsOfFile: keyfile, encoding: .utf8)
        #expect(file.contains("server-url='https://books.example.org'"))
    }

    @Test func aDictionaryOfStringsSurvivesReopening() throws {
        do {
            let store = try open()
            #expect(store.stringDictionary("browse-sorts") == [:], "the schema's default")
            #expect(store.set("browse-sorts", stringDictionary: ["series": "bookCount", "narrators": "recentlyAdded"]))
            #expect(!store.set("server-url", stringDictionary: ["a": "b"]), "wrong type")
            #expect(store.stringDictionary("server-url") == nil, "a string key read as a dictionary")
            store.flush()
        }
        let reopened = try open()
        #expect(reopened.stringDictionary("browse-sorts") == ["series": "bookCount", "narrators": "recentlyAdded"])
        #expect(reopened.set("browse-sorts", stringDictionary: [:]))
        #expect(reopened.stringDictionary("browse-sorts") == [:])
    }

    @Test func writesOutsideTheSchemaAreRefused() throws {
        let store = try open()
        #expect(!store.set("library-sort", string: "pages"), "not one of the enum's choices")
        #expect(!store.set("window-width", string: "wide"), "wrong type")
        #expect(!store.set("window-width", integer: Int(Int32.max) + 1), "does not fit an i")
        #expect(!store.set("no-such-key", bool: true))
        #expect(store.string("no-such-key") == nil)
        #expect(store.integer("server-url") == nil, "a string key read as an integer")
        #expect(store.string("library-sort") == "title")
    }

    @Test func aMissingSchemaIsAnError() {
        #expect(throws: SettingsStoreError.self) {
            try SettingsStore(schemaID: "io.github.listenup.Missing", extraSchemaDirectories: [schemas], backend: .memory)
        }
    }

    @Test func memoryBackendKeepsNothingOnDisk() throws {
        let store = try SettingsStore(schemaID: Self.schemaID, extraSchemaDirectories: [schemas], backend: .memory)
        #expect(store.set("color-scheme", string: "dark"))
        #expect(store.string("color-scheme") == "dark")
        #expect(store.backendName == "GMemorySettingsBackend")
        #expect(!FileManager.default.fileExists(atPath: keyfile))
    }
}
