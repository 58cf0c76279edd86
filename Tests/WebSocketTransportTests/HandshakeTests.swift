import Foundation
import ListenUpTestSupport
import Testing
import WebSocketTransport

/// Opening a connection: the upgrade request, refusals, timeouts, TLS.
@Suite("WebSocket handshake")
struct HandshakeTests {
    @Test("the upgrade sends the extra headers and path, no subprotocol or extension; logs carry no token")
    func upgradeSendsHeaders() async throws {
        let server = try await ScriptedWebSocketServer.start()
        let logs = LogCapture()
        try await withTimeout {
            let connection = try await makeClient(logger: logs.logger).connect(
                to: server.url(path: "/api/rpc/authed?probe=1"),
                headers: [("Authorization", "Bearer s3cret-token"), ("X-Client-Version", "0.1.0")])
            let request = try #require(server.upgradeRequests.first)
            #expect(request.path == "/api/rpc/authed?probe=1")
            #expect(request.header("Authorization") == "Bearer s3cret-token")
            #expect(request.header("X-Client-Version") == "0.1.0")
            #expect(request.header("Host") == "127.0.0.1:\(server.port)")
            #expect(request.header("Upgrade")?.lowercased() == "websocket")
            #expect(request.header("Sec-WebSocket-Version") == "13")
            #expect(request.header("Sec-WebSocket-Protocol") == nil)
            #expect(request.header("Sec-WebSocket-Extensions") == nil)
            await connection.close()
        }
        #expect(logs.text.contains("Authorization"))
        #expect(!logs.text.contains("s3cret-token"))
        await server.stop()
    }

    @Test("401 at the upgrade is a typed error; the retry with a good token opens")
    func unauthorizedThenRetry() async throws {
        let server = try await ScriptedWebSocketServer.start(requiring: ("Authorization", "Bearer fresh"))
        try await withTimeout {
            let client = makeClient()
            let error = await transportError {
                try await client.connect(to: server.url(path: "/api/rpc/authed"), headers: [("Authorization", "Bearer stale")])
            }
            #expect(error == .upgradeRejected(status: 401))
            #expect(error?.isUnauthorized == true)
            let connection = try await client.connect(to: server.url(path: "/api/rpc/authed"),
                                                      headers: [("Authorization", "Bearer fresh")])
            _ = try await server.nextPeer()
            await connection.close()
        }
        #expect(server.upgradeRequests.count == 2)
        await server.stop()
    }

    @Test("a plain HTTP server answering 404 gives upgradeRejected(404)")
    func plainHTTPServer() async throws {
        let server = try await HostileServer.start { _ in
            .respond(status: 404, contentType: "text/plain", body: Data("404 page not found\n".utf8))
        }
        let error = try await withTimeout {
            await transportError { try await makeClient().connect(to: #require(URL(string: "ws://127.0.0.1:\(server.port)/"))) }
        }
        #expect(error == .upgradeRejected(status: 404))
        #expect(error?.isUnauthorized == false)
        await server.stop()
    }

    @Test("a server that never answers the upgrade times out within the connect timeout")
    func silentServerTimesOut() async throws {
        let server = try await HostileServer.start { _ in .silent }
        let started = ContinuousClock.now
        let error = try await withTimeout {
            await transportError {
                try await makeClient { $0.connectTimeout = .milliseconds(300) }
                    .connect(to: #require(URL(string: "ws://127.0.0.1:\(server.port)/")))
            }
        }
        #expect(error == .timedOut)
        // Well past 300 ms, so a loaded machine passes, and far from a hang.
        #expect(ContinuousClock.now - started < .seconds(5))
        await server.stop()
    }

    @Test("a 101 with a wrong Sec-WebSocket-Accept is an invalid handshake")
    func wrongAcceptKey() async throws {
        let server = try await HostileServer.start { _ in
            .respond(status: 101, contentType: "text/plain", body: Data(),
                     headers: [("Upgrade", "websocket"), ("Sec-WebSocket-Accept", "bm90IHRoZSByaWdodCBrZXk=")])
        }
        let error = try await withTimeout {
            await transportError { try await makeClient().connect(to: #require(URL(string: "ws://127.0.0.1:\(server.port)/"))) }
        }
        guard case .invalidHandshake? = error else { Issue.record("expected invalidHandshake, got \(String(describing: error))"); return }
        await server.stop()
    }

    @Test("cancelling the connecting task ends the handshake at once")
    func cancelDuringHandshake() async throws {
        let server = try await HostileServer.start { _ in .silent }
        let url = try #require(URL(string: "ws://127.0.0.1:\(server.port)/"))
        try await withTimeout {
            let attempt = Task { try await makeClient { $0.connectTimeout = .seconds(30) }.connect(to: url) }
            try await Task.sleep(for: .milliseconds(50))
            attempt.cancel()
            let result = await attempt.result
            #expect(throws: CancellationError.self) { try result.get() }
        }
        await server.stop()
    }

    @Test("nothing listening: connectionFailed")
    func refused() async throws {
        let server = try await ScriptedWebSocketServer.start()
        let url = server.url()
        await server.stop()
        let error = try await withTimeout { await transportError { try await makeClient().connect(to: url) } }
        guard case .connectionFailed? = error else { Issue.record("expected connectionFailed, got \(String(describing: error))"); return }
    }

    @Test("wss: a self-signed server is refused with system roots, trusted with its certificate added")
    func secureWebSocket() async throws {
        let tls = try await selfSignedCertificate()
        let server = try await ScriptedWebSocketServer.start(tls: tls)
        try await withTimeout {
            let refused = await transportError { try await makeClient().connect(to: server.url()) }
            guard case .tlsFailed? = refused else { Issue.record("expected tlsFailed, got \(String(describing: refused))"); return }

            let connection = try await makeClient { $0.additionalTrustRootsPEM = [tls.certificatePEM] }.connect(to: server.url())
            let peer = try await server.nextPeer()
            try await connection.send(text: "over TLS")
            #expect(try await peer.nextText() == "over TLS")
            await connection.close()
        }
        await server.stop()
    }
}
