import Foundation
import ListenUpTestSupport
import Testing

/// A paired device as a remote, end to end through the real binary: pair
/// with curl from the QR, then drive playback through `/api/v1/player…`
/// (real GStreamer into a `fakesink`, the demo server's audio) and follow
/// it with curl on the event stream. Everything on 127.0.0.1.
@Suite("Headless remote control (child process, loopback)", .serialized)
struct HeadlessRemoteTests {
    typealias Listening = HeadlessPlaybackTests
    typealias Journey = HeadlessJourneyTests

    /// A curl pinned to the desktop, with the pairing token.
    struct Remote {
        let target: PairingLinkTarget
        let token: String

        func curl(_ path: String, method: String = "GET", body: String? = nil, token: String? = nil) throws -> (status: String, body: String) {
            var arguments = ["curl", "-sk", "--max-time", "10", "--pinnedpubkey", target.pin, "-X", method,
                             "-H", "Authorization: Bearer \(token ?? self.token)", "-w", "\n%{http_code}"]
            if let body { arguments += ["-H", "Content-Type: application/json", "-d", body] }
            let output = try ToolProcess(arguments + ["\(target.base)\(path)"]).finish().output
            let lines = output.split(separator: "\n", omittingEmptySubsequences: false)
            return (String(lines.last ?? ""), lines.dropLast().joined(separator: "\n"))
        }

        func state() throws -> [String: Any] {
            let (status, body) = try curl("/api/v1/player")
            #expect(status == "200", "\(body)")
            return (try JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any]) ?? [:]
        }
    }

    /// Pairs a curl "Curl Phone" with the app (pairing then closed).
    static func pair(_ app: HeadlessProcess, qr png: URL) async throws -> Remote {
        app.send(#"{"action":"openPairing"}"#)
        #expect(await app.waitForLine { $0["event"] as? String == "pairingCode" } != nil, "\(app.stderr.suffix(2000))")
        let decoded = try ToolProcess(["zbarimg", "--raw", "-q", png.path]).finish()
        let target = PairingLinkTarget(uri: decoded.output.trimmingCharacters(in: .newlines))
        let body = #"{"session":"\#(target.fields["session"] ?? "")","code":"\#(target.fields["code"] ?? "")","client_name":"Curl Phone","client_model":"curl"}"#
        let pairing = try ToolProcess(["curl", "-sk", "--max-time", "60", "--pinnedpubkey", target.pin, "-H", "Content-Type: application/json",
                                       "-d", body, "\(target.base)/api/v1/pair"])
        #expect(await app.waitForLine { $0["event"] as? String == "pairingRequest" } != nil)
        app.send(#"{"action":"confirmPairing","accept":true}"#)
        let answer = pairing.finish()
        let reply = try #require(try JSONSerialization.jsonObject(with: Data(answer.output.utf8)) as? [String: Any], "\(answer.output)")
        app.send(#"{"action":"closePairing"}"#)
        return Remote(target: target, token: try #require(reply["token"] as? String))
    }

    /// The `data:` states a curl following the event stream wrote so far.
    static func followed(_ file: URL) -> [[String: Any]] {
        let text = (try? String(contentsOf: file, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap { line in
            guard line.hasPrefix("data:") else { return nil }
            return try? JSONSerialization.jsonObject(with: Data(line.dropFirst(5).utf8)) as? [String: Any]
        }
    }

    /// Whether the follower's stream shows a state that `matches` within 15 s.
    static func follower(_ file: URL, _ matches: ([String: Any]) -> Bool) async -> Bool {
        for _ in 0..<150 {
            if followed(file).contains(where: matches) { return true }
            try? await Task.sleep(for: .milliseconds(100))
        }
        return false
    }

    @Test func pairedDevicesReachTheDesktopAfterARestart() async throws {
        let (server, url) = try await Listening.startServer()
        defer { Task { await server.stop() } }
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("listenup-remote-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: home) }
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        let png = home.appendingPathComponent("qr.png")
        var environment = Listening.sink
        environment["LISTENUP_PAIRING_BIND"] = "127.0.0.1"
        let first = try HeadlessProcess(arguments: ["--headless", "--qr-png", png.path], home: home, environment: environment)
        first.send(#"{"action":"connect","url":"\#(url)"}"#)
        #expect(await first.waitForLine(Journey.onRoute("login")) != nil)
        first.send(#"{"action":"login","email":"ada@example.com","password":"analytical-engine"}"#)
        #expect(await first.waitForLine(Journey.librarySettled(3)) != nil)
        let remote = try await Self.pair(first, qr: png)
        #expect(try remote.curl("/api/v1/player").status == "200")
        first.send(#"{"action":"quit"}"#)
        #expect(await first.waitForExit() == 0)

        // The next run serves the paired device without the pairing screen,
        // at the same address.
        let second = try HeadlessProcess(home: home, environment: environment)
        #expect(await second.waitForLine(Journey.librarySettled(3)) != nil)
        var status = ""
        for _ in 0..<50 where status != "200" {
            status = (try? remote.curl("/api/v1/player").status) ?? ""
            if status != "200" { try await Task.sleep(for: .milliseconds(100)) }
        }
        #expect(status == "200", "\(second.stderr.suffix(2000))")
        #expect(try remote.curl("/api/v1/player/play", method: "POST", body: #"{"bookId":"\#(Listening.book)"}"#).status == "204")
        #expect(await second.waitForLine(Listening.playing(atLeast: 300)) != nil)
        second.send(#"{"action":"quit"}"#)
        #expect(await second.waitForExit() == 0)
    }

    @Test func aPairedCurlDrivesAndFollowsThePlayer() async throws {
        let (server, url) = try await Listening.startServer()
        defer { Task { await server.stop() } }
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("listenup-remote-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: home) }
        let png = home.appendingPathComponent("qr.png")
        var environment = Listening.sink
        environment["LISTENUP_PAIRING_BIND"] = "127.0.0.1"
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        let app = try HeadlessProcess(arguments: ["--headless", "--qr-png", png.path], home: home, environment: environment)
        app.send(#"{"action":"connect","url":"\#(url)"}"#)
        #expect(await app.waitForLine(Journey.onRoute("login")) != nil, "\(app.allLines)\n\(app.stderr)")
        app.send(#"{"action":"login","email":"ada@example.com","password":"analytical-engine"}"#)
        #expect(await app.waitForLine(Journey.librarySettled(3)) != nil)
        let remote = try await Self.pair(app, qr: png)

        // Nothing playing yet; the wrong token is refused.
        #expect(try remote.state()["status"] as? String == "idle")
        #expect(try remote.curl("/api/v1/player", token: "not-a-token").status == "401")
        #expect(try remote.curl("/api/v1/player/pause", method: "POST").status == "409", "nothing loaded")

        // A follower from the start.
        let events = home.appendingPathComponent("events.txt")
        let follower = try ToolProcess(["curl", "-skN", "--pinnedpubkey", remote.target.pin, "-H", "Authorization: Bearer \(remote.token)",
                                        "-o", events.path, "\(remote.target.base)/api/v1/player/events"])
        // It is following once the state at open (nothing playing) is in.
        #expect(await Self.follower(events) { $0["status"] as? String == "idle" })

        // Play a book from the remote: the app plays it and says who asked.
        #expect(try remote.curl("/api/v1/player/play", method: "POST", body: #"{"bookId":"\#(Listening.book)"}"#).status == "204")
        #expect(await app.waitForLine(Listening.playing(atLeast: 500)) != nil, "\(app.allLines.suffix(5))\n\(app.stderr.suffix(2000))")
        let notice = await app.waitForLine { $0["event"] as? String == "remote" }
        #expect(notice?["message"] as? String == "Playing from Curl Phone")
        #expect(try remote.curl("/api/v1/player/play", method: "POST", body: #"{"bookId":"no-such-book"}"#).status == "404")

        // Pause, seek and chapter change: the app's state and the follower's.
        #expect(try remote.curl("/api/v1/player/pause", method: "POST").status == "204")
        #expect(await app.waitForLine(Listening.status("paused")) != nil)
        let sought = app.allLines.count
        #expect(try remote.curl("/api/v1/player/seek", method: "POST", body: #"{"positionMs":6000}"#).status == "204")
        #expect(await app.waitForLine(after: sought) { (Listening.player($0)?["positionMs"] as? Int).map { (6_000..<6_500).contains($0) } ?? false } != nil)
        // The stream keeps the latest state of each quarter second: the seek
        // is seen before the next change is sent.
        #expect(await Self.follower(events) { ($0["positionMs"] as? Int).map { (6_000..<6_500).contains($0) } ?? false })
        #expect(try remote.curl("/api/v1/player/chapter", method: "POST", body: #"{"index":2}"#).status == "204")
        #expect(await app.waitForLine { Listening.player($0)?["chapterIndex"] as? Int == 2 && Listening.player($0)?["status"] as? String == "paused" }
            != nil, "the new file is ready, still paused \(app.allLines.suffix(4)) \(app.stderr.suffix(2500))")
        #expect(try remote.curl("/api/v1/player/chapter", method: "POST", body: #"{"index":99}"#).status == "400")
        // The new file may still be settling on a busy machine (a moment of
        // `loading` after the app's first `paused`): the remote's state
        // is asked until it is paused again, for up to 10 s.
        var state = try remote.state()
        for _ in 0..<100 where state["status"] as? String != "paused" {
            try await Task.sleep(for: .milliseconds(100))
            state = try remote.state()
        }
        #expect(state["bookId"] as? String == Listening.book)
        #expect(state["status"] as? String == "paused")
        #expect(state["chapterIndex"] as? Int == 2)
        #expect((state["continueListening"] as? [Any]) != nil)

        #expect(await Self.follower(events) { $0["chapterIndex"] as? Int == 2 && $0["status"] as? String == "paused" })
        let seen = Self.followed(events)
        #expect(seen.first?["status"] as? String == "idle", "the state at once: nothing playing")
        #expect(seen.contains { $0["status"] as? String == "playing" && $0["bookId"] as? String == Listening.book })

        // Unpairing ends the stream.
        let started = Date()
        #expect(try remote.curl("/api/v1/pair", method: "DELETE").status == "204")
        _ = follower.finish(timeout: .seconds(10))
        #expect(Date().timeIntervalSince(started) < 3, "the follower's stream closed")
        #expect(try remote.curl("/api/v1/player").status == "401")

        app.send(#"{"action":"quit"}"#)
        #expect(await app.waitForExit() == 0)
    }
}
