import Foundation
import JSONToolkit
import ListenUpTestSupport
import Logging
import Testing
@testable import ListenUpCore
@testable import ListenUpHeadless

/// What the headless front answers to a command it cannot carry out: one
/// `error` line each, with the same code and message whatever the command
/// is decoded into (README, "Headless mode").
@MainActor
@Suite("Headless errors for malformed and unknown commands")
struct HeadlessCommandErrorTests {
    @MainActor
    struct Rig {
        let navigator: AppNavigator
        let presenter: HeadlessPresenter
        let lines: LockedValue<[JSONValue]>

        /// The error lines `line` printed at once, as (code, message).
        func errors(_ line: String) -> [[String]] {
            let before = lines.value.count
            _ = presenter.handle(line: line)
            return lines.value.dropFirst(before).filter { $0["event"] == "error" }.map {
                [$0["code"]?.stringValue ?? "", $0["message"]?.stringValue ?? ""]
            }
        }
    }

    func rig() -> Rig {
        let navigator = AppNavigator(registry: .standard, dependencies: .test())
        let lines = LockedValue<[JSONValue]>([])
        let presenter = HeadlessPresenter(navigator: navigator, logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })) { line in
            lines.withLock { $0.append(line) }
        }
        presenter.start()
        return Rig(navigator: navigator, presenter: presenter, lines: lines)
    }

    static let notJSON = ["badCommand", "Each command must be one JSON object on one line."]
    static let noAction = ["badCommand", "A command needs an \"action\" string."]

    static func unknown(_ action: String, on route: String) -> [String] {
        ["badCommand", "Unknown action “\(action)” on the \(route) screen."]
    }

    static func playerArgument(_ action: String) -> [String] {
        ["badCommand", "The “\(action)” command is missing an argument or has one out of range."]
    }

    static func bookID(_ action: String) -> [String] {
        ["badCommand", "The “\(action)” command needs a \"bookId\" string."]
    }

    static let preferencesUsage = ["badCommand", "“setPreferences” takes defaultPlaybackSpeed (0.5–3), defaultSkipForwardSec and "
        + "defaultSkipBackwardSec (5–300), defaultSleepTimerMin (1–480 or null), defaultVolumeBoostDb (0–12) "
        + "and evenLoudness (true or false)."]

    @Test func signedOut() {
        let rig = rig()
        defer { rig.presenter.stop() }
        rig.navigator.update(.needsServer)
        let expected: [(String, [String]?)] = [
            ("this is not json", Self.notJSON),
            ("[1,2,3]", Self.notJSON),
            ("\"quit\"", Self.notJSON),
            (#"{"no":"action"}"#, Self.noAction),
            (#"{"action":42}"#, Self.noAction),
            (#"{"action":""}"#, Self.noAction),
            (#"{"action":null}"#, Self.noAction),
            (#"{"action":"teleport"}"#, Self.unknown("teleport", on: "serverSetup")),
            (#"{"action":"login","email":"a"}"#, Self.unknown("login", on: "serverSetup")),
            (#"{"action":"pick","id":5}"#, Self.unknown("pick", on: "serverSetup")),
            (#"{"action":"pick","id":"nowhere"}"#, Self.unknown("pick", on: "serverSetup")),
            (#"{"action":"closePairing"}"#, Self.unknown("closePairing", on: "serverSetup")),
            (#"{"action":"play","bookId":"x"}"#, ["notSignedIn", "Sign in to listen."]),
            (#"{"action":"seek"}"#, ["notSignedIn", "Sign in to listen."]),
            (#"{"action":"download"}"#, ["notSignedIn", "Sign in to download."]),
            (#"{"action":"pauseDownloads"}"#, ["notSignedIn", "Sign in to download."]),
            (#"{"action":"preferences"}"#, ["notSignedIn", "Sign in to see the playback preferences."]),
            (#"{"action":"setPreferences","x":1}"#, ["notSignedIn", "Sign in to see the playback preferences."]),
            (#"{"action":"switchServer"}"#, ["badCommand", "The “switchServer” command needs a saved server's \"id\" string."]),
            (#"{"action":"removeServer","id":7}"#, ["badCommand", "The “removeServer” command needs a saved server's \"id\" string."]),
            (#"{"action":"switchServer","id":"http://nowhere.example"}"#, ["unknownServer", "No saved server has the id “http://nowhere.example”."]),
            (#"{"action":"addServer"}"#, nil),
            ("   ", nil),
        ]
        for (line, error) in expected {
            #expect(rig.errors(line) == (error.map { [$0] } ?? []), "\(line)")
        }
        #expect(rig.presenter.handle(line: #"{"action":"quit","extra":1}"#) == .quit)
    }

    @Test func signedIn() async throws {
        let rig = rig()
        defer { rig.presenter.stop() }
        let server = try ScriptedServer(titles: [])
        rig.navigator.update(.authenticated(Session(try #require(await server.currentSession), connection: server)))
        #expect(rig.navigator.activeRoute == .library)
        let expected: [(String, [String])] = [
            (#"{"action":"seek"}"#, Self.playerArgument("seek")),
            (#"{"action":"seek","positionMs":"1"}"#, Self.playerArgument("seek")),
            (#"{"action":"play"}"#, Self.playerArgument("play")),
            (#"{"action":"play","bookId":""}"#, Self.playerArgument("play")),
            (#"{"action":"skip","seconds":10000000}"#, Self.playerArgument("skip")),
            (#"{"action":"chapter","index":-1}"#, Self.playerArgument("chapter")),
            (#"{"action":"boost","db":13}"#, Self.playerArgument("boost")),
            (#"{"action":"sleepTimer"}"#, Self.playerArgument("sleepTimer")),
            (#"{"action":"sleepTimer","minutes":0}"#, Self.playerArgument("sleepTimer")),
            (#"{"action":"sleepTimer","off":false}"#, Self.playerArgument("sleepTimer")),
            (#"{"action":"markFinished"}"#, Self.playerArgument("markFinished")),
            (#"{"action":"rate","value":"fast"}"#, Self.playerArgument("rate")),
            (#"{"action":"volume"}"#, Self.playerArgument("volume")),
            (#"{"action":"download"}"#, Self.bookID("download")),
            (#"{"action":"download","bookId":12}"#, Self.bookID("download")),
            (#"{"action":"pauseDownload","bookId":""}"#, Self.bookID("pauseDownload")),
            (#"{"action":"removeDownload","bookId":"nope"}"#, ["noDownload", "There is no download of “nope”."]),
            (#"{"action":"setPreferences"}"#, Self.preferencesUsage),
            (#"{"action":"setPreferences","defaultPlaybackSpeed":9}"#, Self.preferencesUsage),
            (#"{"action":"setPreferences","bogus":1}"#, Self.preferencesUsage),
            (#"{"action":"setPreferences","defaultSleepTimerMin":2.5}"#, Self.preferencesUsage),
            (#"{"action":"sort","by":"colour"}"#, Self.unknown("sort", on: "library")),
            (#"{"action":"layout","as":3}"#, Self.unknown("layout", on: "library")),
            (#"{"action":"filter"}"#, Self.unknown("filter", on: "library")),
            (#"{"action":"filter","finished":"yes"}"#, Self.unknown("filter", on: "library")),
            (#"{"action":"filter","downloaded":null}"#, Self.unknown("filter", on: "library")),
            (#"{"action":"connect","url":"x"}"#, Self.unknown("connect", on: "library")),
            (#"{"action":"confirmPairing","accept":true}"#, Self.unknown("confirmPairing", on: "library")),
            (#"{"action":"teleport"}"#, Self.unknown("teleport", on: "library")),
            ("{}", Self.noAction),
        ]
        for (line, error) in expected {
            #expect(rig.errors(line) == [error], "\(line)")
        }
        // Commands that are well formed print no error.
        for line in [#"{"action":"search","query":"x"}"#, #"{"action":"sort","by":"title"}"#, #"{"action":"pauseDownloads"}"#,
                     #"{"action":"select","id":null}"#, #"{"action":"filter","finished":null}"#, #"{"action":"sleepTimer","off":true}"#] {
            #expect(rig.errors(line).isEmpty, "\(line)")
        }
        await rig.navigator.shutdown()
    }
}
