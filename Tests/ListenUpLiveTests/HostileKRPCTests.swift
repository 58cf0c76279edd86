import Foundation
import ListenUpAPI
import ListenUpKRPC
import ListenUpTestSupport
import Logging
import Testing
@testable import ListenUpCore
@testable import ListenUpLive

/// The hostile-server suite, kRPC half: servers that upgrade and then say
/// nothing, send garbage, answer calls never made, speak a newer contract,
/// send a message past the 64 MiB cap, drop the socket mid-sync, refuse the
/// token twice, go quiet, or present an untrusted certificate. Each is
/// checked where the app meets it (``ServerVerifier``,
/// ``KRPCServerConnection``, the library's sync) and by what the user is
/// told; no token or password may reach a log line.
@Suite("kRPC against hostile servers")
struct HostileKRPCTests {
    let logs = LogCapture()
    static let device = ListenUpAPI.DeviceInfo(deviceType: "desktop", platform: "Linux", clientName: "ListenUp for Linux", clientVersion: "0.1.0")
    static let password = "analytical-engine-password"

    private func verifier(timeout: Duration) -> ServerVerifier {
        ServerVerifier.live(transport: .live, logger: logs.logger, timeout: timeout, krpcServerInfo: KRPCServerProbe.live(logger: logs.logger))
    }

    private func verify(_ url: URL, timeout: Duration = .seconds(10)) async -> Result<VerifiedServer, ServerVerificationError> {
        await verifier(timeout: timeout).verify(ServerAddress(candidates: [url], schemeWasTyped: true, hostKind: .ipv4))
    }

    private func connection(_ server: ScriptedKRPCServer, session: StoredSession? = nil, sessions: SessionStore = .inMemory(),
                            timeout: Duration = .seconds(5), readIdleTimeout: Duration = .seconds(75)) -> KRPCServerConnection {
        KRPCServerConnection(baseURL: server.baseURL, session: session, transport: .live, sessions: sessions, deviceInfo: Self.device,
                             logger: logs.logger, timeout: timeout, readIdleTimeout: readIdleTimeout)
    }

    /// No secret ever reaches the log: tokens (every generation the tests
    /// hand out) and the password.
    private func expectNoSecretsLogged(sourceLocation: SourceLocation = #_sourceLocation) {
        let text = logs.text
        for secret in ["access-token-", "refresh-token-", Self.password] {
            #expect(!text.contains(secret), "\(secret) reached the log", sourceLocation: sourceLocation)
        }
        #expect(!text.isEmpty, "the test logged nothing at all: is the capture wired?", sourceLocation: sourceLocation)
    }

    /// Answers `getServerInfo` with `info` after `before` ran.
    private static func serverInfo(_ info: ServerInfo = Canned.serverInfo(),
                                   before: @escaping @Sendable (Exchange) async throws -> Void = { _ in }) -> ScriptedKRPCServer.Handler {
        { exchange in
            guard exchange.method == "getServerInfo" else { return }
            try await before(exchange)
            try await exchange.success(info)
        }
    }

    // MARK: Silence

    @Test func aHealthySocketThatNeverAnswersTheHandshakeIsATimeout() async throws {
        var options = ScriptedKRPCServer.Options()
        options.answersHandshake = false
        let server = try await ScriptedKRPCServer.start(options, handler: Self.serverInfo())
        defer { Task { await server.stop() } }
        try await withDeadline {
            let started = ContinuousClock.now
            let outcome = await verify(server.baseURL, timeout: .seconds(2))
            #expect(outcome == .failure(.timedOut))
            #expect(ContinuousClock.now - started < .seconds(15), "bounded by the verifier's timeout, not a hang")
            #expect(server.upgrades("/api/rpc/public") == 1, "the socket was opened: only the handshake went unanswered")
            #expect(ServerVerificationError.timedOut.userMessage(for: server.baseURL).contains("didn't answer"))

            // The same server met by a signed-in connection: a clear timeout, no hang.
            let client = connection(server, timeout: .seconds(2))
            do throws(ServerError) {
                _ = try await client.login(email: "ada@example.com", password: Self.password)
                Issue.record("a server that never answers the handshake signed us in")
            } catch {
                #expect(error == .transport(.timedOut))
                #expect(error.userMessage.contains("didn't answer in time"))
            }
        }
        expectNoSecretsLogged()
    }

    @Test func aSocketUpgradeNeverAnsweredIsATimeout() async throws {
        let server = try await HostileServer.start { request in
            switch request.path {
            case "/healthz": .respond(status: 200, contentType: "application/json", body: Data(#"{"status":"ok"}"#.utf8))
            case "/api/rpc/public": .silent
            default: .respond(status: 404, contentType: "application/json", body: Data(#"{"error":"not_found"}"#.utf8))
            }
        }
        defer { Task { await server.stop() } }
        try await withDeadline {
            let started = ContinuousClock.now
            #expect(await verify(server.baseURL, timeout: .seconds(2)) == .failure(.timedOut))
            #expect(ContinuousClock.now - started < .seconds(15))
            #expect(server.requests.map(\.path) == ["/api/v1/instance", "/healthz", "/api/rpc/public"])
        }
    }

    // MARK: Garbage

    @Test func garbageBinaryUnknownEnvelopesAndStrayRepliesAreSkipped() async throws {
        var options = ScriptedKRPCServer.Options()
        options.greet = { peer in
            // Before the server's Handshake, as a confused proxy might.
            try await peer.send(text: "<html>502 Bad Gateway</html>")
            try await peer.send(binary: [0x00, 0xFF, 0x10])
        }
        let server = try await ScriptedKRPCServer.start(options, handler: Self.serverInfo(before: { exchange in
            try await exchange.peer.send(text: "not JSON at all")
            try await exchange.peer.send(text: #"{"type":"org.jetbrains.krpc.RPCMessage.CallSuccess""#)  // cut short
            try await exchange.peer.send(binary: Array("{\"type\":\"binary\"}".utf8))
            try await exchange.peer.send(text: #"{"type":"org.jetbrains.krpc.RPCMessage.FromTheFuture","callId":"\#(exchange.call.data.callId)"}"#)
            let failure = #"{"type":"org.jetbrains.krpc.internal.transport.RPCProtocolMessage.Failure","errorMessage":"confused"}"#
            try await exchange.peer.send(text: failure)
            // A reply for a call never made, claiming another server.
            try await exchange.peer.send(text: KRPCMessage.callSuccess(KRPCCallSuccess(
                callId: "1:getServerInfo:9999", serviceType: exchange.call.data.serviceType,
                data: #"{"type":"Success","data":\#(try KRPCJSON.encode(Canned.serverInfo(apiVersion: "v7")))}"#)).encoded())
        }))
        defer { Task { await server.stop() } }
        try await withDeadline {
            let verified = try await verify(server.baseURL).get()
            #expect(verified.generation == .krpc && verified.instanceID == Canned.instanceID)
        }
        let text = logs.text
        #expect(text.contains("Ignoring a frame that is not a kRPC message"))
        #expect(text.contains("Ignoring a binary WebSocket message"))
        #expect(text.contains("Ignoring a kRPC message of an unknown type"))
        #expect(text.contains("The server could not handle a kRPC message"))
        #expect(text.contains("Ignoring a kRPC frame for an unknown call"))
    }

    @Test func garbageWithoutAnAnswerIsATimeoutNotAHang() async throws {
        let server = try await ScriptedKRPCServer.start { exchange in
            try await exchange.peer.send(text: "]]]")
            try await exchange.peer.send(text: KRPCMessage.callSuccess(KRPCCallSuccess(
                callId: "1:somethingElse:1", serviceType: exchange.call.data.serviceType, data: "{}")).encoded())
        }
        defer { Task { await server.stop() } }
        try await withDeadline {
            let started = ContinuousClock.now
            #expect(await verify(server.baseURL, timeout: .seconds(2)) == .failure(.timedOut))
            #expect(ContinuousClock.now - started < .seconds(15))
            #expect(server.count("getServerInfo") == 1, "the call was made: only its answer never came")
        }
    }

    @Test func aReplyForACallNeverSentNeverSignsAnyoneIn() async throws {
        let server = try await ScriptedKRPCServer.start { exchange in
            guard exchange.method == "login" else { return }
            // Another call's session first: it must not be taken for ours.
            try await exchange.peer.send(text: KRPCMessage.callSuccess(KRPCCallSuccess(
                callId: exchange.call.data.callId + "0", serviceType: exchange.call.data.serviceType,
                data: #"{"type":"Success","data":\#(try KRPCJSON.encode(Canned.authSession(66)))}"#)).encoded())
            try await exchange.success(Canned.authSession(1))
        }
        defer { Task { await server.stop() } }
        let sessions = SessionStore.inMemory()
        let stored = try await withDeadline {
            try await connection(server, sessions: sessions).login(email: "ada@example.com", password: Self.password)
        }
        #expect(stored.accessToken == Canned.authSession(1).accessToken)
        #expect(await sessions.load(server.baseURL)?.refreshToken == Canned.authSession(1).refreshToken)
        #expect(logs.text.contains("Ignoring a kRPC frame for an unknown call"))
        expectNoSecretsLogged()
    }

    // MARK: A newer server

    @Test func anotherAPIVersionIsRefusedWithItsOwnMessage() async throws {
        let server = try await ScriptedKRPCServer.start(handler: Self.serverInfo(Canned.serverInfo(apiVersion: "v2")))
        defer { Task { await server.stop() } }
        let outcome = try await withDeadline { await verify(server.baseURL) }
        #expect(outcome == .failure(.unsupportedAPIVersion("v2")))
        let message = ServerVerificationError.unsupportedAPIVersion("v2").userMessage(for: server.baseURL)
        #expect(message.contains("API v2") && message.contains("Update the app"))
        #expect(message != ServerVerificationError.notListenUp("").userMessage(for: server.baseURL))
    }

    @Test func anErrorTypeTheAppDoesNotKnowSaysTheServerIsNewer() async throws {
        let server = try await ScriptedKRPCServer.start { exchange in
            guard exchange.method == "login" else { return }
            try await exchange.failure(#"{"type":"QuotaError.ListeningBudgetExceeded","correlationId":"c-1","budget":3}"#)
        }
        defer { Task { await server.stop() } }
        try await withDeadline {
            do throws(ServerError) {
                _ = try await connection(server).login(email: "ada@example.com", password: Self.password)
                Issue.record("an unknown failure signed us in")
            } catch {
                #expect(error == .serverNewer("QuotaError.ListeningBudgetExceeded"))
                #expect(error.code == "serverNewer")
                #expect(error.userMessage.contains("newer than the app"))
            }
        }
        expectNoSecretsLogged()
    }

    // MARK: Too big

    /// A text frame header announcing `length` bytes (64-bit length form),
    /// then a few bytes of it: the client must refuse it from the header.
    static func oversizedFrameStart(length: UInt64) -> [UInt8] {
        [0x81, 0x7F] + (0..<8).reversed().map { UInt8(truncatingIfNeeded: length >> (8 * UInt64($0))) } + Array("{\"type\":".utf8)
    }

    @Test func aMessageOverTheCapIsRefusedFromItsHeaderAndSaidPlainly() async throws {
        let cap: UInt64 = 64 << 20  // WebSocketConfiguration.maxMessageSize
        let server = try await ScriptedKRPCServer.start { exchange in
            guard exchange.method == "libraryBookCount" || exchange.method == "digest" else { return }
            // 64 MiB + 1 announced; the rest never comes. A client that
            // buffered before checking would wait here forever.
            try await exchange.peer.sendRaw(Self.oversizedFrameStart(length: cap + 1))
        }
        defer { Task { await server.stop() } }
        let client = connection(server, session: Canned.storedSession(server.baseURL))
        try await withDeadline {
            let started = ContinuousClock.now
            do throws(ServerError) {
                _ = try await client.libraryBookCount()
                Issue.record("a message over the cap was accepted")
            } catch {
                #expect(error == .protocolMismatch("a message exceeds \(cap) bytes"))
                #expect(error.userMessage.contains("doesn't understand"))
            }
            #expect(ContinuousClock.now - started < .seconds(20))
        }
        // The socket was closed with 1009 (and the call tried once more on a new one, no more).
        let peers = server.peers
        #expect(peers.count == 2, "one retry on a fresh socket, then the error")
        await eventually { peers.allSatisfy { $0.frames.contains { $0.closeCode != nil } } }
        for peer in peers {
            #expect(peer.frames.compactMap(\.closeCode) == [1009])
        }
        #expect(logs.text.contains("exceeds"))
        expectNoSecretsLogged()
    }

    // MARK: The token refused

    @Test func twoRefusedUpgradesRefreshOnceThenSignOutWithoutALoop() async throws {
        var options = ScriptedKRPCServer.Options()
        options.refusing = { request in request.path.hasPrefix("/api/rpc/authed") ? 401 : nil }
        let server = try await ScriptedKRPCServer.start(options) { exchange in
            guard exchange.method == "refreshSession" else { return }
            try await exchange.success(Canned.authSession(2))
        }
        defer { Task { await server.stop() } }
        let stored = Canned.storedSession(server.baseURL)
        let sessions = SessionStore.inMemory([stored])
        let client = connection(server, session: stored, sessions: sessions)
        let lapses = LockedValue(0)
        await client.onSessionLapsed { lapses.withLock { $0 += 1 } }
        try await withDeadline {
            do throws(ServerError) {
                _ = try await client.libraryBookCount()
                Issue.record("a refused token worked")
            } catch {
                #expect(error == .sessionLapsed)
                #expect(error.userMessage.contains("Sign in again"))
            }
            #expect(server.upgrades("/api/rpc/authed") == 2, "the stale token, then the refreshed one")
            #expect(server.count("refreshSession") == 1)
            #expect(lapses.value == 1)
            #expect(await sessions.load(server.baseURL) == nil)
            #expect(await client.currentSession == nil)

            // Signed out: nothing more is tried, by calls or by live updates.
            await #expect(throws: ServerError.sessionLapsed) { _ = try await client.syncBooks(limit: 10, cursor: nil, updatedAfter: nil) }
            await LibraryLiveUpdates(server: client, store: InMemoryLibraryStore(), backoff: .init(initial: .milliseconds(10)),
                                     logger: logs.logger).run { _ in }
            #expect(server.upgrades("/api/rpc/authed") == 2)
            #expect(server.count("refreshSession") == 1)
            #expect(lapses.value == 1)
        }
        expectNoSecretsLogged()
    }

    // MARK: Quiet

    @Test func liveEventsThatGoQuietAreGivenUpAndTheSocketWithThem() async throws {
        let server = try await ScriptedKRPCServer.start { exchange in
            guard exchange.method == "observeEvents" else { return }
            try await exchange.control("Heartbeat")  // the hello; then nothing, not even a WebSocket ping
        }
        defer { Task { await server.stop() } }
        let client = connection(server, session: Canned.storedSession(server.baseURL), readIdleTimeout: .seconds(1))
        try await withDeadline {
            let started = ContinuousClock.now
            let events = try await client.liveEvents()
            do {
                for try await event in events { Issue.record("unexpected event \(event.kind)") }
                Issue.record("the quiet stream ended without an error")
            } catch {
                #expect(error as? ServerError == .transport(.timedOut))
            }
            #expect(ContinuousClock.now - started < .seconds(20))
            #expect(server.upgrades("/api/rpc/authed") == 1)
            // The quiet socket was given up: subscribing again opens a new one.
            let again = try await client.liveEvents()
            await eventually { server.count("observeEvents") == 2 }
            #expect(server.upgrades("/api/rpc/authed") == 2)
            _ = again
        }
        #expect(logs.text.contains("Live events went quiet"))
        expectNoSecretsLogged()
    }

    // MARK: TLS

    @Test func anUntrustedCertificateOnWSSIsATLSFailure() async throws {
        var options = ScriptedKRPCServer.Options()
        options.tls = try await TestCertificate.make()
        let server = try await ScriptedKRPCServer.start(options, handler: Self.serverInfo())
        defer { Task { await server.stop() } }
        #expect(server.baseURL.scheme == "https")
        try await withDeadline {
            #expect(await KRPCServerProbe.serverInfo(base: server.baseURL, timeout: .seconds(5), logger: logs.logger) == .failure(.tlsFailure))
            #expect(await verify(server.baseURL) == .failure(.tlsFailure))
            do throws(ServerError) {
                _ = try await connection(server).login(email: "ada@example.com", password: Self.password)
                Issue.record("an untrusted certificate was accepted")
            } catch {
                guard case .transport(.tlsFailure) = error else {
                    Issue.record("expected a TLS failure, got \(error)")
                    return
                }
                #expect(error.userMessage.contains("certificate isn't trusted"))
            }
        }
        #expect(server.peers.isEmpty && server.calls.isEmpty, "nothing got past TLS")
        expectNoSecretsLogged()
    }
}
