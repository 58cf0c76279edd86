import Foundation
import ListenUpCore
import NIOCore
import NIOWebSocket

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
final class PeerFrameRecorder: ChannelInboundHandler {
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
