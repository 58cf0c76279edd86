import Foundation
import ListenUpTestSupport
import Testing
@testable import ListenUpCore

/// Playing on with the window closed: the rules (``BackgroundPolicy``) and
/// the player's part (a span closed while nobody watched the position).
@MainActor
@Suite("Playing on with the window closed: the rules")
struct BackgroundPolicyTests {
    typealias Player = PlayerModelTests

    @Test func theAppKeepsRunningOnlyWhileABookPlaysAndTheSettingIsOn() async throws {
        let rig = try await Player().rig()
        #expect(!BackgroundPolicy.keepsRunningWhenClosed(setting: true, player: nil), "signed out: no player")
        #expect(!BackgroundPolicy.keepsRunningWhenClosed(setting: true, player: rig.model), "nothing loaded")
        await Player().start(rig)
        #expect(BackgroundPolicy.keepsRunningWhenClosed(setting: true, player: rig.model), "playing")
        #expect(!BackgroundPolicy.keepsRunningWhenClosed(setting: false, player: rig.model), "turned off in Preferences")
        rig.model.send(.pause)
        rig.engine.report(.status(.paused))
        await Player().settle { rig.model.status == .paused }
        #expect(!BackgroundPolicy.keepsRunningWhenClosed(setting: true, player: rig.model), "paused")
        rig.model.send(.resume)
        rig.engine.report(.status(.playing))
        await Player().settle { rig.model.status == .playing }
        #expect(BackgroundPolicy.keepsRunningWhenClosed(setting: true, player: rig.model))
    }

    @Test func theSettingIsOnUnlessTurnedOffAndSurvivesAnOlderSettingsFile() throws {
        #expect(AppSettings().keepsPlayingWhenClosed)
        let older = try JSONDecoder().decode(AppSettings.self, from: Data(#"{"serverURL":"http://127.0.0.1:1"}"#.utf8))
        #expect(older.keepsPlayingWhenClosed, "a file from before the setting keeps the default")
        var off = AppSettings()
        off.keepsPlayingWhenClosed = false
        let read = try JSONDecoder().decode(AppSettings.self, from: JSONEncoder().encode(off))
        #expect(!read.keepsPlayingWhenClosed)
    }

    @Test func theIdleGraceIsTenMinutesUnlessShortenedForTests() {
        #expect(BackgroundPolicy.idleGrace(environment: [:]) == .seconds(600))
        #expect(BackgroundPolicy.idleGrace(environment: ["LISTENUP_IDLE_QUIT_SECONDS": "2.5"]) == .milliseconds(2_500))
        for bad in ["", "0", "-3", "soon", "inf", "nan"] {
            #expect(BackgroundPolicy.idleGrace(environment: ["LISTENUP_IDLE_QUIT_SECONDS": bad]) == .seconds(600), "\(bad)")
        }
    }

    @Test func theStatusLineNamesTheBookAndChapterInUnder96Characters() {
        #expect(BackgroundPolicy.statusLine(title: "Piranesi", chapter: "Part 2") == "Piranesi — Part 2")
        #expect(BackgroundPolicy.statusLine(title: "Piranesi", chapter: nil) == "Piranesi")
        #expect(BackgroundPolicy.statusLine(title: "Piranesi", chapter: "Piranesi") == "Piranesi", "a single-chapter book")
        let long = BackgroundPolicy.statusLine(title: String(repeating: "A long title ", count: 10), chapter: "Chapter 1")
        #expect(long.count == 95 && long.hasSuffix("…"))
    }

    /// With the window hidden, reports come seconds apart: a pause (or the
    /// quit after the idle grace) ends the span where the audio is, not at
    /// the last report.
    @Test func aSpanClosedWhileNobodyWatchedEndsWhereTheAudioIs() async throws {
        let rig = try await Player().rig()
        await Player().start(rig)
        rig.engine.report(.status(.playing))
        rig.engine.report(.position(12_000))
        await Player().settle { rig.model.position == 12_000 && rig.model.status == .playing }
        rig.model.isPositionWatched = false
        rig.engine.advance(to: 19_500)
        rig.model.send(.pause)
        await Player().settle { !rig.server.spansSnapshot.isEmpty }
        #expect(await rig.server.spans.map(\.end) == [19_500])
        #expect(try rig.listening.position(bookID: "book-1")?.position == 19_500)

        // A query behind the last report (a seek not yet done) never moves it back.
        rig.model.send(.resume)
        rig.engine.report(.status(.playing))
        rig.engine.report(.position(30_000))
        await Player().settle { rig.model.position == 30_000 && rig.model.status == .playing }
        rig.engine.advance(to: 25_000)
        await rig.model.shutdown(grace: .milliseconds(200))
        #expect(try rig.listening.position(bookID: "book-1")?.position == 30_000)
    }
}
