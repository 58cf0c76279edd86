import DemoServer
import Foundation
import ListenUpKRPC
import ListenUpTestSupport
import Testing

/// The demo server's kRPC mode at the transport and session level: HTTP
/// routes, the upgrade, the handshake, and the behaviours that turn client
/// bugs into hangs (contract `listenup-krpc-v0.9.md` §1, §2).
@Suite("Demo server, kRPC mode: transport and session")
struct DemoKRPCTests {
    let logs = LogCapture()

    @Test func healthzAndNotFound() async throws {
        let (server, port) = try await KRPCTestServer.start(logs: logs)
        defer { Task { await server.stop() } }
        let health = try await KRPCTestHTTP.request(port: port, path: "/healthz")
        #expect(health.status == 200)
        #expect(health.text == #"{"status":"ok"}"#)
        #expect(health.headers.first(name: "X-Server-Version") == "0.9.0")
        #expect(health.headers.first(name: "X-Server-Api") == "v1")
        #expect(health.headers.first(name: "X-Request-Id") != nil)
        for path in ["/api/v1/instance", "/health", "/api/rpc/public", "/api/rpc/authed"] {
            let missing = try await KRPCTestHTTP.request(port: port, path: path)
            #expect(missing.status == 404, "\(path)")
            #expect(missing.text == #"{"error":"not_found","path":"\#(path)"}"#)
        }
    }

    @Test func authedUpgradeWithoutAValidTokenIs401() async throws {
        let (server, port) = try await KRPCTestServer.start(logs: logs)
        defer { Task { await server.stop() } }
        let upgrade = [("Upgrade", "websocket"), ("Connection", "Upgrade"), ("Sec-WebSocket-Key", "dGhlIHNhbXBsZSBub25jZQ=="),
                       ("Sec-WebSocket-Version", "13")]
        let none = try await KRPCTestHTTP.request(port: port, path: "/api/rpc/authed", headers: upgrade)
        #expect(none.status == 401)
        let forged = try await KRPCTestHTTP.request(port: port, path: "/api/rpc/authed",
                                                    headers: upgrade + [("Authorization", "Bearer eyJhbGciOiJIUzI1NiJ9.e30.c2ln")])
        #expect(forged.status == 401)
        let auth = try await KRPCTestServer.login(port: port)
        server.expireAccessTokens()
        let expired = try await KRPCTestHTTP.request(port: port, path: "/api/rpc/authed",
                                                     headers: upgrade + [("Authorization", "Bearer \(auth.accessToken)")])
        #expect(expired.status == 401)
        #expect(server.requestCount("/api/rpc/authed") == 3)
    }

    @Test func handshakeReplyIsExact() async throws {
        let (server, port) = try await KRPCTestServer.start(logs: logs)
        defer { Task { await server.stop() } }
        let socket = try await KRPCTestSocket.connect(port: port, path: "/api/rpc/public")
        try await socket.send(#"{"type":"org.jetbrains.krpc.internal.transport.RPCProtocolMessage.Handshake","supportedPlugins":[-32767,-32766,-32765,-32764,-32763],"pluginParams":{"-32762":"1000"}}"#)
        #expect(try await socket.nextText() ==
            #"{"type":"org.jetbrains.krpc.internal.transport.RPCProtocolMessage.Handshake","supportedPlugins":[-32767,-32766,-32765,-32764,-32763],"connectionId":1,"pluginParams":{"-32762":"1000"}}"#)
        await socket.close()
    }

    @Test func getServerInfoEchoesRoutingAndOmitsDefaults() async throws {
        let (server, port) = try await KRPCTestServer.start(admin: false, logs: logs)
        defer { Task { await server.stop() } }
        let session = try await KRPCTestSession.open(port: port, mount: .public)
        let reply = try await session.call(.getServerInfo, serviceId: 7)
        guard case .callSuccess(let success) = reply else { Issue.record("got \(reply)"); return }
        #expect(success.connectionId == 1)
        #expect(success.serviceId == 7)
        #expect(success.data == #"{"type":"Success","data":{"name":"ListenUp Demo","version":"0.9.0","apiVersion":"v1","setupRequired":true,"registrationPolicy":"CLOSED","instanceId":"\#(server.instanceID)"}}"#)
        let info = try AppResult<ServerInfo>.decode(from: success.data).get()
        #expect(info.setupRequired)
        // No serviceId sent, none echoed; the frame omits it.
        let plain = try await session.call(.getServerInfo)
        guard case .callSuccess(let second) = plain else { Issue.record("got \(plain)"); return }
        #expect(second.serviceId == nil)
        await session.socket.close()
    }

    @Test func undecodableEnvelopesAndForeignServicesGetNoReply() async throws {
        let (server, port) = try await KRPCTestServer.start(logs: logs)
        defer { Task { await server.stop() } }
        let session = try await KRPCTestSession.open(port: port, mount: .public)
        // An authed service on the public mount: the real server buffers it forever.
        try await session.socket.send(.call(callId: "1:listDomains:90", method: .listDomains, connectionId: 1))
        // `data` as an object, and no `callType`: the envelope does not decode.
        try await session.socket.send(#"{"type":"org.jetbrains.krpc.RPCMessage.CallData","callId":"1:x:91","serviceType":"com.calypsan.listenup.api.InstanceService","method":"getServerInfo","callType":"Method","data":{}}"#)
        try await session.socket.send(#"{"type":"org.jetbrains.krpc.RPCMessage.CallData","callId":"1:x:92","serviceType":"com.calypsan.listenup.api.InstanceService","method":"getServerInfo","data":"{}"}"#)
        try await session.socket.send("not json")
        await #expect(throws: KRPCTestTimeout.self) { _ = try await session.socket.nextText(within: .milliseconds(500)) }
        // The socket still works.
        guard case .callSuccess = try await session.call(.getServerInfo) else { Issue.record("no answer after the silence"); return }
        await session.socket.close()
    }

    @Test func unknownMethodAndMissingArgumentAreCallExceptions() async throws {
        let (server, port) = try await KRPCTestServer.start(logs: logs)
        defer { Task { await server.stop() } }
        let session = try await KRPCTestSession.open(port: port, mount: .public)
        let unknown = try await session.call(KRPCMethod(service: .instanceService, name: "getInfo"), serviceId: 3)
        guard case .callException(let exception) = unknown else { Issue.record("got \(unknown)"); return }
        #expect(exception.cause.className == "kotlin.IllegalStateException")
        #expect(exception.cause.message == "Service com.calypsan.listenup.api.InstanceService has no method 'getInfo'")
        #expect(exception.serviceId == nil, "accept() failures do not echo serviceId (§6.2)")
        #expect(exception.connectionId == 1)

        let absent = try await session.call(.login, "{}", serviceId: 4)
        guard case .callException(let npe) = absent else { Issue.record("got \(absent)"); return }
        #expect(npe.cause.className == "kotlin.NullPointerException")
        #expect(npe.serviceId == 4, "failures inside the request job echo serviceId (§6.2)")

        let short = try KRPCTestSession.arguments(RequestArguments(LoginRequest(email: KRPCTestServer.email, password: "short")))
        guard case .callException(let require) = try await session.call(.login, short) else { Issue.record("short password"); return }
        #expect(require.cause.className == "kotlin.IllegalArgumentException")
        await session.socket.close()
    }

    @Test func flowWithoutTheMarkerIsACallException() async throws {
        let (server, port) = try await KRPCTestServer.start(logs: logs)
        defer { Task { await server.stop() } }
        let (session, _) = try await KRPCTestServer.authed(port: port)
        let reply = try await session.call(.observeEvents, #"{"sinceRevision":null}"#, marker: false, serviceId: 9)
        guard case .callException(let exception) = reply else { Issue.record("got \(reply)"); return }
        #expect(exception.cause.message.hasPrefix("Server flow returned from non-suspend function"))
        #expect(exception.serviceId == 9)
        #expect(server.eventStreamCount == 0)
        await session.socket.close()
    }

    @Test func requestCancellationIsSilentAndEndpointCancellationCloses() async throws {
        let (server, port) = try await KRPCTestServer.start(logs: logs)
        defer { Task { await server.stop() } }
        let (session, _) = try await KRPCTestServer.authed(port: port)
        let hello = try await session.call(.observeEvents, #"{"sinceRevision":null}"#)
        guard case .streamMessage(let first) = hello else { Issue.record("got \(hello)"); return }
        #expect(server.eventStreamCount == 1)
        try await session.socket.send(.cancelRequest(callId: first.callId, serviceType: first.serviceType))
        for _ in 0..<500 where server.eventStreamCount > 0 { try await Task.sleep(for: .milliseconds(10)) }
        #expect(server.eventStreamCount == 0)
        server.updateBook(id: "book-000000000000000000001", title: "Renamed")
        await #expect(throws: KRPCTestTimeout.self) { _ = try await session.socket.nextText(within: .milliseconds(400)) }

        try await session.socket.send(.cancelEndpoint)
        #expect(try await session.socket.nextClose() == .close(code: 1000, reason: ""))
    }

    @Test func aMissingPongClosesWith1011() async throws {
        let (server, port) = try await KRPCTestServer.start(logs: logs) {
            // Frequent pings, so the answering socket meets many of them, and a
            // timeout long enough for its pongs on a loaded CI machine (1 s was
            // not: its event loop once stalled past it), well under the waits below.
            $0.krpc.pingInterval = 0.2
            $0.krpc.pingTimeout = 4
        }
        defer { Task { await server.stop() } }
        let answering = try await KRPCTestSession.open(port: port, mount: .public)
        let silent = try await KRPCTestSession.open(port: port, mount: .public, answerPings: false)
        let ping = try await silent.socket.inbox.next(within: .seconds(3)) { if case .ping = $0 { true } else { false } }
        guard case .ping(let payload) = ping else { return }
        let text = String(decoding: payload, as: UTF8.self)
        #expect(text.hasPrefix("[ping ") && text.hasSuffix(" ping]") && payload.count == 6 + 64 + 6)
        #expect(try await silent.socket.nextClose(within: .seconds(15)) == .close(code: 1011, reason: "Ping timeout"))
        // The socket that answers its pings outlived the silent one and many pings.
        guard case .callSuccess = try await answering.call(.getServerInfo) else { Issue.record("the answering socket died"); return }
        await answering.socket.close()
    }

    @Test func stopSendsStreamCancelAndEndpointCancellation() async throws {
        let (server, port) = try await KRPCTestServer.start(logs: logs)
        let (session, _) = try await KRPCTestServer.authed(port: port)
        _ = try await session.call(.observeEvents, #"{"sinceRevision":null}"#)
        await server.stop()
        guard case .streamCancel = try await session.socket.nextMessage() else { Issue.record("no StreamCancel"); return }
        guard case .generic(let generic) = try await session.socket.nextMessage() else { Issue.record("no ENDPOINT"); return }
        #expect(generic.cancellation?.type == .endpoint)
        #expect(try await session.socket.nextClose() == .close(code: 1001, reason: ""))
    }
}
