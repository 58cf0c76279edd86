import Foundation
import ListenUpAPI
import ListenUpTestSupport
import Testing
@testable import ListenUpCore

/// The account's playback preferences between the server, the settings and
/// the player (``AccountPreferencesSync``), over the scripted server.
@MainActor
@Suite("Account preferences sync")
struct AccountPreferencesSyncTests {
    let base = PlayerModelTests()

    func make(kept: AccountPreferences?) async throws -> (AccountPreferencesSync, PlayerModelTests.Rig) {
        let rig = try await base.rig()
        rig.server.preferencesKept.value = kept
        let session = Session(try #require(await rig.server.currentSession), connection: rig.server)
        var dependencies = Dependencies.test()
        dependencies.settings = rig.settings
        let sync = AccountPreferencesSync(dependencies: dependencies, session: session, player: rig.model)
        return (sync, rig)
    }

    @Test func theServersValuesAreKeptInTheSettingsAndThePlayerTakesThem() async throws {
        let (sync, rig) = try await make(kept: AccountPreferences(defaultPlaybackSpeed: 1.5, skipForwardSeconds: 45, skipBackwardSeconds: 20,
                                                                  sleepTimerMinutes: 25, volumeBoostDb: 3))
        #expect(sync.keptOnServer)
        sync.refresh()
        await base.settle { sync.playback.skipForwardSeconds == 45 }
        let saved = rig.settings.load().playback
        #expect(saved.rate == 1.5 && saved.skipBackSeconds == 20 && saved.defaultSleepTimerMinutes == 25 && saved.defaultVolumeBoostDb == 3)
        #expect(rig.model.skipForwardSeconds == 45 && rig.model.skipBackSeconds == 20 && rig.model.defaultSleepTimerMinutes == 25)
    }

    @Test func anEditGoesToTheServerAndAFailureKeepsTheOldValues() async throws {
        let (sync, rig) = try await make(kept: AccountPreferences())
        try await sync.update(AccountPreferencesChange(skipForwardSeconds: 60))
        #expect(rig.settings.load().playback.skipForwardSeconds == 60 && rig.model.skipForwardSeconds == 60)
        #expect(rig.server.preferencesKept.value?.skipForwardSeconds == 60)
        await rig.server.setOffline(true)
        await #expect(throws: ServerError.self) { try await sync.update(AccountPreferencesChange(skipForwardSeconds: 90)) }
        #expect(rig.settings.load().playback.skipForwardSeconds == 60, "the old value stays")
        #expect(sync.playback.skipForwardSeconds == 60)
        try sync.setEvenLoudness(true)
        #expect(rig.settings.load().playback.evenLoudness && rig.model.evenLoudness, "this device's own setting, even offline")
    }

    @Test func onAServerThatKeepsNoneTheyStayHere() async throws {
        let (sync, rig) = try await make(kept: nil)
        #expect(!sync.keptOnServer)
        sync.refresh()
        try await sync.update(AccountPreferencesChange(defaultPlaybackSpeed: 1.25, volumeBoostDb: 20))
        #expect(rig.settings.load().playback.rate == 1.25)
        #expect(rig.settings.load().playback.defaultVolumeBoostDb == 12, "brought into the app's range")
        #expect(await !rig.server.calls.contains { $0.contains("preferences") }, "nothing is sent")
    }
}
