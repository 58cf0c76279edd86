import DemoServer
import Foundation
import ListenUpCore
import Testing

/// The first user journey end to end: the real `listenup --headless` in a
/// child process with no display, against the demo server on loopback.
@Suite("Headless journeys against the demo server", .serialized)
struct HeadlessJourneyTests {
    static func startServer(books: Int = 120, admin: Bool = false, tokenLifetime: TimeInterval? = nil) async throws -> (DemoServer, String) {
        var configuration = DemoServer.Configuration()
        configuration.bookCount = books
        // Tests here count attempts: none may come back mid-test.
        configuration.rateLimitsRefill = false
        if admin { configuration.admin = .init(email: "ada@example.com", password: "analytical-engine") }
        if let tokenLifetime { configuration.accessTokenLifetime = tokenLifetime }
        let server = DemoServer(configuration: configuration)
        try await server.start()
        return (server, try #require(server.baseURL).absoluteString)
    }

    static func state(_ line: [String: Any]?) -> [String: Any]? { line?["state"] as? [String: Any] }

    /// The first `failed` sign-in state after a `signingIn` one (for
    /// ``HeadlessProcess/waitForLine(after:timeout:_:)``, which reads the
    /// lines in order, once each).
    static func failedAttempt() -> ([String: Any]) -> Bool {
        let signingIn = LockedValue(false)
        return { line in
            guard let status = state(line)?["status"] as? String else { return false }
            if status == "signingIn" { signingIn.value = true }
            return signingIn.value && status == "failed"
        }
    }

    static func onRoute(_ route: String) -> ([String: Any]) -> Bool {
        { $0["event"] as? String == "route" && $0["route"] as? String == route }
    }

    static func libraryLoaded(_ count: Int) -> ([String: Any]) -> Bool {
        { line in
            guard line["route"] as? String == "library", let state = line["state"] as? [String: Any] else { return false }
            return state["status"] as? String == "loaded" && (state["bookCount"] as? Int) == count
        }
    }

    /// Loaded, the first sync over and the event stream connected. A test
    /// that changes the server's sessions waits for this: before it, a
    /// `reload` can be ignored as a sync still runs, and the stream's first
    /// connection can meet the change before the sync does.
    static func librarySettled(_ count: Int) -> ([String: Any]) -> Bool {
        { line in
            guard libraryLoaded(count)(line), let state = state(line) else { return false }
            return state["live"] as? Bool == true && state["sync"] == nil
        }
    }

    @Test func freshServerToAdminToLibraryThenBackAfterARestart() async throws {
        let (server, url) = try await Self.startServer(books: 120)
        defer { Task { await server.stop() } }
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("listenup-journey-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: home) }

        let first = try HeadlessProcess(home: home)
        #expect(await first.waitForLine(Self.onRoute("serverSetup")) != nil)
        first.send(#"{"action":"connect","url":"\#(url)"}"#)
        #expect(await first.waitForLine(Self.onRoute("adminSetup")) != nil, "\(first.allLines)\n\(first.stderr)")
        first.send(#"{"action":"setupAdmin","name":"Ada Lovelace","email":"ada@example.com","password":"analytical-engine"}"#)
        #expect(await first.waitForLine(Self.onRoute("library")) != nil, "\(first.allLines)")
        let loaded = await first.waitForLine(Self.libraryLoaded(120))
        #expect(Self.state(loaded)?["user"] as? String == "Ada Lovelace")
        first.send(#"{"action":"quit"}"#)
        #expect(await first.waitForExit() == 0)
        #expect(!first.stderr.contains("analytical-engine"), "the password reached the log")

        // Restart: straight to the library, no password.
        let logins = server.requestCount("/api/v1/auth/login")
        let second = try HeadlessProcess(home: home)
        #expect(await second.waitForLine(Self.onRoute("library")) != nil, "\(second.allLines)\n\(second.stderr)")
        #expect(await second.waitForLine(Self.libraryLoaded(120)) != nil)
        #expect(server.requestCount("/api/v1/auth/login") == logins)
        #expect(!second.allLines.contains { $0.contains("\"route\":\"login\"") })
        second.closeInput()
        #expect(await second.waitForExit() == 0)
    }

    @Test func anExpiredTokenIsRefreshedSilently() async throws {
        let (server, url) = try await Self.startServer(books: 30, admin: true)
        defer { Task { await server.stop() } }
        let app = try HeadlessProcess()
        app.send(#"{"action":"connect","url":"\#(url)"}"#)
        #expect(await app.waitForLine(Self.onRoute("login")) != nil, "\(app.allLines)")
        app.send(#"{"action":"login","email":"ada@example.com","password":"analytical-engine"}"#)
        #expect(await app.waitForLine(Self.librarySettled(30)) != nil, "\(app.allLines)")
        // REST v1 reads the books' delta once more when the live events
        // open (LibrarySyncSession): counted before the token expires.
        for _ in 0..<500 where !app.stderr.contains("Caught up after connecting") {
            try await Task.sleep(for: .milliseconds(20))
        }
        let synced = server.requestCount("/api/v1/sync/books")
        server.expireAccessTokens()
        let reloaded = app.send(#"{"action":"reload"}"#)
        // The cached books show at once; the delta sync behind them hits the
        // 401 and refreshes the token without a word to the user.
        let deadline = Date().addingTimeInterval(10)
        while server.requestCount("/api/v1/sync/books") < synced + 2, Date() < deadline { try await Task.sleep(for: .milliseconds(20)) }
        #expect(server.requestCount("/api/v1/auth/refresh") == 1)
        #expect(server.requestCount("/api/v1/sync/books") == synced + 2, "the refused delta, then the retried delta")
        #expect(await app.waitForLine(after: reloaded, Self.libraryLoaded(30)) != nil, "the books after the reload")
        #expect(!app.allLines.contains { $0.contains("\"route\":\"login\"") && $0.contains("sessionLapsed") })
        app.send(#"{"action":"quit"}"#)
        #expect(await app.waitForExit() == 0)
    }

    @Test func aRevokedSessionLandsOnSignInWithAMessage() async throws {
        let (server, url) = try await Self.startServer(books: 10, admin: true)
        defer { Task { await server.stop() } }
        let app = try HeadlessProcess()
        app.send(#"{"action":"connect","url":"\#(url)"}"#)
        _ = await app.waitForLine(Self.onRoute("login"))
        app.send(#"{"action":"login","email":"ada@example.com","password":"analytical-engine"}"#)
        #expect(await app.waitForLine(Self.librarySettled(10)) != nil)
        server.revokeAllSessions()
        app.send(#"{"action":"reload"}"#)
        let login = await app.waitForLine { $0["route"] as? String == "login" && Self.state($0)?["notice"] is String }
        #expect((Self.state(login)?["notice"] as? String)?.contains("session has ended") == true, "\(app.allLines)")
        app.send(#"{"action":"quit"}"#)
        #expect(await app.waitForExit() == 0)
    }

    @Test func elevenFastBadLoginsShowTheRateLimitMessage() async throws {
        let (server, url) = try await Self.startServer(books: 1, admin: true)
        defer { Task { await server.stop() } }
        let app = try HeadlessProcess()
        app.send(#"{"action":"connect","url":"\#(url)"}"#)
        _ = await app.waitForLine(Self.onRoute("login"))
        // Each attempt's own answer: the first failure after its signingIn
        // (the page prints its state again when other things change, so a
        // count of failed lines could run ahead and send a login while the
        // last one is under way, which the page ignores).
        var failures: [[String: Any]] = []
        for attempt in 1...11 {
            let sent = app.send(#"{"action":"login","email":"ada@example.com","password":"wrong-\#(attempt)"}"#)
            if let failed = await app.waitForLine(after: sent, Self.failedAttempt()) { failures.append(failed) }
        }
        #expect(failures.count == 11, "\(app.allLines)")
        #expect(failures.prefix(10).allSatisfy { Self.state($0)?["code"] as? String == "invalidCredentials" })
        let last = Self.state(failures.last)
        #expect(last?["code"] as? String == "rateLimited")
        #expect((last?["message"] as? String)?.contains("Wait a minute") == true)
        #expect(!app.stderr.contains("wrong-"), "a password reached the log")
        app.send(#"{"action":"quit"}"#)
        #expect(await app.waitForExit() == 0)
    }

    @Test func signOutReturnsToSignIn() async throws {
        let (server, url) = try await Self.startServer(books: 5, admin: true)
        defer { Task { await server.stop() } }
        let app = try HeadlessProcess()
        app.send(#"{"action":"connect","url":"\#(url)"}"#)
        _ = await app.waitForLine(Self.onRoute("login"))
        app.send(#"{"action":"login","email":"ada@example.com","password":"analytical-engine"}"#)
        #expect(await app.waitForLine(Self.libraryLoaded(5)) != nil)
        app.send(#"{"action":"logout"}"#)
        let routes = await app.waitForLines(count: 2, Self.onRoute("login"))
        #expect(routes.count == 2, "\(app.allLines)")
        #expect(server.requestCount("/api/v1/auth/logout") == 1)
        app.send(#"{"action":"quit"}"#)
        #expect(await app.waitForExit() == 0)
    }

    @Test func searchAndSortFromTheCommandLineAndTheSortIsKeptAcrossARestart() async throws {
        let (server, url) = try await Self.startServer(books: 40, admin: true)
        defer { Task { await server.stop() } }
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("listenup-search-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: home) }
        func state(_ app: HeadlessProcess, after mark: Int = 0, _ match: @escaping ([String: Any]) -> Bool) async -> [String: Any]? {
            Self.state(await app.waitForLine(after: mark) { $0["route"] as? String == "library" && (Self.state($0).map(match) ?? false) })
        }

        let app = try HeadlessProcess(home: home)
        app.send(#"{"action":"connect","url":"\#(url)"}"#)
        _ = await app.waitForLine(Self.onRoute("login"))
        app.send(#"{"action":"login","email":"ada@example.com","password":"analytical-engine"}"#)
        #expect(await app.waitForLine(Self.libraryLoaded(40)) != nil)

        // Every generated title ends in its number: "17" finds one book.
        let searched = app.send(#"{"action":"search","query":"17"}"#)
        let found = await state(app, after: searched) { $0["query"] as? String == "17" }
        #expect(found?["visibleCount"] as? Int == 1, "\(app.allLines.suffix(3))")
        let titles = (found?["books"] as? [[String: Any]])?.compactMap { $0["title"] as? String }
        #expect(titles?.count == 1 && titles?.first?.hasSuffix(" 17") == true, "\(titles ?? [])")
        // After the search is cleared, not the library as first loaded.
        let cleared = app.send(#"{"action":"search","query":""}"#)
        #expect(await state(app, after: cleared) { $0["query"] as? String == "" && $0["visibleCount"] as? Int == 40 } != nil)

        let sorted = app.send(#"{"action":"sort","by":"duration"}"#)
        #expect(await state(app, after: sorted) { $0["sort"] as? String == "duration" } != nil)
        app.send(#"{"action":"sort","by":"loudness"}"#)
        #expect(await app.waitForLine { $0["event"] as? String == "error" && $0["code"] as? String == "badCommand" } != nil)
        app.send(#"{"action":"quit"}"#)
        #expect(await app.waitForExit() == 0)

        // A restart: signed in, from the cache, sorted as left.
        let again = try HeadlessProcess(home: home)
        let restored = await state(again) { $0["status"] as? String == "loaded" && $0["bookCount"] as? Int == 40 }
        #expect(restored?["sort"] as? String == "duration")
        again.send(#"{"action":"quit"}"#)
        #expect(await again.waitForExit() == 0)
    }
}
