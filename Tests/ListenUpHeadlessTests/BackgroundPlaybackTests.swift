import DemoServer
import Foundation
import ListenUpTestSupport
import Testing

/// Keep playing when the window closes: the real app, its real window on a
/// display of the test's own (Xvfb), real GStreamer, the demo server, a
/// private session bus for its D-Bus name and MPRIS (and no keyring: sessions
/// in a file). The window is closed the way a user does (Ctrl+W, typed
/// through XTEST), and looked at with `xdotool`.
@Suite("Playing on with the window closed", .serialized)
struct BackgroundPlaybackTests {
    typealias Playback = HeadlessPlaybackTests
    typealias Journey = HeadlessJourneyTests

    /// The app's player on the bus (MPRIS).
    static let mprisName = "org.mpris.MediaPlayer2.io.github.listenup.Desktop"

    func requireTools() throws {
        let tools = ["/usr/bin/Xvfb", "/usr/bin/xdotool", "/usr/bin/playerctl", "/usr/bin/dbus-daemon", "/usr/bin/gdbus"]
        try ServiceRequirement.check(tools.allSatisfy { FileManager.default.isExecutableFile(atPath: $0) },
                                     requiredBy: "LISTENUP_REQUIRE_DBUS",
                                     "Xvfb, xdotool, playerctl, dbus-daemon or gdbus is missing (Debian packages xvfb, xdotool, playerctl, dbus-daemon, libglib2.0-bin)")
    }

    /// Books of one-minute chapters (the first book lasts 6 minutes: long
    /// enough to play through the test, and more than the 2 minutes from its
    /// end where the server counts a book finished), an admin to sign in as.
    static func startServer() async throws -> (DemoServer, String) {
        var configuration = DemoServer.Configuration()
        configuration.bookCount = 3
        configuration.chapterSeconds = 60
        configuration.admin = .init(email: "ada@example.com", password: "analytical-engine")
        let server = DemoServer(configuration: configuration)
        try await server.start()
        return (server, try #require(server.baseURL).absoluteString)
    }

    /// Signs in headless on `bus` (no keyring there: the session is kept in
    /// the state folder), plays a little of the first book and quits, so the
    /// window opens on that book in its now-playing bar.
    static func listenedOnce(home: URL, url: String, server: DemoServer, bus: PrivateBus) async throws {
        let app = try HeadlessProcess(home: home, environment: Playback.sink.merging(["DBUS_SESSION_BUS_ADDRESS": bus.address]) { $1 })
        app.send(#"{"action":"connect","url":"\#(url)"}"#)
        #expect(await app.waitForLine(Journey.onRoute("login")) != nil, "\(app.allLines)\n\(app.stderr)")
        app.send(#"{"action":"login","email":"ada@example.com","password":"analytical-engine"}"#)
        #expect(await app.waitForLine(Journey.librarySettled(3)) != nil, "\(app.allLines)\n\(app.stderr)")
        app.send(#"{"action":"play","bookId":"\#(Playback.book)"}"#)
        #expect(await app.waitForLine(Playback.playing(atLeast: 3_000)) != nil, "\(app.allLines.suffix(5))\n\(app.stderr)")
        app.send(#"{"action":"pause"}"#)
        #expect(await app.waitForLine(Playback.status("paused")) != nil)
        // The span makes the book the server's first to continue.
        #expect(await eventually { !server.acceptedListeningEvents.isEmpty }, "\(app.stderr)")
        try await Task.sleep(for: .seconds(2))
        app.send(#"{"action":"quit"}"#)
        #expect(await app.waitForExit() == 0)
    }

    /// The app with a window, on `bus`, in `home`.
    static func window(home: URL, display: String, bus: PrivateBus, grace: String) throws -> HeadlessProcess {
        try HeadlessProcess(arguments: [], home: home, environment: Playback.sink.merging([
            "DISPLAY": display, "DBUS_SESSION_BUS_ADDRESS": bus.address, "GTK_A11Y": "none",
            "LISTENUP_IDLE_QUIT_SECONDS": grace, "LISTENUP_MDNS_INTERFACE": "lo",
        ]) { $1 })
    }

    /// The app's windows on `display`'s screen (mapped), by X id; nil when
    /// the search gave no answer. `xdotool search` walks every window on the
    /// display and dies of an X error (BadWindow) when one goes away under
    /// it: that is asked again, three times at most, never read as "none".
    static func visibleWindows(of app: HeadlessProcess, on display: String) -> [String]? {
        for _ in 0..<3 {
            let command = ["/usr/bin/xdotool", "search", "--onlyvisible", "--pid", "\(app.process.processIdentifier)"]
            guard let found = try? tool(command, on: display) else { return nil }
            // Found: 0; none: 1 and nothing printed.
            guard found.status == 0 || (found.status == 1 && found.output.isEmpty) else { continue }
            return found.output.split(separator: "\n").map(String.init).filter { !$0.isEmpty && $0.allSatisfy(\.isNumber) }
        }
        return nil
    }

    /// The app's visible window, looked for until one is found.
    static func visibleWindow(of app: HeadlessProcess, on display: String) async -> String? {
        var found: String?
        _ = await eventually { found = visibleWindows(of: app, on: display)?.first; return found != nil }
        return found
    }

    /// Runs a tool on `display`, for ten seconds at most.
    @discardableResult
    static func tool(_ command: [String], on display: String) throws -> (status: Int32, output: String) {
        let output = try RunningChild(command, environment: ChildProcess.environment(["DISPLAY": display])).finish(timeout: .seconds(10))
        return (output.status ?? -1, output.combined)
    }

    /// Waits up to `seconds` for `condition`.
    static func eventually(_ seconds: Double = 15, _ condition: () -> Bool) async -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if condition() { return true }
            try? await Task.sleep(for: .milliseconds(100))
        }
        return condition()
    }

    /// Closes the window on `display` as a user does: focus, then Ctrl+W
    /// (again, up to five times, until the window is gone from the screen).
    static func close(_ window: String, of app: HeadlessProcess, on display: String) async throws {
        for _ in 0..<5 {
            // Not `windowfocus --sync`: with no window manager the focus
            // event it waits for may never come; the focus is looked at instead.
            try tool(["/usr/bin/xdotool", "windowfocus", window], on: display)
            guard await eventually(2, { (try? tool(["/usr/bin/xdotool", "getwindowfocus"], on: display).output) == window }) else { continue }
            try tool(["/usr/bin/xdotool", "key", "--clearmodifiers", "ctrl+w"], on: display)
            if await eventually(3, { !app.process.isRunning || visibleWindows(of: app, on: display).map { !$0.contains(window) } ?? false }) {
                return
            }
        }
    }

    /// What each test starts from: the demo server, a private bus, a
    /// display of its own, and a home where the first book was listened to
    /// once; gone with the value.
    final class Stage: @unchecked Sendable {
        // @unchecked Sendable: every property is set once in init.
        let server: DemoServer
        let bus: PrivateBus
        let screen: PrivateDisplay
        let home: URL

        init() async throws {
            let (server, url) = try await BackgroundPlaybackTests.startServer()
            self.server = server
            bus = try PrivateBus(serviceDirectories: [])
            screen = try PrivateDisplay()
            home = FileManager.default.temporaryDirectory.appendingPathComponent("listenup-background-\(UUID().uuidString)")
            try await BackgroundPlaybackTests.listenedOnce(home: home, url: url, server: server, bus: bus)
        }

        /// The app with its window, idle grace `grace` seconds.
        func window(grace: String) throws -> HeadlessProcess {
            try BackgroundPlaybackTests.window(home: home, display: screen.name, bus: bus, grace: grace)
        }

        /// Whether `app` shows a window (false also when the screen could not be read).
        func showsWindow(_ app: HeadlessProcess) -> Bool {
            BackgroundPlaybackTests.visibleWindows(of: app, on: screen.name)?.isEmpty == false
        }

        /// Whether `app` shows no window (false also when the screen could not be read).
        func showsNoWindow(_ app: HeadlessProcess) -> Bool {
            BackgroundPlaybackTests.visibleWindows(of: app, on: screen.name)?.isEmpty == true
        }

        /// Closes `app`'s window as a user does.
        func closeWindow(of app: HeadlessProcess) async throws {
            let window = try #require(await BackgroundPlaybackTests.visibleWindow(of: app, on: screen.name))
            try await BackgroundPlaybackTests.close(window, of: app, on: screen.name)
        }

        deinit {
            let server = server
            Task { await server.stop() }
            try? FileManager.default.removeItem(at: home)
        }
    }

    static func status(_ bus: PrivateBus) -> String {
        (try? bus.playerctl("status").output) ?? ""
    }

    @Test func closingWhilePlayingPlaysOnAndTheWindowComesBackWithThePlayer() async throws {
        try requireTools()
        let stage = try await Stage()
        let bus = stage.bus

        let app = try stage.window(grace: "600")
        #expect(await Self.eventually { stage.showsWindow(app) }, "\(app.stderr)")
        #expect(await Self.eventually(30) { Self.status(bus) == "Paused" }, "the last book is offered in the bar: \(Self.status(bus))\n\(app.stderr)")
        try bus.playerctl("play")
        #expect(await Self.eventually { Self.status(bus) == "Playing" }, "\(app.stderr)")

        // Closed while playing: the process stays, playing, with no window.
        try await stage.closeWindow(of: app)
        #expect(await Self.eventually { stage.showsNoWindow(app) }, "the window is hidden\n\(app.stderr)")
        try await Task.sleep(for: .seconds(2))
        #expect(app.process.isRunning)
        #expect(Self.status(bus) == "Playing")
        // Read again until it moves (a full test run can hold the player's
        // thread for more than a second; seen once).
        let position = Double(try bus.playerctl("position").output) ?? .infinity
        #expect(await Self.eventually { (Double((try? bus.playerctl("position").output) ?? "") ?? 0) > position },
                "time passes with the window closed")

        // MPRIS Raise maps the window again, on the player.
        let raised = try bus.run(["/usr/bin/gdbus", "call", "--session", "--dest", Self.mprisName, "--object-path", "/org/mpris/MediaPlayer2",
                                  "--method", "org.mpris.MediaPlayer2.Raise"])
        #expect(raised.status == 0, "\(raised.output)")
        #expect(await Self.eventually { stage.showsWindow(app) }, "Raise shows the window\n\(app.stderr)")
        #expect(app.stderr.contains("route=player"), "the window comes back on the player\n\(app.stderr)")

        // Closed again, then the launcher (a second start of the app) brings it back.
        try await stage.closeWindow(of: app)
        #expect(await Self.eventually { stage.showsNoWindow(app) }, "\(app.stderr)")
        let second = try stage.window(grace: "600")
        #expect(await second.waitForExit() == 0, "the second start hands over to the first and ends\n\(second.stderr)")
        #expect(await Self.eventually { stage.showsWindow(app) }, "the launcher shows the window\n\(app.stderr)")
        #expect(Self.status(bus) == "Playing")
        #expect(app.stderr.contains("playing on in the background"), "\(app.stderr)")

        _ = try? bus.playerctl("pause")
        app.process.terminate()
        _ = await app.waitForExit()
        #expect(!app.stderr.contains("analytical-engine"))
    }

    @Test func withNothingPlayingAndNoWindowTheAppQuitsAndKeepsThePosition() async throws {
        try requireTools()
        let stage = try await Stage()
        let (server, bus) = (stage.server, stage.bus)
        let spansBefore = server.acceptedListeningEvents.count

        let app = try stage.window(grace: "3")
        #expect(await Self.eventually(30) { Self.status(bus) == "Paused" }, "\(app.stderr)")
        try bus.playerctl("play")
        #expect(await Self.eventually { Self.status(bus) == "Playing" }, "\(app.stderr)")
        try await Task.sleep(for: .seconds(2))
        try await stage.closeWindow(of: app)
        #expect(await Self.eventually { stage.showsNoWindow(app) }, "\(app.stderr)")

        // Playing keeps it alive past the grace; paused, it quits after it.
        try await Task.sleep(for: .seconds(4))
        #expect(app.process.isRunning, "still playing: the grace has not started")
        try bus.playerctl("pause")
        let pausedAt = Date()
        #expect(await app.waitForExit() == 0, "\(app.stderr)")
        #expect(Date().timeIntervalSince(pausedAt) >= 2.5, "not before the grace")
        #expect(app.stderr.contains("Nothing played with the window closed"), "\(app.stderr)")
        let spans = server.acceptedListeningEvents.dropFirst(spansBefore)
        #expect(spans.contains { $0.bookID == Playback.book && $0.endPositionMs > $0.startPositionMs + 3_000 },
                "the span played with the window closed reached the server: \(spans)")
    }

    @Test func closingWhilePausedQuitsAsBefore() async throws {
        try requireTools()
        let stage = try await Stage()
        let bus = stage.bus

        let app = try stage.window(grace: "600")
        #expect(await Self.eventually(30) { Self.status(bus) == "Paused" }, "\(app.stderr)")
        try await stage.closeWindow(of: app)
        #expect(await app.waitForExit() == 0, "closing with nothing playing quits\n\(app.stderr)")
    }
}
