import Foundation
import ListenUpTestSupport
import Logging
import Testing
@testable import ListenUpCore
@testable import ListenUpLive

/// The one refresher both server clients share, against a scripted client:
/// single flight, ahead of expiry, a refusal ends the session, the rotation
/// grace. (The clients' own tests meet it over loopback servers:
/// `DemoServerClientTests` for REST v1, `KRPCServerConnectionTests` and
/// `HostileKRPCTests` for kRPC.)
@Suite("SessionRefresher")
struct SessionRefresherTests {
    static let server = URL(string: "http://127.0.0.1:9")!
    static let start = Date(timeIntervalSince1970: 1_800_000_000)

    static func session(_ number: Int, expiresIn lifetime: TimeInterval = 3_600, from now: Date = start) -> StoredSession {
        StoredSession(serverURL: server, accessToken: "access-\(number)", refreshToken: "refresh-\(number)", sessionID: "s",
                      userID: "u", displayName: "Ada", email: "ada@example.com", accessExpiresAt: now.addingTimeInterval(lifetime))
    }

    /// A client whose refresh answers as scripted: by default the next
    /// numbered session; `hold` keeps every refresh waiting until `release()`.
    actor ScriptedClient: SessionRenewing {
        var presented: [String] = []
        var ended = 0
        var answer: @Sendable (_ number: Int) throws(ServerError) -> StoredSession = { SessionRefresherTests.session($0) }
        private var held: [CheckedContinuation<Void, Never>] = []
        private var holding = false

        func hold() { holding = true }
        func release() {
            holding = false
            for waiting in held { waiting.resume() }
            held = []
        }
        func waitingCount() -> Int { held.count }
        func setAnswer(_ answer: @escaping @Sendable (_ number: Int) throws(ServerError) -> StoredSession) { self.answer = answer }

        func renewSession(_ current: StoredSession) async throws(ServerError) -> StoredSession {
            presented.append(current.refreshToken)
            let number = presented.count + 1
            if holding { await withCheckedContinuation { held.append($0) } }
            return try answer(number)
        }

        func sessionEnded() async { ended += 1 }
    }

    let logs = LogCapture()

    func refresher(_ session: StoredSession? = session(1), store: SessionStore? = nil, clock: LockedValue<Date> = LockedValue(start))
        -> (SessionRefresher, SessionStore) {
        let sessions = store ?? .inMemory(session.map { [$0] } ?? [])
        return (SessionRefresher(serverURL: Self.server, session: session, store: sessions, logger: logs.logger, now: { clock.value }), sessions)
    }

    func eventually(_ condition: @Sendable () async -> Bool) async {
        for _ in 0..<500 where !(await condition()) { try? await Task.sleep(for: .milliseconds(10)) }
    }

    // MARK: Single flight

    @Test func concurrentCallersShareOneRefreshRequest() async throws {
        let (refresher, sessions) = refresher()
        let client = ScriptedClient()
        await client.hold()
        let callers = (0..<10).map { _ in
            Task { try await refresher.refreshed(after: "access-1", for: client).accessToken }
        }
        await eventually { await client.waitingCount() == 1 }
        try await Task.sleep(for: .milliseconds(50))
        #expect(await client.waitingCount() == 1, "the other nine wait for the one refresh")
        await client.release()
        for caller in callers { #expect(try await caller.value == "access-2") }
        #expect(await client.presented == ["refresh-1"], "exactly one refresh request")
        #expect(await refresher.session?.accessToken == "access-2")
        #expect(await sessions.load(Self.server)?.refreshToken == "refresh-2", "the rotated pair is saved")
    }

    // MARK: Ahead of expiry

    @Test func aTokenNearItsExpiryIsRefreshedBeforeUseAndAFreshOneIsNot() async throws {
        let clock = LockedValue(Self.start)
        let (refresher, _) = refresher(Self.session(1, expiresIn: 3_600), clock: clock)
        let client = ScriptedClient()
        #expect(try await refresher.accessToken(for: client) == "access-1")
        #expect(await client.presented.isEmpty, "an hour left: no refresh")

        clock.value = Self.start.addingTimeInterval(3_600 - SessionRefresher.defaultMargin + 1)
        #expect(try await refresher.accessToken(for: client) == "access-2", "under two minutes left: refreshed first")
        #expect(await client.presented == ["refresh-1"])
    }

    /// A token this run received with a short life (the demo server's
    /// 3-second tokens, a server set to one minute) is refreshed when half
    /// of it is gone, not before every call.
    @Test func aShortLivedTokenIsRefreshedAtHalfItsLifeNotBeforeEveryCall() async throws {
        let clock = LockedValue(Self.start)
        let (refresher, _) = refresher(nil, clock: clock)
        let client = ScriptedClient()
        await refresher.adopt(Self.session(1, expiresIn: 60))
        clock.value = Self.start.addingTimeInterval(29)
        #expect(try await refresher.accessToken(for: client) == "access-1", "31 s of 60 left")
        clock.value = Self.start.addingTimeInterval(31)
        await client.setAnswer { SessionRefresherTests.session($0, expiresIn: 60, from: SessionRefresherTests.start.addingTimeInterval(31)) }
        #expect(try await refresher.accessToken(for: client) == "access-2", "29 s of 60 left")
        #expect(await client.presented == ["refresh-1"])
    }

    // MARK: Refusal

    @Test func aRefusedRefreshEndsTheSessionOnceForEveryCaller() async throws {
        let (refresher, sessions) = refresher()
        let client = ScriptedClient()
        let lapses = LockedValue(0)
        await refresher.onLapse { lapses.withLock { $0 += 1 } }
        await client.setAnswer { _ throws(ServerError) in throw .sessionLapsed }
        await client.hold()
        let callers = (0..<5).map { _ in
            Task { try await refresher.refreshed(after: "access-1", for: client).accessToken }
        }
        await eventually { await client.waitingCount() == 1 }
        await client.release()
        for caller in callers { #expect(await caller.result.serverError == .sessionLapsed) }
        #expect(lapses.value == 1, "the handlers run once")
        #expect(await client.ended == 1, "the client closed what it held, once")
        #expect(await sessions.load(Self.server) == nil, "the dead session is wiped")
        #expect(await refresher.session == nil)
        // Signed out: nothing more is tried.
        await #expect(throws: ServerError.sessionLapsed) { _ = try await refresher.accessToken(for: client) }
        await #expect(throws: ServerError.sessionLapsed) { _ = try await refresher.refreshed(after: "access-1", for: client) }
        #expect(await client.presented == ["refresh-1"])
        #expect(lapses.value == 1)
    }

    /// A caller that finds the session gone while its lapse is still being
    /// told waits for it: nobody sees `sessionLapsed` before the handlers ran.
    @Test func noCallerSeesTheLapseBeforeItsHandlersRan() async throws {
        let (refresher, _) = refresher()
        let client = ScriptedClient()
        let handlerDone = LockedValue(false)
        let gate = AsyncStream<Void>.makeStream()
        await refresher.onLapse {
            for await _ in gate.stream { break }
            handlerDone.value = true
        }
        await client.setAnswer { _ throws(ServerError) in throw .sessionLapsed }
        let first = Task { try await refresher.refreshed(after: "access-1", for: client) }
        await eventually { await refresher.session == nil }
        let second = Task { () async -> Bool in
            _ = try? await refresher.requireSession()
            return handlerDone.value
        }
        try await Task.sleep(for: .milliseconds(50))
        gate.continuation.yield()
        #expect(await second.value, "the second caller's error came after the handler")
        _ = await first.result
    }

    @Test func aFailureThatIsNotARefusalLeavesTheSessionStanding() async throws {
        for failure: ServerError in [.transport(.timedOut), .transport(.unreachable("down")), .rateLimited,
                                      .server(status: 500, message: ""), .protocolMismatch("garbage")] {
            let (refresher, sessions) = refresher()
            let client = ScriptedClient()
            let lapses = LockedValue(0)
            await refresher.onLapse { lapses.withLock { $0 += 1 } }
            await client.setAnswer { _ throws(ServerError) in throw failure }
            await #expect(throws: failure) { _ = try await refresher.refreshed(after: "access-1", for: client) }
            #expect(await refresher.session == Self.session(1), "\(failure)")
            #expect(await sessions.load(Self.server) == Self.session(1), "\(failure)")
            #expect(lapses.value == 0, "\(failure)")
        }
    }

    // MARK: Rotation grace

    /// A call refused with a token that a concurrent refresh has since
    /// replaced uses the new session: presenting the refresh token again
    /// would present one the server has rotated away.
    @Test func aCallerWithARotatedAwayTokenGetsTheNewSessionWithoutASecondRefresh() async throws {
        let (refresher, _) = refresher()
        let client = ScriptedClient()
        #expect(try await refresher.refreshed(after: "access-1", for: client).accessToken == "access-2")
        #expect(try await refresher.refreshed(after: "access-1", for: client).accessToken == "access-2", "a late 401 with the old token")
        #expect(await client.presented == ["refresh-1"])
    }

    /// A refresh whose answer was lost (the server may have rotated the
    /// pair) leaves the session as it was: the next refresh presents the
    /// same refresh token, inside the server's grace for it.
    @Test func aLostRefreshAnswerKeepsTheSameRefreshTokenForTheNextTry() async throws {
        let (refresher, _) = refresher()
        let client = ScriptedClient()
        await client.setAnswer { _ throws(ServerError) in throw .transport(.timedOut) }
        await #expect(throws: ServerError.transport(.timedOut)) { _ = try await refresher.refreshed(after: "access-1", for: client) }
        await client.setAnswer { SessionRefresherTests.session($0) }
        #expect(try await refresher.refreshed(after: "access-1", for: client).accessToken == "access-3")
        #expect(await client.presented == ["refresh-1", "refresh-1"])
    }

    /// Signing out while a refresh is under way: its answer is dropped, so
    /// the signed-out session is not saved again.
    @Test func aRefreshAnsweredAfterSignOutIsNotSaved() async throws {
        let (refresher, sessions) = refresher()
        let client = ScriptedClient()
        await client.hold()
        let caller = Task { try await refresher.refreshed(after: "access-1", for: client) }
        await eventually { await client.waitingCount() == 1 }
        await refresher.signOut(client)
        await client.release()
        #expect(await caller.result.serverError == .transport(.cancelled), "the refresh reads as cancelled")
        #expect(await refresher.session == nil)
        #expect(await sessions.load(Self.server) == nil, "signed out stays signed out")
        #expect(await client.ended == 1)
    }
}

extension Result {
    /// The failure as a ``ServerError``, if it is one.
    var serverError: ServerError? {
        if case .failure(let error) = self { error as? ServerError } else { nil }
    }
}
