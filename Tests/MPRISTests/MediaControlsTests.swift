import Foundation
import ListenUpCore
import ListenUpTestSupport
import Logging
import MPRIS
import Observation
import Testing

/// A player the test scripts (a double inside this unit test only).
@MainActor @Observable
final class ScriptedPlayer: MediaPlayerSource {
    var mediaState = MediaState()
    var intents: [PlayerModel.Intent] = []

    func send(_ intent: PlayerModel.Intent) { intents.append(intent) }
}

@MainActor
@Suite("Media controls (MPRIS) through playerctl", .serialized)
struct MediaControlsTests {
    static let quiet = Logger(label: "mpris-test", factory: { _ in SwiftLogNoOpLogHandler() })

    func requireTools() throws {
        let available = FileManager.default.isExecutableFile(atPath: "/usr/bin/playerctl")
            && FileManager.default.isExecutableFile(atPath: "/usr/bin/dbus-daemon")
        try ServiceRequirement.check(available, requiredBy: "LISTENUP_REQUIRE_DBUS",
                                     "playerctl or dbus-daemon is missing (Debian packages playerctl, dbus-daemon)")
    }

    static func playing() -> MediaState {
        var state = MediaState()
        state.status = .playing
        state.bookID = "book-2"
        state.title = "Piranesi"
        state.authors = ["Susanna Clarke"]
        state.album = "Piranesi"
        state.length = 30_000_000_000
        state.position = 4_380_000_000
        state.rate = 1
        state.volume = 0.8
        state.chapterIndex = 1
        state.chapterCount = 12
        state.artURL = URL(fileURLWithPath: "/tmp/cover.png")
        return state
    }

    func settle(_ condition: () -> Bool) async {
        for _ in 0..<200 where !condition() { try? await Task.sleep(for: .milliseconds(20)) }
    }

    func waitForName(_ bus: PrivateBus) async throws {
        for _ in 0..<100 {
            if try bus.playerctl("status").status == 0 { return }
            try await Task.sleep(for: .milliseconds(30))
        }
    }

    @Test func playerctlSeesTheBookAndItsState() async throws {
        try requireTools()
        let bus = try PrivateBus()
        let player = ScriptedPlayer()
        player.mediaState = Self.playing()
        let controls = MediaControls(player: player, raise: nil, quit: {}, busAddress: bus.address, logger: Self.quiet)
        defer { controls.stop() }
        try await waitForName(bus)
        let names = try ToolProcess.run(["/usr/bin/dbus-send", "--bus=\(bus.address)", "--print-reply", "--dest=org.freedesktop.DBus",
                                         "/org/freedesktop/DBus", "org.freedesktop.DBus.ListNames"]).output
        let status = try bus.playerctl("status").output
        #expect(status == "Playing", "\(names) \(status) owned: \(String(describing: controls.ownedName))")
        #expect(try bus.playerctl("metadata", "title").output == "Piranesi")
        #expect(try bus.playerctl("metadata", "artist").output == "Susanna Clarke")
        #expect(try bus.playerctl("metadata", "album").output == "Piranesi")
        #expect(try bus.playerctl("metadata", "mpris:length").output == "30000000000")
        let track = try bus.playerctl("metadata", "mpris:trackid").output
        #expect(track.trimmingCharacters(in: CharacterSet(charactersIn: "'")) == "/io/github/listenup/Desktop/book/book_2", "\(track)")
        #expect(try bus.playerctl("metadata", "mpris:artUrl").output == "file:///tmp/cover.png")
        let position = Double(try bus.playerctl("position").output) ?? 0
        #expect(position >= 4_380 && position < 4_400, "seconds, moved on while playing: \(position)")
        #expect(try bus.playerctl("volume").output.hasPrefix("0.8"))

        player.mediaState.status = .paused
        await settle { (try? bus.playerctl("status").output) == "Paused" }
        #expect(try bus.playerctl("status").output == "Paused")
    }

    @Test func playerctlCommandsBecomeIntents() async throws {
        try requireTools()
        let bus = try PrivateBus()
        let player = ScriptedPlayer()
        player.mediaState = Self.playing()
        let controls = MediaControls(player: player, raise: nil, quit: {}, busAddress: bus.address, logger: Self.quiet)
        defer { controls.stop() }
        try await waitForName(bus)
        for command in ["pause", "play", "play-pause", "next", "previous", "stop"] {
            #expect(try bus.playerctl(command).status == 0, "\(command)")
        }
        #expect(try bus.playerctl("position", "30").status == 0)
        #expect(try bus.playerctl("volume", "0.5").status == 0)
        await settle { player.intents.count >= 8 }
        #expect(player.intents == [.pause, .resume, .togglePlayPause, .nextChapter, .previousChapter, .stop, .seek(30_000), .volume(0.5)])
    }

    @Test func changesAreSignalledAndSeeksAnnounced() async throws {
        try requireTools()
        let bus = try PrivateBus()
        let player = ScriptedPlayer()
        player.mediaState = Self.playing()
        let controls = MediaControls(player: player, raise: nil, quit: {}, busAddress: bus.address, logger: Self.quiet)
        defer { controls.stop() }
        try await waitForName(bus)
        // A real client following the state: it prints each change it is told of.
        let follow = try RunningChild(["/usr/bin/dbus-monitor", "--address", bus.address, "type='signal',path='/org/mpris/MediaPlayer2'"])
        try await Task.sleep(for: .milliseconds(300))
        player.mediaState.status = .paused
        try await Task.sleep(for: .milliseconds(200))
        player.mediaState.position = 20_000_000_000
        try await Task.sleep(for: .milliseconds(500))
        follow.stop()
        let text = follow.finish().stdout
        #expect(text.contains("PropertiesChanged") && text.contains("Paused"), "\(text)")
        #expect(text.contains("member=Seeked") && text.contains("int64 20000000000"), "\(text)")
    }

    @Test func aSecondInstanceTakesAnInstanceName() async throws {
        try requireTools()
        let bus = try PrivateBus()
        let first = MediaControls(player: ScriptedPlayer(), raise: nil, quit: {}, busAddress: bus.address, logger: Self.quiet)
        defer { first.stop() }
        await settle { first.ownedName != nil }
        let second = MediaControls(player: ScriptedPlayer(), raise: nil, quit: {}, busAddress: bus.address, logger: Self.quiet)
        defer { second.stop() }
        await settle { second.ownedName != nil }
        #expect(first.ownedName == MediaControls.busName)
        #expect(second.ownedName == "\(MediaControls.busName).instance\(getpid())")
    }
}
