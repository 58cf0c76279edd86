import Foundation
import ListenUpLive
import Logging
import Testing
@testable import ListenUpCore

@Suite("SettingsClient")
struct SettingsClientTests {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("listenup-settings-\(UUID().uuidString)")
    let logger = Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })

    @Test func roundTripsThroughTheFile() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let client = SettingsClient.file(in: directory, logger: logger)
        #expect(client.load() == AppSettings())
        try client.save(AppSettings(serverURL: "https://listenup.example.com"))
        #expect(SettingsClient.file(in: directory, logger: logger).load().serverURL == "https://listenup.example.com")
    }

    @Test func aServerSavedBeforeGenerationsSpeaksRESTAndAKRPCOneIsKept() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let file = directory.appendingPathComponent("settings.json")
        try Data(#"{"serverURL":"https://old.example","instanceID":"i"}"#.utf8).write(to: file)
        let client = SettingsClient.file(in: directory, logger: logger)
        #expect(client.load().serverGeneration == .restV1)
        try client.save(AppSettings(serverURL: "https://new.example", serverGeneration: .krpc))
        #expect(SettingsClient.file(in: directory, logger: logger).load().serverGeneration == .krpc)
        #expect(try String(contentsOf: file, encoding: .utf8).contains(#""serverGeneration" : "krpc""#))
    }

    @Test func corruptFileIsSetAsideNotLost() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let file = directory.appendingPathComponent("settings.json")
        try Data("{not json".utf8).write(to: file)
        #expect(SettingsClient.file(in: directory, logger: logger).load() == AppSettings())
        let aside = try String(contentsOf: file.appendingPathExtension("corrupt"), encoding: .utf8)
        #expect(aside == "{not json")
    }

    @Test func xdgDirectoriesFollowTheEnvironment() {
        let dirs = XDGDirectories(environment: ["HOME": "/home/a", "XDG_CONFIG_HOME": "/cfg", "XDG_CACHE_HOME": "relative/ignored"])
        #expect(dirs.configHome.path == "/cfg")
        #expect(dirs.cacheHome.path == "/home/a/.cache")
        #expect(dirs.dataHome.path == "/home/a/.local/share")
        #expect(dirs.stateHome.path == "/home/a/.local/state")
    }
}
