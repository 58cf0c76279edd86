import Foundation
import Logging
import NIOCore
import NIOWebSocket

/// The open connection's end of the pipeline: whole text messages in (to an
/// `AsyncThrowingStream`), frames out. It answers every ping with a pong that
/// echoes the payload, masks every frame it writes with a fresh random key,
/// pings on a timer if asked to, runs the closing handshake from either side,
/// and reports how the connection ended exactly once.
///
/// Not Sendable: NIO calls it on its channel's event loop only. Other threads
/// reach it through the channel (`writeAndFlush`, ``CloseRequest``).
final class WebSocketFrameHandler: ChannelDuplexHandler {
    typealias InboundIn = WebSocketFrame
    typealias OutboundIn = WebSocketFrame
    typealias OutboundOut = WebSocketFrame

    /// A user outbound event: start the closing handshake with this code.
    struct CloseRequest: Sendable { var code: WebSocketCloseCode }

    /// What the handler needs from ``WebSocketConfiguration``.
    struct Settings: Sendable {
        var pingInterval: TimeAmount?
        var closeTimeout: TimeAmount
        var maxMessageSize: Int
    }

    private enum State {
        case open
        /// The client sent a close frame with this code and waits for the server's.
        case closing(WebSocketCloseCode)
        case finished
    }

    private var state = State.open
    private let settings: Settings
    private let messages: AsyncThrowingStream<String, any Error>.Continuation
    private let ended: EventLoopPromise<WebSocketCloseReason>
    private let logger: Logger
    private var pinger: RepeatedTask?
    private var closeTimer: Scheduled<Void>?

    init(settings: Settings, messages: AsyncThrowingStream<String, any Error>.Continuation,
         ended: EventLoopPromise<WebSocketCloseReason>, logger: Logger) {
        self.settings = settings
        self.messages = messages
        self.ended = ended
        self.logger = logger
    }

    func handlerAdded(context: ChannelHandlerContext) {
        guard let interval = settings.pingInterval else { return }
        let channel = context.channel
        // Written through the channel, so this handler's `write` masks the ping
        // and drops it once the connection is closing.
        pinger = context.eventLoop.scheduleRepeatedTask(initialDelay: interval, delay: interval) { _ in
            var payload = channel.allocator.buffer(capacity: 8)
            payload.writeInteger(UInt64.random(in: .min ... .max))
            channel.writeAndFlush(WebSocketFrame(fin: true, opcode: .ping, data: payload), promise: nil)
        }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        finish(.failed(.connectionLost))
    }

    // MARK: Inbound

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let frame = unwrapInboundIn(data)
        switch frame.opcode {
        case .text:
            // Still delivered while our close awaits the server's (RFC 6455 §5.5.1).
            guard !isFinished else { return }
            guard let text = Self.utf8Text(frame.data) else { return fail(.invalidUTF8, context: context) }
            messages.yield(text)
        case .binary:
            logger.debug("Ignoring a binary WebSocket message", metadata: ["bytes": "\(frame.length)"])
        case .ping:
            guard case .open = state else { return }
            let pong = WebSocketFrame(fin: true, opcode: .pong, maskKey: .random(), data: frame.data)
            context.writeAndFlush(wrapOutboundOut(pong), promise: nil)
        case .pong:
            logger.trace("WebSocket pong received")
        case .connectionClose:
            receivedClose(frame, context: context)
        default:
            fail(.protocolViolation("unexpected \(frame.opcode)"), context: context)
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        if case .closing(let code) = state {
            finish(.closedByClient(code: code))
        } else {
            finish(.failed(.connectionLost))
        }
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        if case .closing(let code) = state {
            // The server may reset instead of answering a close: still our close.
            finish(.closedByClient(code: code))
            context.close(promise: nil)
            return
        }
        let failure = WebSocketTransportError(error, phase: .open, limit: settings.maxMessageSize)
        logger.debug("WebSocket error", metadata: ["error": "\(String(describing: error))"])
        fail(failure, context: context)
    }

    private func receivedClose(_ frame: WebSocketFrame, context: ChannelHandlerContext) {
        var body = frame.data
        let code = body.readInteger(as: UInt16.self).map(WebSocketCloseCode.init(rawValue:))
        let reason = body.readString(length: body.readableBytes) ?? ""
        switch state {
        case .open:
            // RFC 6455 §5.5.1: answer with a close frame (echoing the code), then drop TCP.
            finish(.closedByServer(code: code, reason: reason))
            writeClose(code.flatMap { $0.isSendable ? $0 : nil }, context: context)
        case .closing(let sent):
            finish(.closedByClient(code: sent))
            context.close(promise: nil)
        case .finished:
            break
        }
    }

    // MARK: Outbound

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        guard case .open = state else {
            promise?.fail(WebSocketTransportError.notOpen)
            return
        }
        var frame = unwrapOutboundIn(data)
        frame.maskKey = .random()  // RFC 6455 §5.3: a fresh key for every client frame
        context.write(wrapOutboundOut(frame), promise: promise)
    }

    func triggerUserOutboundEvent(context: ChannelHandlerContext, event: Any, promise: EventLoopPromise<Void>?) {
        guard let request = event as? CloseRequest else {
            return context.triggerUserOutboundEvent(event, promise: promise)
        }
        promise?.succeed()
        guard case .open = state else { return }
        state = .closing(request.code)
        var body = context.channel.allocator.buffer(capacity: 2)
        body.writeInteger(request.code.rawValue)
        let frame = WebSocketFrame(fin: true, opcode: .connectionClose, maskKey: .random(), data: body)
        context.writeAndFlush(wrapOutboundOut(frame), promise: nil)
        let channel = context.channel
        closeTimer = context.eventLoop.scheduleTask(in: settings.closeTimeout) { channel.close(promise: nil) }
    }

    // MARK: Ending

    /// Ends the stream with `error`, telling the server why when it can still
    /// be told (1002, 1007, 1009), and drops the connection.
    private func fail(_ error: WebSocketTransportError, context: ChannelHandlerContext) {
        guard !isFinished else { return }
        finish(.failed(error))
        if let code = error.closeCode {
            writeClose(code, context: context)
        } else {
            context.close(promise: nil)
        }
    }

    /// Writes a close frame (empty when `code` is nil), then closes the channel.
    private func writeClose(_ code: WebSocketCloseCode?, context: ChannelHandlerContext) {
        var body = context.channel.allocator.buffer(capacity: 2)
        if let code { body.writeInteger(code.rawValue) }
        let frame = WebSocketFrame(fin: true, opcode: .connectionClose, maskKey: .random(), data: body)
        let channel = context.channel
        context.writeAndFlush(wrapOutboundOut(frame)).whenComplete { _ in channel.close(promise: nil) }
    }

    private var isFinished: Bool {
        if case .finished = state { return true }
        return false
    }

    private func finish(_ reason: WebSocketCloseReason) {
        guard !isFinished else { return }
        state = .finished
        pinger?.cancel()
        closeTimer?.cancel()
        if case .failed(let error) = reason {
            messages.finish(throwing: error)
            logger.info("WebSocket failed", metadata: ["reason": "\(reason)"])
        } else {
            messages.finish()
            logger.debug("WebSocket closed", metadata: ["reason": "\(reason)"])
        }
        ended.succeed(reason)
    }

    /// The buffer as a string, or nil unless it is valid UTF-8.
    static func utf8Text(_ buffer: ByteBuffer) -> String? {
        if #available(macOS 15, *) {
            return String(validating: buffer.readableBytesView, as: UTF8.self)
        }
        return String(data: Data(buffer.readableBytesView), encoding: .utf8)
    }
}
