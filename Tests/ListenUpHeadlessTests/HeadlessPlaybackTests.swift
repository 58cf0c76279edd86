import DemoServer
import Foundation
import ListenUpAPI
import ListenUpTestSupport
import Testing

/// Listening end to end: the real `listenup --headless` with real GStreamer
/// (a `fakesink sync=true` output, so time passes as it would on speakers)
/// against the demo server's synthesised audio.
@Suite("Headless listening journeys", .serialized)
struct HeadlessPlaybackTests {
    typealias Journey = HeadlessJourneyTests

    static let book = "book-000000000000000000001"
    static let sink: [String: String?] = ["LISTENUP_AUDIO_SINK": "fakesink sync=true"]

    /// Three books of 4-second chapters (or `chapterSeconds`, each in a
    /// file of its own with `filePerChapter`), an admin to sign in as.
    static func startServer(tokenLifetime: TimeInterval? = nil, chapterSeconds: Double = 4,
                            filePerChapter: Bool = false) async throws -> (DemoServer, String) {
        var configuration = DemoServer.Configuration()
        configuration.bookCount = 3
        configuration.chapterSeconds = chapterSeconds
        configuration.filePerChapter = filePerChapter
        configuration.admin = .init(email: "ada@example.com", password: "analytical-engine")
        if let tokenLifetime { configuration.accessTokenLifetime = tokenLifetime }
        let server = DemoServer(configuration: configuration)
        try await server.start()
        return (server, try #require(server.baseURL).absoluteString)
    }

    static func player(_ line: [String: Any]) -> [String: Any]? {
        line["event"] as? String == "player" ? line["state"] as? [String: Any] : nil
    }

    static func playing(atLeast position: Int) -> ([String: Any]) -> Bool {
        { line in
            guard let state = player(line) else { return false }
            return state["status"] as? String == "playing" && (state["positionMs"] as? Int ?? 0) >= position
        }
    }

    static func status(_ status: String) -> ([String: Any]) -> Bool {
        { player($0)?["status"] as? String == status }
    }

    /// Connects and signs in; returns once the library has settled.
    static func signIn(home: URL, url: String) async throws -> HeadlessProcess {
        let app = try HeadlessProcess(home: home, environment: sink)
        app.send(#"{"action":"connect","url":"\#(url)"}"#)
        #expect(await app.waitForLine(Journey.onRoute("login")) != nil, "\(app.allLines)\n\(app.stderr)")
        app.send(#"{"action":"login","email":"ada@example.com","password":"analytical-engine"}"#)
        #expect(await app.waitForLine(Journey.librarySettled(3)) != nil, "\(app.allLines)\n\(app.stderr)")
        return app
    }

    @Test func playReportKillRestartAndResume() async throws {
        let (server, url) = try await Self.startServer()
        defer { Task { await server.stop() } }
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("listenup-listen-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: home) }

        let first = try await Self.signIn(home: home, url: url)
        first.send(#"{"action":"play","bookId":"\#(Self.book)"}"#)
        let started = await first.waitForLine(Self.playing(atLeast: 1_000))
        #expect(started != nil, "\(first.allLines.suffix(5))\n\(first.stderr)")
        #expect(Self.player(started ?? [:])?["durationMs"] as? Int ?? 0 > 8_000)

        // A chapter in the second file, then pause: the span reaches the server.
        first.send(#"{"action":"chapter","index":2}"#)
        #expect(await first.waitForLine { line in
            guard let state = Self.player(line) else { return false }
            return state["chapterIndex"] as? Int == 2 && state["status"] as? String == "playing" && (state["positionMs"] as? Int ?? 0) >= 8_500
        } != nil, "\(first.allLines.suffix(5))")
        first.send(#"{"action":"pause"}"#)
        #expect(await first.waitForLine(Self.status("paused")) != nil)
        for _ in 0..<100 where server.acceptedListeningEvents.count < 2 { try await Task.sleep(for: .milliseconds(50)) }
        let spans = server.acceptedListeningEvents
        #expect(spans.count >= 2, "the span before the chapter jump and the one before the pause: \(spans)")
        #expect(spans.allSatisfy { $0.bookID == Self.book && $0.endPositionMs > $0.startPositionMs && $0.playbackSpeed == 1 })
        #expect(Set(spans.map(\.deviceID)).count == 1, "one device id")
        #expect(spans.contains { $0.startPositionMs >= 8_000 })

        // Play on, then the process dies without a chance to save.
        first.send(#"{"action":"resume"}"#)
        let lastSeen = await first.waitForLine(Self.playing(atLeast: 11_500))
        #expect(lastSeen != nil, "\(first.allLines.suffix(5))")
        let killedAt = Self.player(lastSeen ?? [:])?["positionMs"] as? Int ?? 0
        kill(first.process.processIdentifier, SIGKILL)
        _ = await first.waitForExit()

        // The next run starts in the library and resumes within the rules:
        // at most 10 s of position lost, less the 3 s rewind after a pause.
        let second = try HeadlessProcess(home: home, environment: Self.sink)
        #expect(await second.waitForLine(Journey.librarySettled(3)) != nil, "\(second.allLines)\n\(second.stderr)")
        second.send(#"{"action":"play","bookId":"\#(Self.book)"}"#)
        let resumed = await second.waitForLine(Self.status("playing"))
        let position = Self.player(resumed ?? [:])?["positionMs"] as? Int ?? -1
        #expect(position >= killedAt - 13_000 && position <= killedAt, "resumed at \(position) after being killed at \(killedAt)")
        #expect(position >= 8_000 - 3_000, "never before the last pause, less the rewind")
        second.send(#"{"action":"quit"}"#)
        #expect(await second.waitForExit() == 0)
        #expect(!second.stderr.contains("analytical-engine") && !first.stderr.contains("analytical-engine"))
    }

    /// README: a `player` line "every second while it plays". The
    /// positions of two lines in a row, both playing, are never more than
    /// 1.5 s apart (they were 2 s apart every other second when a report
    /// that came a hair early was dropped).
    @Test func aPlayingBookPrintsItsPositionEverySecond() async throws {
        let (server, url) = try await Self.startServer()
        defer { Task { await server.stop() } }
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("listenup-listen-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: home) }
        let app = try await Self.signIn(home: home, url: url)
        app.send(#"{"action":"play","bookId":"\#(Self.book)"}"#)
        #expect(await app.waitForLine(Self.playing(atLeast: 7_000)) != nil, "\(app.allLines.suffix(5))\n\(app.stderr)")
        let states = app.allLines.compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
            .compactMap(Self.player)
        let firstPlaying = try #require(states.firstIndex { $0["status"] as? String == "playing" })
        let playing = states[firstPlaying...]
        var pairs = 0
        for (earlier, later) in zip(playing, playing.dropFirst())
            where earlier["status"] as? String == "playing" && later["status"] as? String == "playing" {
            let from = earlier["positionMs"] as? Int ?? 0, to = later["positionMs"] as? Int ?? 0
            #expect(to - from <= 1_500, "a gap of \(to - from) ms between two player lines: \(from) → \(to)")
            pairs += 1
        }
        #expect(pairs >= 5, "\(playing.map { "\($0["status"] ?? "") \($0["positionMs"] ?? "")" })")
        app.send(#"{"action":"quit"}"#)
        #expect(await app.waitForExit() == 0)
    }

    @Test func anExpiredTokenMidBookIsRefreshedAndPlaybackGoesOn() async throws {
        let (server, url) = try await Self.startServer(tokenLifetime: 3)
        defer { Task { await server.stop() } }
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("listenup-listen-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: home) }
        let app = try await Self.signIn(home: home, url: url)
        app.send(#"{"action":"play","bookId":"\#(Self.book)"}"#)
        #expect(await app.waitForLine(Self.playing(atLeast: 500)) != nil, "\(app.allLines.suffix(5))\n\(app.stderr)")
        try await Task.sleep(for: .seconds(4))
        // Another file: a new request, with the token the engine was given,
        // which has run out (the session may have been refreshed meanwhile
        // by another call: then the fresh token is handed over, no second
        // refresh).
        let audioRequests = server.requestCount("/api/v1/audio")
        app.send(#"{"action":"seek","positionMs":16500}"#)
        #expect(await app.waitForLine(Self.playing(atLeast: 17_500)) != nil, "\(app.allLines.suffix(8))\n\(app.stderr)")
        #expect(server.requestCount("/api/v1/auth/refresh") >= 1)
        #expect(server.requestCount("/api/v1/audio") >= audioRequests + 2, "refused once, then asked again")
        #expect(!app.allLines.contains { $0.contains(#""status":"error""#) }, "\(app.allLines.filter { $0.contains("error") })")
        app.send(#"{"action":"quit"}"#)
        #expect(await app.waitForExit() == 0)
    }

    @Test func refusalsAndCutsGiveClearStatesNotCrashes() async throws {
        let (server, url) = try await Self.startServer()
        defer { Task { await server.stop() } }
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("listenup-listen-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: home) }
        let app = try await Self.signIn(home: home, url: url)

        // GStreamer is loaded on first play, not at start-up.
        let pid = app.process.processIdentifier
        #expect(!Self.mapsGStreamer(pid), "libgstreamer is loaded before anything played")

        // The connection drops mid-file: the player carries on past the cut.
        server.cutNextAudio(after: 64_000)
        app.send(#"{"action":"play","bookId":"\#(Self.book)"}"#)
        #expect(await app.waitForLine(Self.playing(atLeast: 3_500)) != nil, "\(app.allLines.suffix(8))\n\(app.stderr)")
        #expect(Self.mapsGStreamer(pid))
        // The engine starts no thread of its own (the bus's sync handler
        // hands messages to its queue): none is left behind per book played.
        #expect(Self.threads(named: "listenup-gstbus", in: pid) == 0, "\(Self.threadNames(in: pid))")
        app.send(#"{"action":"stop"}"#)
        #expect(await app.waitForLine(Self.status("stopped")) != nil)

        // 403 on the file: an error with its code and a message, then play again works.
        // (Every time: a refusal is answered once with fresh credentials.)
        server.refuseAudio(status: 403, times: 20)
        app.send(#"{"action":"play","bookId":"book-000000000000000000002"}"#)
        let refused = await app.waitForLine(Self.status("error"))
        #expect(Self.player(refused ?? [:])?["code"] as? String == "forbidden", "\(app.allLines.suffix(5))\n\(app.stderr.suffix(3000))")
        let message = Self.player(refused ?? [:])?["message"] as? String
        #expect(message?.contains("does not let") == true, "\(String(describing: message))")

        // Unknown book and bad arguments: clear answers, the app carries on.
        app.send(#"{"action":"play","bookId":"no-such-book"}"#)
        #expect(await app.waitForLine { Self.player($0)?["code"] as? String == "unknownBook" } != nil)
        app.send(#"{"action":"seek"}"#)
        #expect(await app.waitForLine { $0["event"] as? String == "error" && $0["code"] as? String == "badCommand" } != nil)
        app.send(#"{"action":"quit"}"#)
        #expect(await app.waitForExit() == 0)
    }

    /// Whether libgstreamer is mapped into the process.
    static func mapsGStreamer(_ pid: Int32) -> Bool {
        // Read to the end: String(contentsOfFile:) stops after the first page of a /proc file.
        let maps = (try? FileHandle(forReadingAtPath: "/proc/\(pid)/maps")?.readToEnd()) ?? nil
        return String(decoding: maps ?? Data(), as: UTF8.self).contains("libgstreamer-1.0.so")
    }

    /// How many of the process's threads are named `name`.
    static func threads(named name: String, in pid: Int32) -> Int {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
        return tasks.filter { task in
            let comm = (try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/comm", encoding: .utf8)) ?? ""
            return comm.trimmingCharacters(in: .whitespacesAndNewlines) == name
        }.count
    }

    static func threadNames(in pid: Int32) -> [String] {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
        return tasks.map { task in
            ((try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/comm", encoding: .utf8)) ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
        }
    }

    /// The desktop's media controls drive the headless player: `playerctl`
    /// on a private session bus sees the book and pauses it.
    @Test func playerctlSeesAndPausesTheHeadlessPlayer() async throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/playerctl"),
              FileManager.default.isExecutableFile(atPath: "/usr/bin/dbus-daemon") else {
            if ProcessInfo.processInfo.environment["LISTENUP_REQUIRE_DBUS"] == "1" { Issue.record("playerctl or dbus-daemon is missing") }
            return
        }
        let daemon = Process()
        let address = Pipe()
        ChildProcess.configure(daemon, ["/usr/bin/dbus-daemon", "--session", "--nofork", "--nopidfile", "--print-address=1",
                                        "--address=unix:tmpdir=\(FileManager.default.temporaryDirectory.path)"])
        daemon.standardOutput = address
        daemon.standardError = FileHandle.nullDevice
        try daemon.run()
        defer { kill(daemon.processIdentifier, SIGKILL) }
        var line = Data()
        while !line.contains(UInt8(ascii: "\n")) {
            let chunk = address.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            line.append(chunk)
        }
        let bus = String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        func playerctl(_ arguments: String...) throws -> String {
            try ToolProcess.run(["/usr/bin/env", "DBUS_SESSION_BUS_ADDRESS=\(bus)", "DBUS_SYSTEM_BUS_ADDRESS=\(bus)",
                                 "/usr/bin/playerctl", "--player=io.github.listenup.Desktop"] + arguments)
                .output.trimmingCharacters(in: .whitespacesAndNewlines)
        }

        let (server, url) = try await Self.startServer()
        defer { Task { await server.stop() } }
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("listenup-listen-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: home) }
        var environment = Self.sink
        environment["DBUS_SESSION_BUS_ADDRESS"] = bus
        let app = try HeadlessProcess(home: home, environment: environment)
        app.send(#"{"action":"connect","url":"\#(url)"}"#)
        #expect(await app.waitForLine(Journey.onRoute("login")) != nil, "\(app.allLines)\n\(app.stderr)")
        app.send(#"{"action":"login","email":"ada@example.com","password":"analytical-engine"}"#)
        #expect(await app.waitForLine(Journey.librarySettled(3)) != nil)
        app.send(#"{"action":"play","bookId":"\#(Self.book)"}"#)
        #expect(await app.waitForLine(Self.playing(atLeast: 1_000)) != nil)
        var status = ""
        for _ in 0..<50 {
            status = try playerctl("status")
            if status == "Playing" { break }
            try await Task.sleep(for: .milliseconds(100))
        }
        #expect(status == "Playing", "\(app.stderr.suffix(2000))")
        #expect(try playerctl("metadata", "title") == "The Salt Observatory 1")
        _ = try playerctl("pause")
        let paused = await app.waitForLine(Self.status("paused"))
        #expect(paused != nil, "\(app.allLines.suffix(3))")
        // Paused where it was (chapter 0, or already 1 on a slow machine):
        // `next` is one chapter on from there.
        let chapter = paused.flatMap { Self.player($0)?["chapterIndex"] as? Int } ?? 0
        let mark = app.allLines.count
        _ = try playerctl("next")
        #expect(await app.waitForLine(after: mark) { Self.player($0)?["chapterIndex"] as? Int == chapter + 1 } != nil,
                "next = the next chapter")
        app.send(#"{"action":"quit"}"#)
        #expect(await app.waitForExit() == 0)
    }
}
