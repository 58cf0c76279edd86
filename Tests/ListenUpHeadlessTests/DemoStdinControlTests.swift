import Foundation
import ListenUpTestSupport
import Testing

/// `listenup-demo-server --control-stdin`'s account controls: how a person
/// (or a script) makes an invite and decides a registration on a demo
/// server running in another process, checked over the server's own REST
/// API with curl.
@Suite("The demo server's controls on stdin")
struct DemoStdinControlTests {
    @Test func anInviteIsMadeAndARegistrationDecided() async throws {
        let server = try HeadlessProcess(arguments: ["--port", "0", "--books", "2", "--registration", "approval", "--control-stdin"],
                                         program: "listenup-demo-server")
        defer { server.process.terminate() }
        let listening = await server.waitForLine { $0["event"] as? String == "listening" }
        let url = try #require(listening?["url"] as? String, "\(server.stderr.suffix(2000))")

        // An invite: its code answers the invite lookup, and the link is the Go server's page.
        server.send(#"{"action":"createInvite","email":"grace@example.com","name":"Grace Hopper"}"#)
        let invite = await server.waitForLine { $0["action"] as? String == "createInvite" }
        let code = try #require(invite?["id"] as? String)
        #expect(invite?["link"] as? String == "\(url)/join/\(code)")
        let lookup = try await ChildProcess.run(["curl", "-sS", "--max-time", "10", "\(url)/api/v1/invites/\(code)"])
        #expect(lookup.stdout.contains("grace@example.com"), "\(lookup.stdout)")

        // A registration waits; it is listed, approved, and can then sign in.
        let body = #"{"email":"ada@example.com","password":"analytical-engine","first_name":"Ada","last_name":"Lovelace"}"#
        let registered = try await ChildProcess.run(["curl", "-sS", "--max-time", "10", "-H", "Content-Type: application/json",
                                                     "-d", body, "\(url)/api/v1/auth/register"])
        #expect(registered.status == 0, "\(registered.stderr)")
        server.send(#"{"action":"pendingRegistrations"}"#)
        let pending = await server.waitForLine { $0["action"] as? String == "pendingRegistrations" }
        let registrations = try #require(pending?["registrations"] as? [[String: Any]])
        #expect(registrations.map { $0["email"] as? String } == ["ada@example.com"])
        let user = try #require(registrations.first?["id"] as? String)

        let login = #"{"email":"ada@example.com","password":"analytical-engine","device_info":{"device_type":"desktop","platform":"linux"}}"#
        let waiting = try await ChildProcess.run(["curl", "-sS", "--max-time", "10", "-H", "Content-Type: application/json",
                                                  "-d", login, "\(url)/api/v1/auth/login"])
        #expect(!waiting.stdout.contains("access_token"), "not before the approval: \(waiting.stdout)")

        server.send(#"{"action":"approveRegistration","id":"no-such-user"}"#)
        let refused = await server.waitForLine { $0["event"] as? String == "error" }
        #expect((refused?["message"] as? String)?.contains("no registration") == true)

        server.send(#"{"action":"approveRegistration","id":"\#(user)"}"#)
        let approved = await server.waitForLine { $0["action"] as? String == "approveRegistration" }
        #expect(approved?["id"] as? String == user)
        let signedIn = try await ChildProcess.run(["curl", "-sS", "--max-time", "10", "-H", "Content-Type: application/json",
                                                   "-d", login, "\(url)/api/v1/auth/login"])
        #expect(signedIn.stdout.contains("access_token"), "\(signedIn.stdout)")
    }

    @Test func aPasswordResetIsApprovedFromStdin() async throws {
        let server = try HeadlessProcess(arguments: ["--port", "0", "--books", "2", "--protocol", "krpc", "--admin-email", "ada@example.com",
                                                     "--admin-password", "analytical-engine", "--control-stdin"],
                                         program: "listenup-demo-server")
        defer { server.process.terminate() }
        let listening = await server.waitForLine { $0["event"] as? String == "listening" }
        let url = try #require(listening?["url"] as? String, "\(server.stderr.suffix(2000))")
        server.send(#"{"action":"approvePasswordReset","id":"no-such-ticket"}"#)
        let refused = await server.waitForLine { $0["event"] as? String == "error" }
        #expect((refused?["message"] as? String)?.contains("no password reset") == true)

        let app = try HeadlessProcess()
        defer { app.process.terminate() }
        app.send(#"{"action":"connect","url":"\#(url)"}"#)
        #expect(await app.waitForLine(HeadlessRegistrationTests.onScreen("login") { $0["passwordReset"] as? Bool == true }) != nil)
        app.send(#"{"action":"forgotPassword","email":"ada@example.com"}"#)
        #expect(await app.waitForLine(HeadlessPasswordResetTests.step("waiting")) != nil, "\(app.allLines.suffix(3))")
        server.send(#"{"action":"pendingPasswordResets"}"#)
        let pending = await server.waitForLine { $0["action"] as? String == "pendingPasswordResets" }
        let resets = try #require(pending?["resets"] as? [[String: Any]])
        #expect(resets.map { $0["email"] as? String } == ["ada@example.com"])
        let ticket = try #require(resets.first?["id"] as? String)
        server.send(#"{"action":"approvePasswordReset","id":"\#(ticket)"}"#)
        let approved = await server.waitForLine { $0["action"] as? String == "approvePasswordReset" }
        let code = try #require(approved?["code"] as? String)
        #expect(await app.waitForLine(HeadlessPasswordResetTests.step("enterCode")) != nil, "\(app.allLines.suffix(3))")
        app.send(#"{"action":"resetPassword","code":"\#(code)","password":"difference-engine"}"#)
        let signIn = await app.waitForLine(HeadlessRegistrationTests.onScreen("login") { $0["reason"] as? String == "passwordChanged" })
        #expect(signIn != nil, "\(app.allLines.suffix(3))")
    }
}
