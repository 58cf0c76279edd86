import DemoServer
import Foundation
import Testing

/// Create Account through the real `listenup --headless` against the demo
/// server, on both protocols: the entry follows the server's policy, an
/// open kRPC server signs the new member in at once, an approval is
/// waited for live (approved → the library; declined → the declined page),
/// a restart while pending reopens on the waiting page, and each refusal
/// has its code.
@Suite("Headless registration", .serialized)
struct HeadlessRegistrationTests {
    typealias Journey = HeadlessJourneyTests
    typealias Browse = HeadlessBrowseTests

    static func startServer(_ wire: DemoProtocol, registration: DemoServer.RegistrationMode) async throws -> (DemoServer, String) {
        var configuration = DemoServer.Configuration()
        configuration.bookCount = 3
        // Tests here count attempts: none may come back mid-test.
        configuration.rateLimitsRefill = false
        configuration.protocol = wire
        configuration.registration = registration
        configuration.admin = .init(email: "ada@example.com", password: "analytical-engine")
        let server = DemoServer(configuration: configuration)
        try await server.start()
        return (server, try #require(server.baseURL).absoluteString)
    }

    static func onScreen(_ route: String, _ match: @escaping ([String: Any]) -> Bool = { _ in true }) -> ([String: Any]) -> Bool {
        { line in
            guard line["event"] as? String == "state", line["route"] as? String == route, let state = line["state"] as? [String: Any] else {
                return false
            }
            return match(state)
        }
    }

    static func status(_ status: String) -> ([String: Any]) -> Bool { { $0["status"] as? String == status } }

    /// The app on Sign in for `url`, once it knows the server's registration mode.
    static func onSignIn(_ url: String, mode: String, home: URL? = nil) async throws -> HeadlessProcess {
        let app = try HeadlessProcess(home: home)
        app.send(#"{"action":"connect","url":"\#(url)"}"#)
        #expect(await app.waitForLine(onScreen("login") { $0["registration"] as? String == mode }) != nil,
                "\(app.allLines.suffix(3))")
        return app
    }

    static func register(_ app: HeadlessProcess, email: String = "grace@example.com", password: String = "compiler-first") {
        app.send(#"{"action":"register","displayName":"Grace Hopper","email":"\#(email)","password":"\#(password)"}"#)
    }

    @Test(arguments: [DemoProtocol.rest, .krpc])
    func anApprovalIsWaitedForLiveAndLeadsToTheLibrary(_ wire: DemoProtocol) async throws {
        let (server, url) = try await Self.startServer(wire, registration: .approval)
        defer { Task { await server.stop() } }
        let app = try await Self.onSignIn(url, mode: "approval")
        Self.register(app)
        let waiting = await app.waitForLine(Self.onScreen("awaitingApproval", Self.status("pendingApproval")))
        #expect(Journey.state(waiting)?["email"] as? String == "grace@example.com", "\(app.allLines.suffix(3))")
        let pending = try #require(server.pendingRegistrations().first)
        #expect(pending.email == "grace@example.com" && pending.displayName == "Grace Hopper")
        // The watch is open before the decision (a decision later is pushed, not polled).
        try await Task.sleep(for: .milliseconds(500))
        #expect(server.approveRegistration(userID: pending.userID))
        #expect(await app.waitForLine(Journey.onRoute("library")) != nil, "\(app.allLines.suffix(4))")
        #expect(!app.allLines.joined().contains("compiler-first"), "the password is never printed")
    }

    @Test(arguments: [DemoProtocol.rest, .krpc])
    func aDeclineLeadsToTheDeclinedPageAndBackToSignIn(_ wire: DemoProtocol) async throws {
        let (server, url) = try await Self.startServer(wire, registration: .approval)
        defer { Task { await server.stop() } }
        let app = try await Self.onSignIn(url, mode: "approval")
        Self.register(app)
        #expect(await app.waitForLine(Self.onScreen("awaitingApproval")) != nil, "\(app.allLines.suffix(3))")
        let pending = try #require(server.pendingRegistrations().first)
        try await Task.sleep(for: .milliseconds(500))
        server.denyRegistration(userID: pending.userID, reason: "Family only.")
        let declined = Journey.state(await app.waitForLine(Self.onScreen("registrationDeclined", Self.status("declined"))))
        #expect(declined != nil, "\(app.allLines.suffix(3))")
        // kRPC carries the reason; the Go server's stream has none.
        #expect(declined?["reason"] as? String == (wire == .krpc ? "Family only." : nil))
        app.send(#"{"action":"backToSignIn"}"#)
        // Lines are matched from the start: the second Sign in is this one.
        #expect(await app.waitForLines(count: 2, Journey.onRoute("login")).count == 2)
    }

    @Test func anOpenKRPCServerSignsTheNewMemberInAtOnce() async throws {
        let (server, url) = try await Self.startServer(.krpc, registration: .open)
        defer { Task { await server.stop() } }
        let app = try await Self.onSignIn(url, mode: "open")
        Self.register(app)
        #expect(await app.waitForLine(Journey.onRoute("library")) != nil, "\(app.allLines.suffix(4))")
        #expect(server.pendingRegistrations().isEmpty)
    }

    @Test(arguments: [DemoProtocol.rest, .krpc])
    func aClosedServerHidesTheEntryAndRefusesWithItsOwnCode(_ wire: DemoProtocol) async throws {
        let (server, url) = try await Self.startServer(wire, registration: .closed)
        defer { Task { await server.stop() } }
        let app = try await Self.onSignIn(url, mode: "closed")
        Self.register(app)
        let refused = await app.waitForLine { $0["event"] as? String == "error" }
        #expect(refused?["code"] as? String == "registrationClosed", "\(app.allLines.suffix(3))")
        #expect(server.pendingRegistrations().isEmpty)
        // Opened while the app is on Sign in: today's server tells the page
        // at once; REST v1's is read again when the page shows.
        server.setRegistration(.approval)
        if wire == .rest {
            app.send(#"{"action":"changeServer"}"#)
            app.send(#"{"action":"connect","url":"\#(url)"}"#)
        }
        #expect(await app.waitForLine(Self.onScreen("login") { $0["registration"] as? String == "approval" }) != nil,
                "\(app.allLines.suffix(3))")
        if wire == .krpc {
            let opened = app.allLines.count
            server.setRegistration(.closed)
            #expect(await app.waitForLine(after: opened, Self.onScreen("login") { $0["registration"] as? String == "closed" }) != nil,
                    "closed again, live: \(app.allLines.suffix(3))")
        }
    }

    @Test(arguments: [DemoProtocol.rest, .krpc])
    func anEmailInUseIsRefusedWithItsOwnCode(_ wire: DemoProtocol) async throws {
        let (server, url) = try await Self.startServer(wire, registration: .approval)
        defer { Task { await server.stop() } }
        let app = try await Self.onSignIn(url, mode: "approval")
        Self.register(app, email: "ada@example.com")
        let refused = Journey.state(await app.waitForLine(Self.onScreen("createAccount", Self.status("failed"))))
        #expect(refused?["code"] as? String == "emailInUse", "\(app.allLines.suffix(3))")
        // A short password never leaves the app.
        Self.register(app, password: "short")
        let invalid = Journey.state(await app.waitForLine(Self.onScreen("createAccount") { $0["code"] as? String == "invalidForm" }))
        #expect((invalid?["fieldErrors"] as? [String: Any])?["password"] as? String == "Use at least 8 characters.")
    }

    @Test func tooManyRegistrationsAreRateLimited() async throws {
        let (server, url) = try await Self.startServer(.krpc, registration: .approval)
        defer { Task { await server.stop() } }
        let app = try await Self.onSignIn(url, mode: "approval")
        for index in 0..<5 {
            Self.register(app, email: "reader\(index)@example.com")
            #expect(await app.waitForLine(Self.onScreen("awaitingApproval") { $0["email"] as? String == "reader\(index)@example.com" })
                    != nil, "\(app.allLines.suffix(3))")
            app.send(#"{"action":"backToSignIn"}"#)
            // Lines are matched from the start: wait for this round's Sign in.
            #expect(await app.waitForLines(count: index + 2, Journey.onRoute("login")).count == index + 2)
        }
        #expect(server.requestCount("AuthServicePublic.register") == 5)
        Self.register(app, email: "reader5@example.com")
        let limited = Journey.state(await app.waitForLine(Self.onScreen("createAccount", Self.status("failed"))))
        #expect(limited?["code"] as? String == "rateLimited", "\(app.allLines.suffix(6))")
    }

    @Test(arguments: [DemoProtocol.rest, .krpc])
    func aRestartWhilePendingReopensOnTheWaitingPage(_ wire: DemoProtocol) async throws {
        let (server, url) = try await Self.startServer(wire, registration: .approval)
        defer { Task { await server.stop() } }
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("listenup-register-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: home) }
        let first = try await Self.onSignIn(url, mode: "approval", home: home)
        Self.register(first)
        #expect(await first.waitForLine(Self.onScreen("awaitingApproval")) != nil, "\(first.allLines.suffix(3))")
        first.send(#"{"action":"quit"}"#)
        #expect(await first.waitForExit() != nil)
        // Kept for the next start (GSettings' key file under HOME): never the password.
        let files = FileManager.default.enumerator(at: home, includingPropertiesForKeys: nil)?.allObjects.compactMap { $0 as? URL } ?? []
        let kept = files.compactMap { try? Data(contentsOf: $0) }.map { String(decoding: $0, as: UTF8.self) }
        #expect(kept.contains { $0.contains("grace@example.com") }, "the registration is saved")
        #expect(!kept.contains { $0.contains("compiler-first") }, "the password is not")

        let again = try HeadlessProcess(home: home)
        let reopened = Journey.state(await again.waitForLine(Self.onScreen("awaitingApproval")))
        #expect(reopened?["email"] as? String == "grace@example.com", "\(again.allLines.suffix(3))")
        let pending = try #require(server.pendingRegistrations().first)
        try await Task.sleep(for: .milliseconds(500))
        server.approveRegistration(userID: pending.userID)
        // No password was kept: Sign in, with the email filled and a word why.
        let signIn = Journey.state(await again.waitForLine(Self.onScreen("login") { $0["email"] as? String == "grace@example.com" }))
        #expect(signIn?["notice"] as? String == "Your account was approved. Sign in to continue.", "\(again.allLines.suffix(3))")
        again.send(#"{"action":"login","email":"grace@example.com","password":"compiler-first"}"#)
        #expect(await again.waitForLine(Journey.onRoute("library")) != nil, "\(again.allLines.suffix(3))")
        // Settled: a third start opens on Sign in, signed in (the registration is forgotten).
        again.send(#"{"action":"quit"}"#)
        #expect(await again.waitForExit() != nil)
        let third = try HeadlessProcess(home: home)
        #expect(await third.waitForLine(Journey.onRoute("library")) != nil, "\(third.allLines.suffix(3))")
    }
}
