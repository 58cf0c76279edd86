import Foundation
import ListenUpCore
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL
import NIOWebSocket

/// Test support, not part of the app.
///
/// A loopback WebSocket server (127.0.0.1 only, ephemeral port) that a test
/// scripts frame by frame. It records each upgrade request, can refuse the
/// upgrade unless a header has a given value (answering 401 by default) or
/// as a closure decides, answers plain HTTP requests on the same port (as a
/// kRPC server answers `/healthz` beside its sockets), and hands each
/// accepted connection over as a ``ScriptedWebSocketPeer``. Its frames are
/// never masked unless a test builds a masked one on purpose. ``stop()``
/// closes the listener and every connection.
public final class ScriptedWebSocketServer: Sendable {
    /// One upgrade request as received.
    public struct UpgradeRequest: Sendable {
        /// The request target: path and query.
        public var path: String
        /// Every header in order (name, value).
        public var headers: [(String, String)]
        /// The first value of a header (case-insensitive name), or nil.
        public func header(_ name: String) -> String? {
            headers.first { $0.0.caseInsensitiveCompare(name) == .orderedSame }?.1
        }
    }

    /// The answer to a plain HTTP request (one that is not an upgrade).
    public struct HTTPAnswer: Sendable {
        public var status: Int
        public var contentType: String
        public var body: Data
        public var headers: [(String, String)]

        public init(status: Int, contentType: String = "application/json", body: Data = Data(), headers: [(String, String)] = []) {
            self.status = status
            self.contentType = contentType
            self.body = body
            self.headers = headers
        }

        /// 200 with a JSON body.
        public static func json(_ text: String, status: Int = 200) -> HTTPAnswer {
            HTTPAnswer(status: status, body: Data(text.utf8))
        }
    }

    /// A wait that ran out; `description` says what it waited for.
    public struct TimedOut: Error, CustomStringConvertible { public var description: String }

    /// The bound port on 127.0.0.1.
    public let port: Int
    private let usesTLS: Bool
    private let listener: any Channel
    private let requests = LockedValue<[UpgradeRequest]>([])
    private let peers = TestInbox<ScriptedWebSocketPeer>()
    private let connections = LockedValue<[ObjectIdentifier: any Channel]>([:])
    private let plainRequests = LockedValue<[UpgradeRequest]>([])

    /// Upgrade requests received so far (refused ones included).
    public var upgradeRequests: [UpgradeRequest] { requests.value }

    /// Plain HTTP requests received so far (not upgrades).
    public var httpRequests: [UpgradeRequest] { plainRequests.value }

    /// `ws://127.0.0.1:port` (or `wss://`) followed by `path`.
    public func url(path: String = "/") -> URL {
        URL(string: "\(usesTLS ? "wss" : "ws")://127.0.0.1:\(port)\(path)") ?? URL(fileURLWithPath: "/")
    }

    /// Starts listening on 127.0.0.1 (ephemeral port).
    /// - Parameters:
    ///   - requiredHeader: refuse the upgrade unless this header has exactly this value.
    ///   - rejectionStatus: the HTTP status of a refusal (also for plain requests).
    ///   - tls: serve `wss` with this certificate and private key (PEM).
    ///   - refusing: for each upgrade the required header allows, the HTTP
    ///     status to refuse it with, or nil to accept it.
    ///   - http: answers plain HTTP requests (nil: `rejectionStatus`, empty).
    ///   - onConnection: called with each accepted connection (on its event
    ///     loop: hand it on, do not block); such connections are not queued
    ///     for ``nextPeer(within:)``.
    public static func start(requiring requiredHeader: (name: String, value: String)? = nil, rejectionStatus: Int = 401,
                             tls: (certificatePEM: String, privateKeyPEM: String)? = nil,
                             refusing: (@Sendable (UpgradeRequest) -> Int?)? = nil,
                             http: (@Sendable (UpgradeRequest) -> HTTPAnswer)? = nil,
                             onConnection: (@Sendable (ScriptedWebSocketPeer) -> Void)? = nil) async throws -> ScriptedWebSocketServer {
        try await ScriptedWebSocketServer(requiredHeader: requiredHeader, rejectionStatus: rejectionStatus, tls: tls, refusing: refusing,
                                          http: http, onConnection: onConnection)
    }

    private init(requiredHeader: (name: String, value: String)?, rejectionStatus: Int,
                 tls: (certificatePEM: String, privateKeyPEM: String)?, refusing: (@Sendable (UpgradeRequest) -> Int?)?,
                 http: (@Sendable (UpgradeRequest) -> HTTPAnswer)?,
                 onConnection: (@Sendable (ScriptedWebSocketPeer) -> Void)?) async throws {
        let (requests, peers, connections, plainRequests) = (self.requests, self.peers, self.connections, self.plainRequests)
        let refusals = LockedValue<[ObjectIdentifier: Int]>([:])
        usesTLS = tls != nil
        let tlsContext = try tls.map { pem in
            try NIOSSLContext(configuration: .makeServerConfiguration(
                certificateChain: try NIOSSLCertificate.fromPEMBytes(Array(pem.certificatePEM.utf8)).map { .certificate($0) },
                privateKey: .privateKey(try NIOSSLPrivateKey(bytes: Array(pem.privateKeyPEM.utf8), format: .pem))))
        }
        listener = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(ChannelOptions.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                let key = ObjectIdentifier(channel)
                connections.withLock { $0[key] = channel }
                channel.closeFuture.whenComplete { _ in
                    _ = connections.withLock { $0.removeValue(forKey: key) }
                    _ = refusals.withLock { $0.removeValue(forKey: key) }
                }
                return channel.eventLoop.makeCompletedFuture {
                    let sync = channel.pipeline.syncOperations
                    if let tlsContext { try sync.addHandler(NIOSSLServerHandler(context: tlsContext)) }
                    let upgrader = NIOTypedWebSocketServerUpgrader<Void>(
                        maxFrameSize: 64 << 20, enableAutomaticErrorHandling: false,
                        shouldUpgrade: { channel, head in
                            let request = UpgradeRequest(path: head.uri, headers: head.headers.map { ($0.name, $0.value) })
                            requests.withLock { $0.append(request) }
                            let allowed = requiredHeader.map { request.header($0.name) == $0.value } ?? true
                            let refusal = allowed ? refusing?(request) : rejectionStatus
                            // The refused request reaches RefusingHTTPHandler without its upgrade headers.
                            if let refusal { refusals.withLock { $0[ObjectIdentifier(channel)] = refusal } }
                            return channel.eventLoop.makeSucceededFuture(refusal == nil ? HTTPHeaders() : nil)
                        },
                        upgradePipelineHandler: { channel, head in
                            channel.eventLoop.makeCompletedFuture {
                                let peer = ScriptedWebSocketPeer(channel: channel, path: head.uri)
                                try channel.pipeline.syncOperations.addHandler(PeerFrameRecorder(peer: peer))
                                if let onConnection { onConnection(peer) } else { peers.append(peer) }
                            }
                        })
                    let answer: @Sendable (UpgradeRequest) -> HTTPAnswer = { request in
                        if let refusal = refusals.withLock({ $0.removeValue(forKey: key) }) {
                            return HTTPAnswer(status: refusal, contentType: "")
                        }
                        plainRequests.withLock { $0.append(request) }
                        return http?(request) ?? HTTPAnswer(status: rejectionStatus, contentType: "")
                    }
                    let upgrade = NIOTypedHTTPServerUpgradeConfiguration<Void>(upgraders: [upgrader]) { channel in
                        channel.eventLoop.makeCompletedFuture {
                            try channel.pipeline.syncOperations.addHandler(RefusingHTTPHandler(answer: answer))
                        }
                    }
                    _ = try sync.configureUpgradableHTTPServerPipeline(configuration: .init(upgradeConfiguration: upgrade))
                }
            }
            .bind(host: "127.0.0.1", port: 0).get()
        port = listener.localAddress?.port ?? 0
    }

    /// The next connection that completed the upgrade.
    /// - Throws: ``TimedOut`` after `timeout`.
    public func nextPeer(within timeout: Duration = .seconds(2)) async throws -> ScriptedWebSocketPeer {
        try await peers.next(within: timeout, waitingFor: "a WebSocket connection") { _ in true }
    }

    /// Closes the listener and every connection, without close frames.
    public func stop() async {
        try? await listener.close()
        for channel in connections.withLock({ Array($0.values) }) { try? await channel.close() }
    }
}

/// Answers whatever reached it (a refused upgrade, a plain request) as
/// `answer` says, then closes the connection.
private final class RefusingHTTPHandler: ChannelInboundHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    let answer: @Sendable (ScriptedWebSocketServer.UpgradeRequest) -> ScriptedWebSocketServer.HTTPAnswer
    private var request: ScriptedWebSocketServer.UpgradeRequest?

    init(answer: @escaping @Sendable (ScriptedWebSocketServer.UpgradeRequest) -> ScriptedWebSocketServer.HTTPAnswer) {
        self.answer = answer
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            request = .init(path: head.uri, headers: head.headers.map { ($0.name, $0.value) })
        case .body:
            break
        case .end:
            let reply = answer(request ?? .init(path: "/", headers: []))
            var headers = HTTPHeaders([("Content-Length", "\(reply.body.count)"), ("Connection", "close")])
            if !reply.contentType.isEmpty { headers.add(name: "Content-Type", value: reply.contentType) }
            for (name, value) in reply.headers { headers.add(name: name, value: value) }
            let head = HTTPResponseHead(version: .http1_1, status: HTTPResponseStatus(statusCode: reply.status), headers: headers)
            context.write(wrapOutboundOut(.head(head)), promise: nil)
            if !reply.body.isEmpty {
                context.write(wrapOutboundOut(.body(.byteBuffer(context.channel.allocator.buffer(bytes: reply.body)))), promise: nil)
            }
            let channel = context.channel
            context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in channel.close(promise: nil) }
        }
    }
}
