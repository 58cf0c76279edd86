import Foundation
import KRPCSession
import ListenUpKRPC
import ListenUpTestSupport
import Testing
import Synchronization
import WebSocketTransport

/// A live session against the scripted server: how it ends, and the noise it survives.
@Suite("KRPCSession: endings and noise over a socket")
struct KRPCSessionLifecycleTests {
    @Test func anEndpointCancellationFromTheServerFailsEverythingAndEndsTheSession() async throws {
        try await withSession { fixture in
            let session = fixture.session
            let call = Task { try await session.call(.getServerInfo) }
            let stream = await session.stream(.observeEvents, arguments: #"{"sinceRevision":1}"#)
            _ = try await fixture.peer.nextCall()
            _ = try await fixture.peer.nextCall()
            try await fixture.peer.socket.send(text: ContractFrame.cancelEndpoint)
            #expect(await failure(of: call) as? KRPCSessionError == .endpointCancelled)
            #expect(await collect(stream).error as? KRPCSessionError == .endpointCancelled)
            #expect(try await session.waitUntilClosed() == .endpointCancelled)
            // The client closes its socket, and nothing more can be called.
            let close = try await fixture.peer.socket.nextFrame { $0.closeCode != nil }
            #expect(close.closeCode == 1000)
            let late = Task { try await session.call(.getServerInfo) }
            #expect(await failure(of: late) as? KRPCSessionError == .notOpen)
        }
    }

    @Test func closeSendsTheEndpointCancellationThenANormalClose() async throws {
        try await withSession { fixture in
            let session = fixture.session
            let call = Task { try await session.call(.getServerInfo) }
            _ = try await fixture.peer.nextCall()
            await session.close()
            #expect(await failure(of: call) as? KRPCSessionError == .closed(.closedByClient))
            #expect(try await fixture.peer.next() == .cancelEndpoint)
            let close = try await fixture.peer.socket.nextFrame { $0.closeCode != nil }
            #expect(close.closeCode == 1000)
            #expect(await session.closeReason == .closedByClient)
            #expect(await !session.isOpen)
        }
    }

    @Test func aServerThatClosesMidStreamFailsTheStreamAndPendingCalls() async throws {
        try await withSession { fixture in
            let session = fixture.session
            let stream = await session.stream(.observeEvents, arguments: #"{"sinceRevision":1}"#)
            let streamCall = try await fixture.peer.nextCall()
            let call = Task { try await session.call(.getServerInfo) }
            _ = try await fixture.peer.nextCall()
            try await fixture.peer.send(ContractFrame.heartbeatElement, as: streamCall)
            try await fixture.peer.socket.close(code: .goingAway, reason: "restarting")
            let ended = KRPCSessionCloseReason.socketClosed(.closedByServer(code: .goingAway, reason: "restarting"))
            let (elements, error) = await collect(stream)
            #expect(elements.count == 1)
            #expect(error as? KRPCSessionError == .closed(ended))
            #expect(await failure(of: call) as? KRPCSessionError == .closed(ended))
            #expect(try await session.waitUntilClosed() == ended)
        }
    }

    @Test func aDroppedConnectionFailsEverythingWithoutHanging() async throws {
        try await withSession { fixture in
            let session = fixture.session
            let stream = await session.stream(.observeEvents, arguments: #"{"sinceRevision":1}"#)
            let call = Task { try await session.call(.getServerInfo) }
            _ = try await fixture.peer.nextCall()
            _ = try await fixture.peer.nextCall()
            await fixture.peer.socket.drop()
            let ended = KRPCSessionCloseReason.socketClosed(.failed(.connectionLost))
            #expect(await collect(stream).error as? KRPCSessionError == .closed(ended))
            #expect(await failure(of: call) as? KRPCSessionError == .closed(ended))
            #expect(try await session.waitUntilClosed() == ended)
        }
    }

    @Test func droppingTheLastReferenceEndsTheSessionPolitely() async throws {
        try await withTimeout(.seconds(45)) {
            let (server, peer, stream) = try await { () async throws -> (ScriptedWebSocketServer, ScriptedKRPCPeer, AsyncThrowingStream<String, any Error>) in
                let fixture = try await connectedSession()
                return (fixture.server, fixture.peer, await fixture.session.stream(.observeEvents, arguments: "{}"))
            }()
            _ = try await peer.nextCall()
            #expect(try await peer.next() == .cancelEndpoint)
            #expect(try await peer.socket.nextFrame { $0.closeCode != nil }.closeCode == 1001)
            #expect(await collect(stream).error as? KRPCSessionError == .closed(.closedByClient))
            await server.stop()
        }
    }

    @Test func garbageFramesAreLoggedAndTheSessionGoesOn() async throws {
        let capture = LogCapture()
        try await withSession(logger: capture.logger) { fixture in
            for garbage in ["not json", "{}", #"{"type":"org.example.SomethingNew"}"#, ContractFrame.protocolFailure,
                            ContractFrame.windowUpdate,
                            ContractFrame.getServerInfoSuccess.replacingOccurrences(of: "1:getServerInfo:1", with: "1:x:99")] {
                try await fixture.peer.socket.send(text: garbage)
            }
            let session = fixture.session
            let call = Task { try await session.call(.getServerInfo) }
            try await fixture.peer.send(ContractFrame.getServerInfoSuccess, as: try await fixture.peer.nextCall())
            #expect(try await call.value == (try innerData(ContractFrame.getServerInfoSuccess)))
            #expect(await session.isOpen)
        }
        #expect(capture.text.contains("Ignoring a frame that is not a kRPC message"))
        #expect(capture.text.contains("Ignoring a kRPC message of an unknown type"))
        #expect(capture.text.contains("The server could not handle a kRPC message"))
        #expect(capture.text.contains("Ignoring a kRPC frame for an unknown call"))
    }

    @Test func pingsAreAnsweredWithAnEchoingPongThroughALiveSession() async throws {
        try await withSession { fixture in
            let payload = Array("[ping \(String(repeating: "0f", count: 32)) ping]".utf8)
            try await fixture.peer.socket.ping(payload)
            let pong = try await fixture.peer.socket.nextFrame { $0.text == nil && $0.closeCode == nil && $0.payload == payload }
            #expect(pong.maskKey != nil)
            let session = fixture.session
            let call = Task { try await session.call(.getServerInfo) }
            try await fixture.peer.send(ContractFrame.getServerInfoSuccess, as: try await fixture.peer.nextCall())
            _ = try await call.value
        }
    }

    @Test func aServerThatNeverAnswersTheHandshakeFailsTheConnect() async throws {
        try await withTimeout(.seconds(45)) {
            let server = try await ScriptedWebSocketServer.start()
            let configuration = KRPCSessionConfiguration(handshakeTimeout: .milliseconds(300), callTimeout: .seconds(1),
                                                         tickInterval: .milliseconds(50))
            let connecting = Task {
                try await KRPCSession.connect(url: server.url(path: "/api/rpc/public"), configuration: configuration,
                                              client: makeClient(), logger: quietLogger)
            }
            let peer = try await server.nextPeer()
            #expect(try await peer.nextText() == ContractFrame.handshakeClient)
            #expect(await failure(of: connecting) as? KRPCSessionError == .handshakeFailed)
            #expect(try await peer.nextFrame { $0.closeCode != nil }.closeCode == 1000)
            await server.stop()
        }
    }

    @Test func aRefusedTokenIsRefreshedOnceAndTheSecondUpgradeSucceeds() async throws {
        let capture = LogCapture()
        try await withTimeout(.seconds(45)) {
            let server = try await ScriptedWebSocketServer.start(requiring: ("Authorization", "Bearer fresh-token"))
            let asked = TokenRequests()
            let connecting = Task {
                try await KRPCSession.connectRefreshingOnce(
                    url: server.url(path: "/api/rpc/authed"), configuration: .fast, client: makeClient(),
                    logger: capture.logger) { refused in
                    asked.record(refused)
                    return refused == nil ? "stale-token" : "fresh-token"
                }
            }
            let peer = ScriptedKRPCPeer(socket: try await server.nextPeer())
            try await peer.acceptHandshake()
            let session = try await connecting.value
            #expect(asked.all == [nil, "stale-token"])
            #expect(server.upgradeRequests.map { $0.header("Authorization") } == ["Bearer stale-token", "Bearer fresh-token"])
            #expect(server.upgradeRequests.allSatisfy { $0.path == "/api/rpc/authed" })
            #expect(await session.isOpen)
            await session.close()
            await server.stop()
        }
        #expect(!capture.text.contains("stale-token") && !capture.text.contains("fresh-token"))
        #expect(capture.text.contains("Bearer <redacted>"))
    }

    @Test func aSecondRefusalIsUnauthorized() async throws {
        try await withTimeout(.seconds(45)) {
            let server = try await ScriptedWebSocketServer.start(requiring: ("Authorization", "Bearer never"))
            let plain = Task {
                try await KRPCSession.connect(url: server.url(path: "/api/rpc/authed"), headers: [("Authorization", "Bearer x")],
                                              configuration: .fast, client: makeClient(), logger: quietLogger)
            }
            #expect(await failure(of: plain) as? KRPCSessionError == .unauthorized)
            let refreshing = Task {
                try await KRPCSession.connectRefreshingOnce(url: server.url(path: "/api/rpc/authed"), configuration: .fast,
                                                            client: makeClient(), logger: quietLogger) { _ in "wrong" }
            }
            #expect(await failure(of: refreshing) as? KRPCSessionError == .unauthorized)
            #expect(server.upgradeRequests.count == 3)
            await server.stop()
        }
    }

    @Test func anUnreachableServerIsATransportError() async throws {
        try await withTimeout(.seconds(45)) {
            let server = try await ScriptedWebSocketServer.start()
            let url = server.url(path: "/api/rpc/public")
            await server.stop()
            let connecting = Task {
                try await KRPCSession.connect(url: url, configuration: .fast, client: makeClient(), logger: quietLogger)
            }
            guard case .transport? = await failure(of: connecting) as? KRPCSessionError else {
                Issue.record("expected a transport error")
                return
            }
        }
    }
}

/// The arguments a token provider was called with, in order.
final class TokenRequests: Sendable {
    private let requests = Mutex<[String?]>([])
    func record(_ refused: String?) { requests.withLock { $0.append(refused) } }
    var all: [String?] { requests.withLock { $0 } }
}
