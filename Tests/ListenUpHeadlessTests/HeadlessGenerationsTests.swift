import DemoServer
import Foundation
import ListenUpTestSupport
import Testing

/// The whole first journey against either server generation, with the same
/// assertions: the Go server's REST v1 and today's Kotlin server's kRPC,
/// both served by the demo server, the real `listenup --headless` in a
/// child process. Nothing the user sees may tell them apart.
@Suite("One journey, both server generations", .serialized)
struct HeadlessGenerationsTests {
    typealias Journey = HeadlessJourneyTests
    typealias Listening = HeadlessPlaybackTests

    /// Where each generation counts a sign-in.
    static func loginKey(_ wire: DemoProtocol) -> String {
        wire == .krpc ? "AuthServicePublic.login" : "/api/v1/auth/login"
    }

    /// Where each generation counts a server check (verification).
    static func checkKey(_ wire: DemoProtocol) -> String {
        wire == .krpc ? "InstanceService.getServerInfo" : "/api/v1/instance"
    }

    /// How many server checks Sign in adds for whether the server takes new
    /// accounts: REST v1 reads the instance again; today's server is
    /// followed instead (`observeRegistrationPolicy`, counted apart).
    static func signInChecks(_ wire: DemoProtocol) -> Int {
        wire == .krpc ? 0 : 1
    }

    static let policyWatchKey = "AuthServicePublic.observeRegistrationPolicy"

    static func startServer(_ wire: DemoProtocol, books: Int, admin: Bool = false) async throws -> (DemoServer, String) {
        var configuration = DemoServer.Configuration()
        configuration.bookCount = books
        configuration.chapterSeconds = 4
        configuration.protocol = wire
        // kRPC finds a revoked session when its event stream's liveness check runs.
        configuration.krpc.sessionCheckInterval = 1
        if admin { configuration.admin = .init(email: "ada@example.com", password: "analytical-engine") }
        // Its own address: the generation test starts another server on this one's port.
        configuration.host = Loopback.privateAddress()
        let server = DemoServer(configuration: configuration)
        try await server.start()
        return (server, try #require(server.baseURL).absoluteString)
    }

    /// The journey's library: the size the issue asks the journey to hold.
    static let libraryBooks = 10_000

    @Test(arguments: [DemoProtocol.rest, DemoProtocol.krpc])
    func connectCreateAdminFollowSignOutSignInRestartListenAndGoOffline(protocol wire: DemoProtocol) async throws {
        let books = Self.libraryBooks
        let (server, url) = try await Self.startServer(wire, books: books)
        var stopped = false
        defer { if !stopped { Task { await server.stop() } } }
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("listenup-generations-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: home) }

        // Connect (the generation is found), create the admin, the library.
        let first = try HeadlessProcess(home: home, environment: Listening.sink)
        #expect(await first.waitForLine(Journey.onRoute("serverSetup")) != nil)
        first.send(#"{"action":"connect","url":"\#(url)"}"#)
        #expect(await first.waitForLine(Journey.onRoute("adminSetup")) != nil, "\(first.allLines)\n\(first.stderr)")
        first.send(#"{"action":"setupAdmin","name":"Ada Lovelace","email":"ada@example.com","password":"analytical-engine"}"#)
        let settled = await first.waitForLine(timeout: 120, Journey.librarySettled(books))
        #expect(settled != nil, "\(first.allLines.suffix(5))\n\(first.stderr.suffix(3000))")
        #expect(Journey.state(settled)?["user"] as? String == "Ada Lovelace")

        // A live update: a book added on the server shows up by itself,
        // once the live events are open (REST v1 replays none: a book added
        // before the stream opens waits for the next sync).
        for _ in 0..<200 where server.eventStreamCount == 0 { try await Task.sleep(for: .milliseconds(50)) }
        try #require(server.eventStreamCount > 0, "the live events are open")
        let added = server.addBook(title: "A Brand New Book")
        let grown = await first.waitForLine(Journey.libraryLoaded(books + 1))
        #expect(grown != nil, "\(first.allLines.suffix(3))")
        let ids = (Journey.state(grown)?["books"] as? [[String: Any]])?.compactMap { $0["id"] as? String } ?? []
        #expect(ids.contains(added))

        // Sign out, sign in again.
        first.send(#"{"action":"logout"}"#)
        #expect(await first.waitForLine(Journey.onRoute("login")) != nil, "\(first.allLines.suffix(3))")
        let signedOut = first.allLines.count
        first.send(#"{"action":"login","email":"ada@example.com","password":"analytical-engine"}"#)
        #expect(await first.waitForLine(after: signedOut, timeout: 120, Journey.librarySettled(books + 1)) != nil, "\(first.allLines.suffix(3))")
        first.send(#"{"action":"quit"}"#)
        #expect(await first.waitForExit() == 0)

        // A restart goes straight to the library (no password, no probe) and plays.
        let logins = server.requestCount(Self.loginKey(wire))
        let checks = server.requestCount(Self.checkKey(wire))
        // Verified once when connecting; Sign in (after signing out) asked
        // whether the server takes new accounts.
        #expect(checks == 1 + Self.signInChecks(wire), "verified once, when connecting, and read by Sign in on REST v1")
        if wire == .krpc { #expect(server.requestCount(Self.policyWatchKey) >= 1, "Sign in follows the registration policy") }
        let second = try HeadlessProcess(home: home, environment: Listening.sink)
        #expect(await second.waitForLine(timeout: 60, Journey.librarySettled(books + 1)) != nil, "\(second.allLines)\n\(second.stderr.suffix(3000))")
        #expect(server.requestCount(Self.loginKey(wire)) == logins)
        #expect(server.requestCount(Self.checkKey(wire)) == checks, "the saved generation is used: no second check")
        #expect(!second.allLines.contains { $0.contains(#""route":"login""#) || $0.contains(#""route":"serverSetup""#) })
        second.send(#"{"action":"play","bookId":"\#(Listening.book)"}"#)
        let playing = await second.waitForLine(Listening.playing(atLeast: 1_500))
        #expect(playing != nil, "\(second.allLines.suffix(5))\n\(second.stderr.suffix(3000))")
        #expect(Listening.player(playing ?? [:])?["durationMs"] as? Int ?? 0 > 8_000)
        second.send(#"{"action":"pause"}"#)
        #expect(await second.waitForLine(Listening.status("paused")) != nil)
        for _ in 0..<100 where server.acceptedListeningEvents.isEmpty { try await Task.sleep(for: .milliseconds(50)) }
        let spans = server.acceptedListeningEvents
        #expect(!spans.isEmpty, "the span before the pause reached the server")
        #expect(spans.allSatisfy { $0.bookID == Listening.book && $0.endPositionMs > $0.startPositionMs && $0.playbackSpeed == 1 })
        #expect(spans.contains { $0.endPositionMs >= 1_500 })
        second.send(#"{"action":"quit"}"#)
        #expect(await second.waitForExit() == 0)

        // The server goes away: the next start shows the library from the cache.
        await server.stop()
        stopped = true
        let third = try HeadlessProcess(home: home, environment: Listening.sink)
        let offline = await third.waitForLine(timeout: 60) { line in
            Journey.libraryLoaded(books + 1)(line) && Journey.state(line)?["offline"] as? Bool == true
        }
        #expect(offline != nil, "\(third.allLines.suffix(5))\n\(third.stderr.suffix(2000))")
        third.send(#"{"action":"quit"}"#)
        #expect(await third.waitForExit() == 0)
        for app in [first, second, third] {
            #expect(!app.stderr.contains("analytical-engine"), "the password reached the log")
        }
    }

    /// The user's server is upgraded (or rolled back) to the other
    /// generation at the same address: the saved session belongs to the old
    /// one. The app finds out at its next start, checks the server again,
    /// saves the new generation and asks the user to sign in; the library
    /// then syncs over the new protocol.
    @Test(arguments: [DemoProtocol.rest, DemoProtocol.krpc])
    func aServerThatChangedGenerationIsCheckedAgainAndSignedInTo(from old: DemoProtocol) async throws {
        let new: DemoProtocol = old == .rest ? .krpc : .rest
        let (before, url) = try await Self.startServer(old, books: 4, admin: true)
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("listenup-upgrade-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: home) }
        let first = try HeadlessProcess(home: home)
        first.send(#"{"action":"connect","url":"\#(url)"}"#)
        #expect(await first.waitForLine(Journey.onRoute("login")) != nil, "\(first.allLines)\n\(first.stderr.suffix(2000))")
        first.send(#"{"action":"login","email":"ada@example.com","password":"analytical-engine"}"#)
        #expect(await first.waitForLine(Journey.librarySettled(4)) != nil, "\(first.allLines.suffix(3))")
        first.send(#"{"action":"quit"}"#)
        #expect(await first.waitForExit() == 0)
        await before.stop()

        // The same address now serves the other generation (and a library of 6).
        var configuration = DemoServer.Configuration()
        configuration.bookCount = 6
        configuration.chapterSeconds = 4
        configuration.protocol = new
        configuration.host = URL(string: url)?.host ?? configuration.host
        configuration.port = Int(URL(string: url)?.port ?? 0)
        configuration.admin = .init(email: "ada@example.com", password: "analytical-engine")
        let after = DemoServer(configuration: configuration)
        _ = try await after.start()
        defer { Task { await after.stop() } }

        let second = try HeadlessProcess(home: home)
        let login = await second.waitForLine(timeout: 30) { $0["route"] as? String == "login" && Journey.state($0)?["reason"] is String }
        #expect(login != nil, "\(second.allLines.suffix(5))\n\(second.stderr.suffix(3000))")
        #expect(Journey.state(login)?["reason"] as? String == "serverUpdated")
        #expect(Journey.state(login)?["notice"] as? String == "This server was updated. Sign in again.")
        // Checked again as the new generation; Sign in then reads whether it takes new accounts.
        let checked = 1 + Self.signInChecks(new)
        for _ in 0..<500 where after.requestCount(Self.checkKey(new)) < checked { try await Task.sleep(for: .milliseconds(20)) }
        #expect(after.requestCount(Self.checkKey(new)) == checked, "checked again, as the new generation (and read by Sign in on REST v1)")
        second.send(#"{"action":"login","email":"ada@example.com","password":"analytical-engine"}"#)
        #expect(await second.waitForLine(Journey.librarySettled(6)) != nil, "\(second.allLines.suffix(3))\n\(second.stderr.suffix(3000))")
        second.send(#"{"action":"quit"}"#)
        #expect(await second.waitForExit() == 0)

        // The next start goes straight to the library, over the new generation.
        let third = try HeadlessProcess(home: home)
        #expect(await third.waitForLine(Journey.librarySettled(6)) != nil, "\(third.allLines.suffix(3))\n\(third.stderr.suffix(3000))")
        #expect(after.requestCount(Self.checkKey(new)) == checked, "no check once the generation is saved")
        third.send(#"{"action":"quit"}"#)
        #expect(await third.waitForExit() == 0)
    }

    @Test(arguments: [DemoProtocol.rest, DemoProtocol.krpc])
    func anExpiredTokenIsRefreshedSilentlyAndARevokedSessionLandsOnSignIn(protocol wire: DemoProtocol) async throws {
        let (server, url) = try await Self.startServer(wire, books: 5, admin: true)
        defer { Task { await server.stop() } }
        let app = try HeadlessProcess()
        app.send(#"{"action":"connect","url":"\#(url)"}"#)
        #expect(await app.waitForLine(Journey.onRoute("login")) != nil, "\(app.allLines)\n\(app.stderr.suffix(2000))")
        app.send(#"{"action":"login","email":"ada@example.com","password":"analytical-engine"}"#)
        #expect(await app.waitForLine(Journey.librarySettled(5)) != nil, "\(app.allLines.suffix(3))")

        // The access token runs out and every connection drops: the app
        // reconnects, refreshes once and carries on without a word.
        server.expireAccessTokens()
        server.dropEventStreams()
        let mark = app.allLines.count
        app.send(#"{"action":"reload"}"#)
        #expect(await app.waitForLine(after: mark, Journey.librarySettled(5)) != nil, "\(app.allLines.suffix(3))")
        let refreshKey = wire == .krpc ? "AuthServicePublic.refreshSession" : "/api/v1/auth/refresh"
        for _ in 0..<100 where server.requestCount(refreshKey) == 0 { try await Task.sleep(for: .milliseconds(50)) }
        #expect(server.requestCount(refreshKey) == 1)
        #expect(!app.allLines.contains { $0.contains(#""route":"login""#) && $0.contains("sessionLapsed") })

        // The session is revoked on the server: sign in again, with a message.
        server.revokeAllSessions()
        app.send(#"{"action":"reload"}"#)
        let login = await app.waitForLine { $0["route"] as? String == "login" && Journey.state($0)?["notice"] is String }
        #expect((Journey.state(login)?["notice"] as? String)?.contains("session has ended") == true, "\(app.allLines.suffix(5))")
        #expect(Journey.state(login)?["reason"] as? String == "sessionEnded")
        app.send(#"{"action":"quit"}"#)
        #expect(await app.waitForExit() == 0)
    }
}
