import DemoServer
import Foundation
import Testing

/// Forgot Password through the real `listenup --headless` against the demo
/// server: on kRPC the whole flow (ask, an administrator approves, a wrong
/// code says how many tries are left, the right one changes the password,
/// Sign in shows the notice, the new password signs in and the old one does
/// not), a denial; on REST v1 the entry is not offered and says why.
@Suite("Headless password reset", .serialized)
struct HeadlessPasswordResetTests {
    typealias Journey = HeadlessJourneyTests
    typealias Registration = HeadlessRegistrationTests

    static func startServer(_ wire: DemoProtocol) async throws -> (DemoServer, String) {
        var configuration = DemoServer.Configuration()
        configuration.bookCount = 3
        configuration.protocol = wire
        configuration.krpc.passwordResetPollInterval = 0.5
        configuration.admin = .init(email: "ada@example.com", password: "analytical-engine")
        let server = DemoServer(configuration: configuration)
        try await server.start()
        return (server, try #require(server.baseURL).absoluteString)
    }

    /// The app on Sign in for `url`, once it says whether it offers the reset.
    static func onSignIn(_ url: String, offersReset: Bool) async throws -> HeadlessProcess {
        let app = try HeadlessProcess()
        app.send(#"{"action":"connect","url":"\#(url)"}"#)
        #expect(await app.waitForLine(Registration.onScreen("login") { $0["passwordReset"] as? Bool == offersReset }) != nil,
                "\(app.allLines.suffix(3))")
        return app
    }

    static func step(_ step: String, _ more: @escaping ([String: Any]) -> Bool = { _ in true }) -> ([String: Any]) -> Bool {
        Registration.onScreen("resetPassword") { $0["step"] as? String == step && more($0) }
    }

    @Test func anApprovedResetChangesThePassword() async throws {
        let (server, url) = try await Self.startServer(.krpc)
        defer { Task { await server.stop() } }
        let app = try await Self.onSignIn(url, offersReset: true)
        app.send(#"{"action":"forgotPassword","email":"ada@example.com"}"#)
        let waiting = await app.waitForLine(Self.step("waiting"))
        #expect(Journey.state(waiting)?["email"] as? String == "ada@example.com", "\(app.allLines.suffix(3))")
        let pending = try #require(server.pendingPasswordResets().first)
        #expect(pending.email == "ada@example.com")
        let code = try #require(server.approvePasswordReset(ticketID: pending.ticketID))
        #expect(await app.waitForLine(Self.step("enterCode")) != nil, "\(app.allLines.suffix(3))")

        app.send(#"{"action":"resetPassword","code":"0000-0000","password":"difference-engine"}"#)
        let wrong = Journey.state(await app.waitForLine(Self.step("enterCode") { $0["status"] as? String == "failed" }))
        #expect(wrong?["code"] as? String == "resetCodeIncorrect", "\(app.allLines.suffix(3))")
        #expect(wrong?["message"] as? String == "That code is not right. 4 tries left.")

        app.send(#"{"action":"resetPassword","code":"\#(code.lowercased())","password":"difference-engine"}"#)
        let signIn = Journey.state(await app.waitForLine(Registration.onScreen("login") { $0["reason"] as? String == "passwordChanged" }))
        #expect(signIn?["email"] as? String == "ada@example.com", "\(app.allLines.suffix(3))")
        #expect(signIn?["notice"] as? String == "Your password was changed. Sign in with the new one.")

        app.send(#"{"action":"login","email":"ada@example.com","password":"analytical-engine"}"#)
        let refused = Journey.state(await app.waitForLine(Registration.onScreen("login", Registration.status("failed"))))
        #expect(refused?["code"] as? String == "invalidCredentials", "the old password no longer signs in: \(app.allLines.suffix(3))")
        app.send(#"{"action":"login","email":"ada@example.com","password":"difference-engine"}"#)
        #expect(await app.waitForLine(Journey.onRoute("library")) != nil, "\(app.allLines.suffix(4))")
        #expect(!app.allLines.joined().contains("difference-engine"), "the password is never printed")
    }

    @Test func aDenialEndsTheRequestAndCancelGoesBack() async throws {
        let (server, url) = try await Self.startServer(.krpc)
        defer { Task { await server.stop() } }
        let app = try await Self.onSignIn(url, offersReset: true)
        app.send(#"{"action":"forgotPassword","email":"ada@example.com"}"#)
        #expect(await app.waitForLine(Self.step("waiting")) != nil, "\(app.allLines.suffix(3))")
        let pending = try #require(server.pendingPasswordResets().first)
        #expect(server.denyPasswordReset(ticketID: pending.ticketID))
        let ended = Journey.state(await app.waitForLine(Self.step("ended")))
        #expect(ended?["reason"] as? String == "denied", "\(app.allLines.suffix(3))")
        app.send(#"{"action":"backToSignIn"}"#)
        #expect(await app.waitForLines(count: 2, Journey.onRoute("login")).count == 2)
    }

    @Test func restV1DoesNotOfferIt() async throws {
        let (server, url) = try await Self.startServer(.rest)
        defer { Task { await server.stop() } }
        let app = try await Self.onSignIn(url, offersReset: false)
        app.send(#"{"action":"forgotPassword","email":"ada@example.com"}"#)
        let refused = await app.waitForLine { $0["event"] as? String == "error" }
        #expect(refused?["code"] as? String == "passwordResetUnavailable", "\(app.allLines.suffix(3))")
        #expect(refused?["message"] as? String == "This server can't reset passwords. Ask its administrator.")
    }
}
