import DemoServer
import Foundation
import ListenUpKRPC
import Testing

/// The account's playback preferences: the real `listenup --headless`
/// against the demo server. On kRPC the server keeps them for every
/// device (a change on another device reaches the app live, a change here
/// is stored there and survives an offline start); on REST v1 they stay
/// on this computer.
@Suite("Account playback preferences", .serialized)
struct HeadlessPreferencesTests {
    typealias Generations = HeadlessGenerationsTests
    typealias Journey = HeadlessJourneyTests
    typealias Listening = HeadlessPlaybackTests

    /// A `preferences` line whose fields include `expected`.
    static func preferences(_ expected: [String: Any?]) -> ([String: Any]) -> Bool {
        { line in
            guard line["event"] as? String == "preferences", let values = line["preferences"] as? [String: Any] else { return false }
            return expected.allSatisfy { key, value in
                guard let value else { return values[key] is NSNull }
                if let number = value as? Double { return (values[key] as? Double) == number }
                if let flag = value as? Bool { return (values[key] as? Bool) == flag }
                return false
            }
        }
    }

    func signIn(_ url: String, home: URL) async throws -> HeadlessProcess {
        let app = try HeadlessProcess(home: home, environment: Listening.sink)
        app.send(#"{"action":"connect","url":"\#(url)"}"#)
        #expect(await app.waitForLine(Journey.onRoute("login")) != nil, "\(app.allLines)\n\(app.stderr.suffix(2000))")
        app.send(#"{"action":"login","email":"ada@example.com","password":"analytical-engine"}"#)
        #expect(await app.waitForLine(Journey.librarySettled(2)) != nil, "\(app.allLines.suffix(3))")
        return app
    }

    @Test func aChangeOnAnotherDeviceArrivesLiveAndTheAppsOwnIsKeptForTheNextOfflineStart() async throws {
        let (server, url) = try await Generations.startServer(.krpc, books: 2, admin: true)
        var stopped = false
        defer { if !stopped { Task { await server.stop() } } }
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("listenup-prefs-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: home) }
        let app = try await signIn(url, home: home)

        app.send(#"{"action":"preferences"}"#)
        #expect(await app.waitForLine(Self.preferences([
            "defaultPlaybackSpeed": 1.0, "defaultSkipForwardSec": 30.0, "defaultSkipBackwardSec": 10.0,
            "defaultSleepTimerMin": nil, "defaultVolumeBoostDb": 0.0, "evenLoudness": false,
        ])) != nil, "\(app.allLines.filter { $0.contains("preferences") })")

        // The app reads them once its live events connect; only then does the phone change them,
        // so what follows can only come live.
        for _ in 0..<250 where server.requestCount("UserPreferencesService.getMyPreferences") == 0 {
            try await Task.sleep(for: .milliseconds(20))
        }
        #expect(server.requestCount("UserPreferencesService.getMyPreferences") == 1, "read at the session's start")
        try await Task.sleep(for: .milliseconds(200))
        // The phone changes them: the app hears of it live, and the player follows.
        server.updatePreferencesFromAnotherDevice(UpdateUserPreferencesRequest(defaultSkipForwardSec: 45, defaultSkipBackwardSec: 20,
                                                                               defaultSleepTimerMin: 25))
        #expect(await app.waitForLine(Self.preferences([
            "defaultSkipForwardSec": 45.0, "defaultSkipBackwardSec": 20.0, "defaultSleepTimerMin": 25.0,
        ])) != nil, "a live PreferencesChanged: \(app.allLines.suffix(3))\n\(app.stderr.suffix(2000))")
        #expect(await app.waitForLine { line in
            Listening.player(line)?["skipForwardSeconds"] as? Int == 45 && Listening.player(line)?["skipBackSeconds"] as? Int == 20
        } != nil, "the player's skip lengths follow: \(app.allLines.suffix(3))")

        // Changed here: stored on the server (clamped there, merged with what it keeps).
        app.send(#"{"action":"setPreferences","defaultPlaybackSpeed":1.25,"defaultVolumeBoostDb":4.5,"evenLoudness":true}"#)
        #expect(await app.waitForLine(Self.preferences([
            "defaultPlaybackSpeed": 1.25, "defaultVolumeBoostDb": 4.5, "evenLoudness": true, "defaultSkipForwardSec": 45.0,
        ])) != nil, "\(app.allLines.suffix(3))")
        let stored = server.storedPreferences()
        #expect(stored?.defaultPlaybackSpeed == 1.25 && stored?.defaultVolumeBoostDb == 4.5 && stored?.defaultSkipForwardSec == 45)

        // Out of range: refused here, nothing sent.
        app.send(#"{"action":"setPreferences","defaultSkipForwardSec":301}"#)
        #expect(await app.waitForLine { $0["event"] as? String == "error" && $0["code"] as? String == "badCommand" } != nil)
        app.send(#"{"action":"quit"}"#)
        #expect(await app.waitForExit() == 0)

        // The next start, with the server gone: the account's values are here.
        await server.stop()
        stopped = true
        let offline = try HeadlessProcess(home: home, environment: Listening.sink)
        #expect(await offline.waitForLine(Journey.onRoute("library")) != nil, "\(offline.allLines.suffix(3))")
        offline.send(#"{"action":"preferences"}"#)
        #expect(await offline.waitForLine(Self.preferences([
            "defaultPlaybackSpeed": 1.25, "defaultSkipForwardSec": 45.0, "defaultSkipBackwardSec": 20.0,
            "defaultSleepTimerMin": 25.0, "defaultVolumeBoostDb": 4.5, "evenLoudness": true,
        ])) != nil, "\(offline.allLines.filter { $0.contains("preferences") })")
        offline.send(#"{"action":"quit"}"#)
        #expect(await offline.waitForExit() == 0)
    }

    @Test func onRESTv1TheyStayOnThisComputer() async throws {
        let (server, url) = try await Generations.startServer(.rest, books: 2, admin: true)
        defer { Task { await server.stop() } }
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("listenup-prefs-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: home) }
        let app = try await signIn(url, home: home)
        app.send(#"{"action":"setPreferences","defaultSkipForwardSec":60,"defaultSleepTimerMin":15}"#)
        #expect(await app.waitForLine(Self.preferences(["defaultSkipForwardSec": 60.0, "defaultSleepTimerMin": 15.0])) != nil,
                "\(app.allLines.suffix(3))")
        #expect(await app.waitForLine { Listening.player($0)?["skipForwardSeconds"] as? Int == 60 } != nil)
        #expect(server.storedPreferences() == nil, "the Go server keeps none")
        #expect(server.requestCount("/api/v1/settings") == 0, "nothing is sent")
        app.send(#"{"action":"quit"}"#)
        #expect(await app.waitForExit() == 0)
    }
}
