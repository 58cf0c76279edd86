import Foundation
import Testing
@testable import ListenUpCore

/// The invite page's model, with a scripted server: the link checked, the
/// server verified (its remote tried when it is not reached), the invite
/// looked up and claimed, each refusal said, and the auth state moved.
@MainActor
@Suite("Invite model")
struct InviteModelTests {
    nonisolated static let code = "Jc4RcX2bQ4qhX2tI0b7Ypw"
    nonisolated static let link = "https://link.listenup.audio/o?t=invite&server=http%3A%2F%2F127.0.0.1%3A9&code=\(code)"
        + "&remote=http%3A%2F%2F127.0.0.1%3A10"
    nonisolated static let invite = InvitePreview(displayName: "Grace Hopper", email: "grace@example.com", invitedByName: "Ada L",
                                      serverName: "Shelf")

    /// What the scripted server saw and answers.
    nonisolated final class Script: @unchecked Sendable {
        // @unchecked Sendable: every field is behind `lock`.
        private let lock = NSLock()
        private var _verified: [String] = []
        private var _claims: [(code: String, password: String, name: String?)] = []
        private var _remembered: [URL] = []
        var unreachable: Set<String> = []
        var generation = ServerGeneration.krpc
        var lookUp: Result<InvitePreview, ServerError> = .success(InviteModelTests.invite)
        var claim: Result<Void, ServerError> = .success(())

        var verified: [String] { lock.withLock { _verified } }
        var claims: [(code: String, password: String, name: String?)] { lock.withLock { _claims } }
        var remembered: [URL] { lock.withLock { _remembered } }

        var client: InviteClient {
            InviteClient(
                verify: { address in
                    let url = address.url.absoluteString
                    self.lock.withLock { self._verified.append(url) }
                    if self.lock.withLock({ self.unreachable.contains(url) }) { return .failure(.unreachable) }
                    return .success(VerifiedServer(url: address.url, instanceID: "lib-1", name: "Shelf", setupRequired: false,
                                                   generation: self.lock.withLock { self.generation }))
                },
                lookUp: { _, code in
                    self.lock.withLock { code == InviteModelTests.code ? self.lookUp : .failure(.invite(.notFound)) }
                },
                claim: { server, claim in
                    let answer = self.lock.withLock {
                        self._claims.append((claim.code, claim.password, claim.displayName))
                        return self.claim
                    }
                    switch answer {
                    case .success: return .success(Session.offline(serverURL: server.url, userID: "user-2", displayName: "Grace"))
                    case .failure(let error): return .failure(error)
                    }
                },
                remember: { server in self.lock.withLock { self._remembered.append(server.url) } })
        }
    }

    let events = LockedValue<[AuthEvent]>([])
    let script = Script()

    func makeModel(start: InviteStart = InviteStart()) -> InviteModel {
        let events = events
        return InviteModel(start: start, client: script.client, send: { event in events.withLock { $0.append(event) } })
    }

    func settle(_ model: InviteModel) async {
        for _ in 0..<1000 where [.checking, .claiming].contains(model.status) { try? await Task.sleep(for: .milliseconds(5)) }
    }

    @Test func aPastedLinkIsLookedUpAndClaimedWhichSignsIn() async throws {
        let model = makeModel()
        #expect(!model.canLookUp)
        model.send(.linkChanged(Self.link))
        model.send(.lookUp)
        #expect(model.status == .checking)
        await settle(model)
        #expect(model.status == .ready)
        #expect(model.preview == Self.invite)
        #expect(model.displayName == "Grace Hopper", "prefilled with the invite's name")
        #expect(model.takesDisplayName)
        #expect(!model.canClaim, "no password yet")
        model.send(.passwordChanged("short"))
        #expect(model.passwordProblem == "Use at least 8 characters.")
        #expect(!model.canClaim)
        model.send(.passwordChanged("compiler-1952"))
        model.send(.displayNameChanged("Grace B. Hopper"))
        #expect(model.canClaim)
        model.send(.claim)
        await settle(model)
        let claim = try #require(script.claims.first)
        #expect(claim.code == Self.code && claim.password == "compiler-1952" && claim.name == "Grace B. Hopper")
        guard case .signedIn(let session)? = events.value.last else {
            Issue.record("\(events.value)")
            return
        }
        #expect(session.userID == "user-2")
        #expect(model.password.isEmpty, "the password is not kept")
        #expect(script.remembered.map(\.absoluteString) == ["http://127.0.0.1:9"], "the server is saved for the next launch")
    }

    @Test func theRemoteIsTriedWhenTheServerIsNotReached() async {
        script.unreachable = ["http://127.0.0.1:9"]
        let model = makeModel(start: InviteStart(link: Self.link))
        await settle(model)
        #expect(script.verified == ["http://127.0.0.1:9", "http://127.0.0.1:10"])
        #expect(model.status == .ready)
        #expect(model.server?.url.absoluteString == "http://127.0.0.1:10")
    }

    @Test func refusalsAreSaidPlainly() async {
        // The preview says it cannot be used: the reason, and no form.
        var used = Self.invite
        used.problem = .alreadyClaimed
        script.lookUp = .success(used)
        let model = makeModel(start: InviteStart(link: Self.link))
        await settle(model)
        #expect(model.status == .unusable(.alreadyClaimed))
        #expect(model.errorMessage == InviteRefusal.alreadyClaimed.userMessage)
        #expect(model.preview?.invitedByName == "Ada L", "who invited you is still shown")
        #expect(!model.canClaim)
        // Unknown code.
        model.send(.anotherLink)
        #expect(model.status == .editing && model.preview == nil)
        model.send(.linkChanged("https://books.example.com/join/AAAA"))
        model.send(.lookUp)
        await settle(model)
        #expect(model.status == .unusable(.notFound))
        // A bad link never reaches a server.
        let before = script.verified.count
        model.send(.linkChanged("https://example.com/party"))
        #expect(model.status == .editing)
        model.send(.lookUp)
        #expect(model.status == .failed(code: "notAnInvite", message: InviteLinkError.notAnInvite.userMessage))
        #expect(script.verified.count == before)
        #expect(!model.canLookUp, "the refused link cannot be sent again as it is")
        model.send(.linkChanged("https://example.com/party/"))
        #expect(model.canLookUp, "an edited one can")
        // A server that is not reached (and no remote).
        script.unreachable = ["https://books.example.com"]
        model.send(.linkChanged("https://books.example.com/join/AAAA"))
        model.send(.lookUp)
        await settle(model)
        #expect(model.status.isFailure(code: "unreachable"))
    }

    @Test func aClaimRefusedKeepsTheFormOrSaysTheInviteWentStale() async {
        script.claim = .failure(.server(status: 400, message: "Choose a password of 8 to 1024 characters."))
        let model = makeModel(start: InviteStart(link: Self.link))
        await settle(model)
        model.send(.passwordChanged("compiler-1952"))
        model.send(.claim)
        await settle(model)
        #expect(model.status == .claimFailed(code: "rejected", message: "Choose a password of 8 to 1024 characters."))
        model.send(.displayNameChanged(model.displayName))
        #expect(model.status.isFailure(code: "rejected"), "writing the same name back is not an edit")
        model.send(.passwordChanged("compiler-1953"))
        #expect(model.status == .ready, "typing again clears the error")
        script.claim = .failure(.invite(.expired))
        model.send(.claim)
        await settle(model)
        #expect(model.status == .unusable(.expired))
        #expect(events.value.isEmpty, "nobody signed in")
    }

    @Test func aSchemeLinkUsesTheServerTheAppKnowsOrSaysItKnowsNone() async {
        let alone = makeModel(start: InviteStart(link: "listenup://join/\(Self.code)"))
        #expect(alone.status.isFailure(code: "inviteWithoutServer"))
        let known = makeModel(start: InviteStart(link: "listenup://join/\(Self.code)", knownServer: .closedLoopback))
        await settle(known)
        #expect(known.status == .ready)
        #expect(known.server?.url == KnownServer.closedLoopback.url)
    }

    @Test func restV1TakesTheInvitesNameAndBackLeaves() async {
        script.generation = .restV1
        let model = makeModel(start: InviteStart(link: Self.link))
        await settle(model)
        #expect(!model.takesDisplayName)
        model.send(.displayNameChanged(""))
        model.send(.passwordChanged("compiler-1952"))
        #expect(model.canClaim, "no name needed: REST v1 takes the invite's")
        model.send(.claim)
        await settle(model)
        #expect(script.claims.first?.name == nil)
        let other = makeModel()
        other.send(.back)
        #expect(events.value.last == .inviteClosed)
    }

    @Test func aClaimAskedWithTheLinkIsMadeWhenReady() async {
        let model = makeModel()
        model.claim(link: Self.link, password: "compiler-1952", displayName: "Amazing Grace", email: "GRACE@example.com")
        await settle(model)
        for _ in 0..<1000 where events.value.isEmpty { try? await Task.sleep(for: .milliseconds(5)) }
        #expect(script.claims.first?.name == "Amazing Grace")
        #expect(events.value.count == 1)
        // Another email than the invite's is refused before anything is sent.
        let other = makeModel()
        other.claim(link: Self.link, password: "compiler-1952", displayName: nil, email: "someone@example.com")
        await settle(other)
        #expect(other.status.isFailure(code: "inviteEmailMismatch"))
        #expect(script.claims.count == 1)
    }

    @Test func theAuthStateGoesToTheInviteAndBack() {
        let server = KnownServer.closedLoopback
        #expect(AuthState.needsServer.applying(.inviteOpened(link: nil)) == .acceptingInvite(InviteStart()))
        #expect(AuthState.needsLogin(server).applying(.inviteOpened(link: "x"))
                == .acceptingInvite(InviteStart(link: "x", knownServer: server)))
        #expect(AuthState.sessionLapsed(server, .sessionEnded).applying(.inviteOpened(link: nil)) == .acceptingInvite(InviteStart(knownServer: server)))
        #expect(AuthState.acceptingInvite(InviteStart(knownServer: server)).applying(.inviteClosed) == .needsLogin(server))
        #expect(AuthState.acceptingInvite(InviteStart()).applying(.inviteClosed) == .needsServer)
        #expect(AuthState.acceptingInvite(InviteStart()).applying(.inviteOpened(link: "y")) == nil,
                "a second link goes to the page on screen (InviteModel.open(link:)), not through the state")
        let session = Session.offline()
        #expect(AuthState.acceptingInvite(InviteStart()).applying(.signedIn(session)) == .authenticated(session))
        #expect(AuthState.authenticated(session).applying(.inviteOpened(link: "x")) == nil, "signed in: sign out first")
        #expect(AuthState.initializing.applying(.inviteOpened(link: "x")) == nil)
        #expect(AuthState.acceptingInvite(InviteStart(knownServer: server)).serverURL == server.url)
        #expect(AuthState.acceptingInvite(InviteStart()).name == "acceptingInvite")
    }
}

extension InviteModel.Status {
    func isFailure(code expected: String) -> Bool {
        switch self {
        case .failed(let code, _), .claimFailed(let code, _): code == expected
        default: false
        }
    }
}
