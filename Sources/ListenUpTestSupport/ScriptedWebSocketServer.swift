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

/// One accepted WebSocket connection, server side, as a test drives it.
public final class ScriptedWebSocketPeer: Sendable {
    /// A frame the client sent, payload unmasked.
    public struct ReceivedFrame: Sendable {
        /// The frame's opcode and FIN bit, as received (no aggregation here).
        public var opcode: WebSocketOpcode, fin: Bool
        /// The masking key the client used, nil if the frame was not masked.
        public var maskKey: [UInt8]?
        /// The application data, unmasked.
        public var payload: [UInt8]
        /// The payload as text (lossy), for text frames.
        public var text: String? { opcode == .text ? String(decoding: payload, as: UTF8.self) : nil }
        /// The status code of a close frame.
        public var closeCode: UInt16? {
            opcode == .connectionClose && payload.count >= 2 ? UInt16(payload[0]) << 8 | UInt16(payload[1]) : nil
        }
    }

    private struct State {
        var frames: [ReceivedFrame] = [], sentClose = false, ignoresClose = false
        var listener: AsyncStream<ReceivedFrame>.Continuation?
    }

    private let channel: any Channel
    private let inbox = TestInbox<ReceivedFrame>()
    private let state = LockedValue(State())

    init(channel: any Channel, path: String) {
        self.channel = channel
        self.path = path
        let state = self.state
        channel.closeFuture.whenComplete { _ in state.withLock { $0.listener }?.finish() }
    }

    /// Every frame received so far.
    public var frames: [ReceivedFrame] { state.value.frames }

    /// The path and query the client upgraded on.
    public let path: String

    /// Every frame from the client from now on, in order, for a test that
    /// serves the connection in a loop (a scripted kRPC server); ends when
    /// the connection closes. Frames from then on no longer reach
    /// ``nextFrame(within:where:)``. Call it once.
    public func incomingFrames() -> AsyncStream<ReceivedFrame> {
        let (stream, continuation) = AsyncStream.makeStream(of: ReceivedFrame.self)
        // Under the lock ``record(_:)`` takes: frames already queued come
        // first, and none slips between the queue and the stream.
        state.withLock { state in
            for frame in inbox.drain() { continuation.yield(frame) }
            state.listener = continuation
        }
        if !channel.isActive { continuation.finish() }
        return stream
    }

    /// Resolves once the TCP connection is closed (by either side).
    public func waitUntilClosed() async { try? await channel.closeFuture.get() }

    /// The next received frame that `matches` (others stay queued).
    /// - Throws: ``ScriptedWebSocketServer/TimedOut`` after `timeout`.
    public func nextFrame(within timeout: Duration = .seconds(2),
                          where matches: @escaping @Sendable (ReceivedFrame) -> Bool = { _ in true }) async throws -> ReceivedFrame {
        try await inbox.next(within: timeout, waitingFor: "a frame from the client", where: matches)
    }

    /// The next text message.
    public func nextText(within timeout: Duration = .seconds(2)) async throws -> String {
        try await nextFrame(within: timeout) { $0.opcode == .text }.text ?? ""
    }

    /// Sends one unfragmented, unmasked text frame.
    public func send(text: String) async throws {
        try await send(WebSocketFrame(fin: true, opcode: .text, data: channel.allocator.buffer(string: text)))
    }

    /// Sends one text message split into frames: a non-final text frame, then
    /// continuation frames, the last one final.
    public func send(fragments: [String]) async throws {
        for (index, fragment) in fragments.enumerated() {
            try await send(WebSocketFrame(fin: index == fragments.count - 1, opcode: index == 0 ? .text : .continuation,
                                          data: channel.allocator.buffer(string: fragment)))
        }
    }

    /// Sends one unfragmented, unmasked binary frame.
    public func send(binary: [UInt8]) async throws {
        try await send(WebSocketFrame(fin: true, opcode: .binary, data: channel.allocator.buffer(bytes: binary)))
    }

    /// Sends any frame as built (binary, invalid UTF-8, masked, …).
    public func send(_ frame: WebSocketFrame) async throws { try await channel.writeAndFlush(frame) }

    /// Writes bytes as they are, under the frame encoder (malformed frames).
    public func sendRaw(_ bytes: [UInt8]) async throws {
        let channel = self.channel
        try await channel.eventLoop.flatSubmit { () -> EventLoopFuture<Void> in
            guard let context = try? channel.pipeline.syncOperations.context(handlerType: WebSocketFrameEncoder.self) else {
                return channel.eventLoop.makeFailedFuture(ChannelError.ioOnClosedChannel)
            }
            return context.writeAndFlush(NIOAny(channel.allocator.buffer(bytes: bytes)))
        }.get()
    }

    /// Sends a ping; the pong shows up in ``nextFrame(within:where:)``.
    public func ping(_ payload: [UInt8]) async throws {
        try await send(WebSocketFrame(fin: true, opcode: .ping, data: channel.allocator.buffer(bytes: payload)))
    }

    /// Sends a close frame with `code` and `reason`, then closes TCP once the
    /// client answers (or at once if it already sent its own).
    public func close(code: WebSocketErrorCode = .normalClosure, reason: String = "") async throws {
        var body = channel.allocator.buffer(capacity: 2 + reason.utf8.count)
        body.write(webSocketErrorCode: code)
        body.writeString(reason)
        state.withLock { $0.sentClose = true }
        try await send(WebSocketFrame(fin: true, opcode: .connectionClose, data: body))
    }

    /// Closes TCP at once, without a close frame.
    public func drop() async { try? await channel.close() }

    /// From now on, records close frames but neither answers them nor closes.
    public func ignoreCloseFrames() { state.withLock { $0.ignoresClose = true } }

    /// Called by the recorder on the event loop; returns what to do with a close frame.
    fileprivate func record(_ frame: ReceivedFrame) -> (answer: Bool, closeTCP: Bool) {
        let (sentClose, ignoresClose) = state.withLock { state in
            state.frames.append(frame)
            if let listener = state.listener { listener.yield(frame) } else { inbox.append(frame) }
            return (state.sentClose, state.ignoresClose)
        }
        return frame.opcode == .connectionClose && !ignoresClose ? (!sentClose, true) : (false, false)
    }
}

/// Records every frame from the client and echoes its close frame.
private final class PeerFrameRecorder: ChannelInboundHandler {
    typealias InboundIn = WebSocketFrame
    typealias OutboundOut = WebSocketFrame

    let peer: ScriptedWebSocketPeer
    init(peer: ScriptedWebSocketPeer) { self.peer = peer }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let frame = unwrapInboundIn(data)
        let payload = frame.unmaskedData
        let action = peer.record(.init(opcode: frame.opcode, fin: frame.fin, maskKey: frame.maskKey.map { Array($0) },
                                       payload: Array(payload.readableBytesView)))
        let channel = context.channel
        if action.answer {
            let echo = WebSocketFrame(fin: true, opcode: .connectionClose, data: payload)
            context.writeAndFlush(wrapOutboundOut(echo)).whenComplete { _ in channel.close(promise: nil) }
        } else if action.closeTCP {
            context.close(promise: nil)
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) { context.close(promise: nil) }
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

/// Items in arrival order for one waiter at a time, with a deadline.
final class TestInbox<Element: Sendable>: Sendable {
    private typealias Waiter = (id: Int, matches: @Sendable (Element) -> Bool, continuation: CheckedContinuation<Element, any Error>)
    private struct State { var items: [Element] = [], waiter: Waiter?, lastID = 0 }
    private let state = LockedValue(State())

    func append(_ element: Element) {
        let waiter = state.withLock { state -> Waiter? in
            if let waiter = state.waiter, waiter.matches(element) { state.waiter = nil; return waiter }
            state.items.append(element)
            return nil
        }
        waiter?.continuation.resume(returning: element)
    }

    /// Takes every item queued and not yet waited for.
    func drain() -> [Element] {
        state.withLock { state in
            defer { state.items.removeAll() }
            return state.items
        }
    }

    func next(within timeout: Duration, waitingFor what: String,
              where matches: @escaping @Sendable (Element) -> Bool) async throws -> Element {
        try await withCheckedThrowingContinuation { continuation in
            let id: Int? = state.withLock { state in
                if let index = state.items.firstIndex(where: matches) {
                    continuation.resume(returning: state.items.remove(at: index))
                    return nil
                }
                state.lastID += 1
                state.waiter = (state.lastID, matches, continuation)
                return state.lastID
            }
            guard let id else { return }
            Task {
                try? await Task.sleep(for: timeout)
                let expired = state.withLock { state -> Waiter? in
                    guard state.waiter?.id == id else { return nil }
                    defer { state.waiter = nil }
                    return state.waiter
                }
                expired?.continuation.resume(throwing: ScriptedWebSocketServer.TimedOut(description: "timed out waiting for \(what)"))
            }
        }
    }
}
