import Foundation
import Logging
import NIOCore
import NIOWebSocket

/// One kRPC WebSocket, server side, as Ktor runs it (§1.3): text frames go
/// to the session, binary frames are dropped, client pings are answered,
/// and the server pings every `pingInterval` with `"[ping <64 hex> ping]"`,
/// closing with 1011 "Ping timeout" when the matching pong does not come
/// within `pingTimeout` (pongs with another payload are ignored).
///
/// Confined to its channel's event loop; not Sendable.
final class DemoKRPCSocketHandler: ChannelInboundHandler {
    typealias InboundIn = WebSocketFrame
    typealias OutboundOut = WebSocketFrame

    private let endpoint: DemoKRPCEndpoint
    private let pingInterval: TimeAmount
    private let pingTimeout: TimeAmount
    private let logger: Logger
    private var nextPing: Scheduled<Void>?
    private var pongDeadline: Scheduled<Void>?
    private var awaitedPong: [UInt8]?

    init(endpoint: DemoKRPCEndpoint, pingInterval: TimeInterval, pingTimeout: TimeInterval, logger: Logger) {
        self.endpoint = endpoint
        self.pingInterval = .nanoseconds(Int64(max(0.001, pingInterval) * 1e9))
        self.pingTimeout = .nanoseconds(Int64(max(0.001, pingTimeout) * 1e9))
        self.logger = logger
    }

    func handlerAdded(context: ChannelHandlerContext) {
        schedulePing(on: context.channel)
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        stopPinging()
    }

    func channelInactive(context: ChannelHandlerContext) {
        stopPinging()
        endpoint.socketClosed()
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let frame = unwrapInboundIn(data)
        switch frame.opcode {
        case .text:
            var payload = frame.unmaskedData
            endpoint.receive(payload.readString(length: payload.readableBytes) ?? "")
        case .binary:
            logger.debug("kRPC: binary frame dropped", metadata: ["bytes": "\(frame.length)"])
        case .ping:
            let pong = WebSocketFrame(fin: true, opcode: .pong, data: frame.unmaskedData)
            context.writeAndFlush(wrapOutboundOut(pong), promise: nil)
        case .pong:
            var payload = frame.unmaskedData
            if let awaited = awaitedPong, payload.readBytes(length: payload.readableBytes) == awaited {
                awaitedPong = nil
                pongDeadline?.cancel()
                pongDeadline = nil
                schedulePing(on: context.channel)
            }
        case .connectionClose:
            var payload = frame.unmaskedData
            endpoint.closeReceived(code: payload.readWebSocketErrorCode() ?? .normalClosure)
        default:
            break
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        logger.debug("kRPC: socket error", metadata: ["error": "\(error)"])
        context.close(promise: nil)
    }

    private func schedulePing(on channel: any Channel) {
        nextPing?.cancel()
        nextPing = channel.eventLoop.assumeIsolated().scheduleTask(in: pingInterval) { [self] in
            sendPing(on: channel)
        }
    }

    private func sendPing(on channel: any Channel) {
        nextPing = nil
        guard channel.isActive else { return }
        var random = SystemRandomNumberGenerator()
        let hex = (0..<32).map { _ in String(format: "%02x", UInt8.random(in: 0...255, using: &random)) }.joined()
        let payload = Array("[ping \(hex) ping]".utf8)
        awaitedPong = payload
        channel.writeAndFlush(WebSocketFrame(fin: true, opcode: .ping, data: channel.allocator.buffer(bytes: payload)), promise: nil)
        pongDeadline = channel.eventLoop.assumeIsolated().scheduleTask(in: pingTimeout) { [self] in
            pongDeadline = nil
            logger.info("kRPC: no pong in time, closing the socket")
            endpoint.close(code: .unexpectedServerError, reason: "Ping timeout")
        }
    }

    private func stopPinging() {
        nextPing?.cancel()
        nextPing = nil
        pongDeadline?.cancel()
        pongDeadline = nil
    }
}
