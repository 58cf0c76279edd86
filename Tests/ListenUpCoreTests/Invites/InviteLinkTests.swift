import Foundation
import Testing
@testable import ListenUpCore

/// Invite links as both servers' apps make them, and what is not one.
@Suite("Invite links")
struct InviteLinkTests {
    static let code = "Jc4RcX2bQ4qhX2tI0b7Ypw"

    func parsed(_ text: String) throws -> InviteLink {
        try InviteLink.parse(text).get()
    }

    @Test func theAppsShareLinkNamesServerCodeAndRemote() throws {
        let link = try parsed("https://link.listenup.audio/o?t=invite&server=http%3A%2F%2F192.168.1.5%3A8080&code=\(Self.code)"
                              + "&remote=https%3A%2F%2Flistenup.example.com")
        #expect(link.code == Self.code)
        #expect(link.server?.url.absoluteString == "http://192.168.1.5:8080")
        #expect(link.remote?.url.absoluteString == "https://listenup.example.com")
    }

    @Test func theShareLinkDecoderRulesOfTheApps() throws {
        let query = "t=invite&server=https%3A%2F%2Fbooks.example.com&code=\(Self.code)"
        // A trailing slash after /o, any case in the prefix, the legacy fragment form.
        for text in ["https://link.listenup.audio/o/?\(query)", "HTTPS://Link.ListenUp.Audio/O?\(query)",
                     "https://link.listenup.audio/o#\(query)", "  https://link.listenup.audio/o?\(query)\n"] {
            let link = try parsed(text)
            #expect(link.code == Self.code, "\(text)")
            #expect(link.server?.url.absoluteString == "https://books.example.com", "\(text)")
            #expect(link.remote == nil)
        }
        // The fragment wins over the query, as ShareLinkCodec reads it.
        let both = try parsed("https://link.listenup.audio/o?t=invite&server=https%3A%2F%2Fa.example&code=AAAA#\(query)")
        #expect(both.code == Self.code)
        // A blank or unusable remote is dropped; the server alone still works.
        #expect(try parsed("https://link.listenup.audio/o?\(query)&remote=").remote == nil)
        #expect(try parsed("https://link.listenup.audio/o?\(query)&remote=ftp%3A%2F%2Fx").remote == nil)
    }

    @Test func theGoServersJoinLinks() throws {
        let join = try parsed("https://books.example.com/join/\(Self.code)")
        #expect(join.server?.url.absoluteString == "https://books.example.com")
        #expect(join.code == Self.code)
        let withPath = try parsed("http://192.168.1.5:8080/listenup/join/\(Self.code)/")
        #expect(withPath.server?.url.absoluteString == "http://192.168.1.5:8080/listenup")
        #expect(withPath.code == Self.code)
        let scheme = try parsed("listenup://join/\(Self.code)")
        #expect(scheme.server == nil, "the scheme link names no server")
        #expect(scheme.code == Self.code)
        #expect(try parsed("LISTENUP://JOIN/\(Self.code)").code == Self.code)
    }

    @Test func whatIsNotAnInvite() {
        func error(_ text: String) -> InviteLinkError? {
            if case .failure(let error) = InviteLink.parse(text) { return error }
            return nil
        }
        #expect(error("") == .empty)
        #expect(error("   \n") == .empty)
        #expect(error("hello") == .notAnInvite)
        #expect(error("https://example.com/party") == .notAnInvite)
        #expect(error("https://link.listenup.audio/o?t=book&b=book-1") == .notAnInvite, "a book link is not an invite")
        #expect(error("https://link.listenup.audio/other?t=invite&server=https%3A%2F%2Fa.example&code=AAAA") == .notAnInvite)
        #expect(error("https://link.listenup.audio/o/x?t=invite&server=https%3A%2F%2Fa.example&code=AAAA") == .notAnInvite)
        #expect(error("https://link.listenup.audio.evil.example/o?t=invite&server=https%3A%2F%2Fa.example&code=AAAA") == .notAnInvite)
        #expect(error("https://link.listenup.audio/o?t=invite&code=AAAA") == .noServer)
        #expect(error("https://link.listenup.audio/o?t=invite&server=%20&code=AAAA") == .noServer)
        #expect(error("https://link.listenup.audio/o?t=invite&server=https%3A%2F%2Fa.example") == .noCode)
        #expect(error("https://link.listenup.audio/o?t=invite&server=javascript%3Aalert(1)&code=AAAA") == .badServer)
        #expect(error("https://link.listenup.audio/o?t=invite&server=a.example&code=AAAA") == .badServer,
                "a server without its scheme is not what the apps encode")
        #expect(error("ftp://books.example.com/join/AAAA") == .notAnInvite)
        #expect(error("listenup://join/") == .noCode)
        #expect(error("https://books.example.com/join/") == .noCode)
        #expect(error("https://books.example.com/join/..%2F..%2Fadmin") == .badCode, "no path in a code")
        #expect(error("listenup://join/a%00b") == .badCode)
        #expect(error("https://link.listenup.audio/o?t=invite&server=https%3A%2F%2Fa.example&code=%3Cscript%3E") == .badCode)
        #expect(error("https://books.example.com/join/" + String(repeating: "A", count: 300)) == .badCode)
        #expect(error("https://books.example.com/join/AA AA") == .notAnInvite, "no whitespace inside a link")
        #expect(error("https://books.example.com/join/AAAA\u{0}") == .notAnInvite)
        #expect(error(String(repeating: "a", count: InviteLink.maximumLength + 1)) == .notAnInvite)
        #expect(error("https://link.listenup.audio/o?t=invite&server=%E0%A4%A&code=AAAA") == .noServer, "undecodable values are dropped")
    }

    @Test func everyErrorSaysSomethingAndHasACode() {
        let errors: [InviteLinkError] = [.empty, .notAnInvite, .noServer, .badServer, .noCode, .badCode]
        for error in errors {
            #expect(!error.userMessage.isEmpty)
            #expect(!error.code.isEmpty)
        }
        for refusal in InviteRefusal.allCases {
            #expect(!refusal.userMessage.isEmpty)
            #expect(ServerError.invite(refusal).code == refusal.code)
            #expect(ServerError.invite(refusal).userMessage == refusal.userMessage)
        }
    }

    @Test func theKotlinInvalidReasonsReadBack() {
        #expect(InviteRefusal(invalidReason: "This invite has already been used.") == .alreadyClaimed)
        #expect(InviteRefusal(invalidReason: "This invite has expired.") == .expired)
        #expect(InviteRefusal(invalidReason: "Something else") == .unusable)
    }

    @Test func hostileInputNeverCrashes() {
        var generator = SystemRandomNumberGenerator()
        let pieces = ["https://link.listenup.audio/o", "?", "#", "&", "=", "t=invite", "server=", "code=", "%", "%2F", "listenup://join/",
                      "/join/", "http://", "a", "é", "\u{202E}", "+", "//"]
        for _ in 0..<2_000 {
            let text = (0..<Int.random(in: 1...8, using: &generator)).map { _ in pieces.randomElement(using: &generator) ?? "" }.joined()
            if case .success(let link) = InviteLink.parse(text) {
                #expect(InviteLink.isValidCode(link.code), "\(text)")
            }
        }
    }
}
