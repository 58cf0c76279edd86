import DemoServer
import Foundation
import Testing

/// *Use an Invite…* through the real `listenup --headless` against the demo
/// server, on both generations: an invite claimed from server setup (kRPC,
/// the apps' share link) and from sign in (REST v1, the Go join link) lands
/// signed in on the library; expired, used and unknown invites say why,
/// and a bad link never reaches a server.
@Suite("Headless invites", .serialized)
struct HeadlessInviteTests {
    typealias Journey = HeadlessJourneyTests
    typealias Listening = HeadlessPlaybackTests
    typealias Browse = HeadlessBrowseTests

    static func inviteState(_ status: String, _ match: @escaping ([String: Any]) -> Bool = { _ in true }) -> ([String: Any]) -> Bool {
        { line in
            guard line["route"] as? String == "invite", let state = Journey.state(line) else { return false }
            return state["status"] as? String == status && match(state)
        }
    }

    static func shareLink(_ url: String, code: String) -> String {
        let server = url.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? url
        return "https://link.listenup.audio/o?t=invite&server=\(server)&code=\(code)"
    }

    func home() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("listenup-invite-\(UUID().uuidString)")
    }

    @Test func anInviteClaimedFromServerSetupOverKRPC() async throws {
        let (server, url) = try await Browse.startServer(.krpc, books: 4)
        defer { Task { await server.stop() } }
        let code = server.createInvite(email: "grace@example.com", displayName: "Grace Hopper", invitedBy: "Ada L")
        let home = home()
        defer { try? FileManager.default.removeItem(at: home) }
        let app = try HeadlessProcess(home: home, environment: Listening.sink)
        #expect(await app.waitForLine(Journey.onRoute("serverSetup")) != nil)
        app.send(#"{"action":"claimInvite","link":"\#(Self.shareLink(url, code: code))","password":"compiler-1952","displayName":"Amazing Grace","email":"grace@example.com"}"#)
        // Ready, the claim asked for with the link goes at once: the line shows it claiming, with the preview.
        let ready = await app.waitForLine(Self.inviteState("claiming") { state in
            let invite = state["invite"] as? [String: Any]
            return invite?["invitedBy"] as? String == "Ada L" && invite?["serverName"] as? String == "ListenUp Demo"
                && invite?["email"] as? String == "grace@example.com"
        })
        #expect(ready != nil, "the preview is shown: \(app.allLines.suffix(4))")
        #expect(await app.waitForLine(Journey.librarySettled(4)) != nil, "\(app.allLines.suffix(3))")
        #expect(server.isInviteClaimed(code: code))
        #expect(!app.allLines.joined().contains("compiler-1952"), "the password is never printed")
        app.send(#"{"action":"quit"}"#)
        _ = await app.waitForExit()

        // The next launch is signed in to the invite's server as the new account.
        let again = try HeadlessProcess(home: home, environment: Listening.sink)
        #expect(await again.waitForLine(Journey.libraryLoaded(4)) != nil, "\(again.allLines.suffix(3))")
        again.send(#"{"action":"quit"}"#)
        _ = await again.waitForExit()
    }

    @Test func anInviteClaimedFromSignInOverRESTWithTheJoinLink() async throws {
        let (server, url) = try await Browse.startServer(.rest, books: 4)
        defer { Task { await server.stop() } }
        let code = server.createInvite(email: "grace@example.com", displayName: "Grace Hopper")
        let home = home()
        defer { try? FileManager.default.removeItem(at: home) }
        let app = try HeadlessProcess(home: home, environment: Listening.sink)
        app.send(#"{"action":"connect","url":"\#(url)"}"#)
        #expect(await app.waitForLine(Journey.onRoute("login")) != nil, "\(app.allLines)")
        app.send(#"{"action":"claimInvite","link":"\#(url)/join/\#(code)","password":"compiler-1952"}"#)
        #expect(await app.waitForLine(Self.inviteState("claiming") { $0["takesDisplayName"] as? Bool == false }) != nil,
                "\(app.allLines.suffix(4))")
        #expect(await app.waitForLine(Journey.librarySettled(4)) != nil, "\(app.allLines.suffix(3))")
        #expect(server.isInviteClaimed(code: code))

        // Signed in now: another invite is refused until the user signs out.
        let second = server.createInvite(email: "ada@example.org", displayName: "Ada")
        app.send(#"{"action":"claimInvite","link":"\#(url)/join/\#(second)","password":"analytical-1843"}"#)
        let refused = await app.waitForLine { $0["event"] as? String == "error" && $0["code"] as? String == "signedIn" }
        #expect((refused?["message"] as? String)?.contains("Sign out first") == true, "\(app.allLines.suffix(3))")
        #expect(!server.isInviteClaimed(code: second))
        app.send(#"{"action":"quit"}"#)
        _ = await app.waitForExit()
    }

    @Test(arguments: [DemoProtocol.rest, .krpc])
    func invitesThatCannotBeUsedSayWhy(_ wire: DemoProtocol) async throws {
        let (server, url) = try await Browse.startServer(wire, books: 2)
        defer { Task { await server.stop() } }
        let expired = server.createInvite(email: "old@example.com", displayName: "Old", state: .expired)
        let used = server.createInvite(email: "used@example.com", displayName: "Used", state: .claimed)
        let home = home()
        defer { try? FileManager.default.removeItem(at: home) }
        let app = try HeadlessProcess(home: home, environment: Listening.sink)
        #expect(await app.waitForLine(Journey.onRoute("serverSetup")) != nil)
        func link(_ code: String) -> String { wire == .krpc ? Self.shareLink(url, code: code) : "\(url)/join/\(code)" }
        // Go gives no reason: both read "can no longer be used"; Kotlin says which.
        for (code, reason, email) in [(expired, wire == .krpc ? "inviteExpired" : "inviteUnusable", "old@example.com"),
                                      (used, wire == .krpc ? "inviteClaimed" : "inviteUnusable", "used@example.com"),
                                      ("unknown-code", "inviteNotFound", nil)] {
            app.send(#"{"action":"claimInvite","link":"\#(link(code))","password":"compiler-1952"}"#)
            let line = await app.waitForLine(Self.inviteState("unusable") { state in
                state["code"] as? String == reason && (state["invite"] as? [String: Any])?["email"] as? String == email
            })
            #expect(line != nil, "\(code): \(app.allLines.suffix(3))")
            #expect((Journey.state(line)?["message"] as? String)?.isEmpty == false)
        }
        // A link that is not an invite never reaches the server.
        let before = server.requestCount("/api/v1/instance")
        app.send(#"{"action":"claimInvite","link":"https://example.com/party","password":"compiler-1952"}"#)
        #expect(await app.waitForLine({ line in
            line["route"] as? String == "invite" && Journey.state(line)?["code"] as? String == "notAnInvite"
        }) != nil)
        #expect(server.requestCount("/api/v1/instance") == before)
        // Back to where it came from.
        app.send(#"{"action":"changeServer"}"#)
        #expect(await app.waitForLines(count: 2, Journey.onRoute("serverSetup")).count == 2)
        #expect(!server.isInviteClaimed(code: expired))
        app.send(#"{"action":"quit"}"#)
        _ = await app.waitForExit()
    }
}
