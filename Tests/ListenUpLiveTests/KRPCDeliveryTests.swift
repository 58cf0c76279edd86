import Foundation
import ListenUpAPI
import ListenUpKRPC
import ListenUpTestSupport
import Logging
import Testing
@testable import ListenUpCore
@testable import ListenUpLive

/// Calls that must not run twice (`login`, `setupRoot`, marking a book
/// finished) are sent once: a server that answers after the client gave up,
/// or drops the socket once the call arrived, gets the call exactly once and
/// the caller gets the error. Reads and id-keyed writes still get their one
/// more try on a new socket.
@Suite("kRPC calls sent at most once")
struct KRPCDeliveryTests {
    let logs = LogCapture()
    static let device = ListenUpAPI.DeviceInfo(deviceType: "desktop", platform: "Linux", clientName: "ListenUp for Linux", clientVersion: "0.1.0")
    static let password = "analytical-engine-password"

    private func connection(_ server: ScriptedKRPCServer, session: StoredSession? = nil, timeout: Duration = .seconds(5)) -> KRPCServerConnection {
        KRPCServerConnection(baseURL: server.baseURL, session: session, transport: .live, sessions: .inMemory(), deviceInfo: Self.device,
                             logger: logs.logger, timeout: timeout)
    }

    /// The client's timeout in the late-answer tests. It bounds the
    /// WebSocket handshake too (`handshakeTimeout` is the smaller of 10 s
    /// and it): at 1 s, a handshake slowed by a loaded machine would end
    /// the call before the server saw it. The server answers well after.
    static let shortTimeout = Duration.seconds(3)
    static let lateBy = Duration.seconds(8)

    /// Answers `method` with `answer` only after `delay` (after the client's timeout).
    private static func late(_ method: String, after delay: Duration, _ answer: @escaping @Sendable (Exchange) async throws -> Void)
        -> ScriptedKRPCServer.Handler {
        { exchange in
            guard exchange.method == method else { return }
            try await Task.sleep(for: delay)
            try await answer(exchange)
        }
    }

    @Test func aLoginAnsweredAfterTheTimeoutIsSentOnceAndSaidPlainly() async throws {
        let server = try await ScriptedKRPCServer.start(handler: Self.late("login", after: Self.lateBy) { try await $0.success(Canned.authSession(1)) })
        defer { Task { await server.stop() } }
        let client = connection(server, timeout: Self.shortTimeout)
        try await withDeadline {
            do throws(ServerError) {
                _ = try await client.login(email: "ada@example.com", password: Self.password)
                Issue.record("a login answered after the timeout signed us in")
            } catch {
                #expect(error == .transport(.timedOut))
                #expect(error.userMessage.contains("didn't answer in time"))
                #expect(error.userMessage.contains("try again"))
            }
            // A second send would have come at once, on a new socket.
            try await Task.sleep(for: .milliseconds(500))
            #expect(server.count("login") == 1, "login was sent again after the timeout")
            #expect(server.upgrades("/api/rpc/public") == 1)
        }
        #expect(await client.currentSession == nil)
    }

    @Test func aSetupRootAnsweredAfterTheTimeoutIsSentOnce() async throws {
        let server = try await ScriptedKRPCServer.start(handler: Self.late("setupRoot", after: Self.lateBy) { try await $0.success(Canned.authSession(1)) })
        defer { Task { await server.stop() } }
        let client = connection(server, timeout: Self.shortTimeout)
        try await withDeadline {
            do throws(ServerError) {
                _ = try await client.setupAdmin(firstName: "Ada", lastName: "Lovelace", email: "ada@example.com", password: Self.password)
                Issue.record("a setup answered after the timeout signed us in")
            } catch {
                #expect(error == .transport(.timedOut))
            }
            try await Task.sleep(for: .milliseconds(500))
            #expect(server.count("setupRoot") == 1, "setupRoot was sent again after the timeout")
        }
    }

    @Test func aLoginWhoseSocketDropsAfterItArrivedIsSentOnce() async throws {
        let server = try await ScriptedKRPCServer.start { exchange in
            guard exchange.method == "login" else { return }
            await exchange.drop()
        }
        defer { Task { await server.stop() } }
        let client = connection(server)
        try await withDeadline {
            await #expect(throws: ServerError.self) { _ = try await client.login(email: "ada@example.com", password: Self.password) }
            try await Task.sleep(for: .milliseconds(500))
            #expect(server.count("login") == 1, "login was sent again on a new socket")
            #expect(server.upgrades("/api/rpc/public") == 1)
        }
    }

    @Test func markingFinishedIsSentOnceWhenItsSocketDrops() async throws {
        let server = try await ScriptedKRPCServer.start { exchange in
            guard exchange.method == "recordPosition" else { return }
            await exchange.drop()
        }
        defer { Task { await server.stop() } }
        let client = connection(server, session: Canned.storedSession(server.baseURL))
        try await withDeadline {
            await #expect(throws: ServerError.self) { try await client.setFinished(true, row: ListeningPosition(bookID: "book-1", position: 0, updatedAt: Date(), finished: true)) }
            try await Task.sleep(for: .milliseconds(500))
            #expect(server.count("recordPosition") == 1, "marking finished was sent again on a new socket")
            #expect(server.upgrades("/api/rpc/authed") == 1)
        }
    }

    @Test func aListeningEventGetsItsOneRetryOnANewSocket() async throws {
        let dropped = LockedValue(false)
        let server = try await ScriptedKRPCServer.start { exchange in
            switch exchange.method {
            case "recordListeningEvent":
                if !dropped.withLock({ seen in defer { seen = true }; return seen }) {
                    await exchange.drop()
                    return
                }
                try await exchange.success(ListeningEventSyncPayload(
                    id: "span-1", bookId: "book-1", startPositionMs: 0, endPositionMs: 2_000, startedAt: 1, endedAt: 2, playbackSpeed: 1,
                    tz: "UTC", deviceLabel: nil, revision: 7, updatedAt: 2, createdAt: 2))
            case "recordPosition":
                try await exchange.success(PlaybackPositionSyncPayload(
                    id: "pos-1", bookId: "book-1", positionMs: 2_000, lastPlayedAt: 2, finished: false, playbackSpeed: 1,
                    currentChapterId: nil, revision: 8, updatedAt: 2, createdAt: 2))
            default:
                return
            }
        }
        defer { Task { await server.stop() } }
        let client = connection(server, session: Canned.storedSession(server.baseURL))
        let span = ListeningSpan(id: "span-1", bookID: "book-1", start: 0, end: 2_000, startedAt: Date(timeIntervalSince1970: 1),
                                 endedAt: Date(timeIntervalSince1970: 2), rate: 1, deviceID: "install-1")
        try await withDeadline {
            let acknowledgement = try await client.sendListening([span])
            #expect(acknowledgement.acknowledged == ["span-1"])
            #expect(server.count("recordListeningEvent") == 2, "one retry on a new socket")
            #expect(server.upgrades("/api/rpc/authed") == 2)
        }
    }

    @Test func aPullGetsItsOneRetryOnANewSocket() async throws {
        let dropped = LockedValue(false)
        let server = try await ScriptedKRPCServer.start { exchange in
            guard exchange.method == "pullDomain" else { return }
            if !dropped.withLock({ seen in defer { seen = true }; return seen }) {
                await exchange.drop()
                return
            }
            try await exchange.success(try Canned.page("books", [Canned.book("book-1", title: "One", revision: 3)], hasMore: false, cursor: 3))
        }
        defer { Task { await server.stop() } }
        let client = connection(server, session: Canned.storedSession(server.baseURL))
        try await withDeadline {
            let page = try await client.syncBooks(limit: 10, cursor: nil, updatedAfter: nil)
            #expect(page.books.map(\.id) == ["book-1"])
            #expect(server.count("pullDomain") == 2, "one retry on a new socket")
        }
    }
}
