import NIOCore
import NIOHTTP1
import NIOWebSocket

/// Fails the pending connect on a network or TLS error, or when the server
/// closes the connection before the upgrade is decided. Sits right after TLS;
/// once the upgrade is decided its reports are ignored (a promise completes once).
///
/// Not Sendable: NIO calls it on its channel's event loop only.
final class HandshakeWatcher: ChannelInboundHandler {
    typealias InboundIn = NIOAny

    private let outcome: EventLoopPromise<EventLoopFuture<WebSocketCloseReason>>

    init(outcome: EventLoopPromise<EventLoopFuture<WebSocketCloseReason>>) {
        self.outcome = outcome
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        outcome.fail(error)
        context.fireErrorCaught(error)
    }

    func channelInactive(context: ChannelHandlerContext) {
        outcome.fail(WebSocketTransportError.connectionFailed("the server closed the connection before answering the upgrade"))
        context.fireChannelInactive()
    }
}

/// Added when the server did not answer 101: reads the response head, fails
/// the pending connect with its status and closes the connection.
///
/// Not Sendable: NIO calls it on its channel's event loop only.
final class RejectedUpgradeReader: ChannelInboundHandler {
    typealias InboundIn = HTTPClientResponsePart

    private let outcome: EventLoopPromise<EventLoopFuture<WebSocketCloseReason>>

    init(outcome: EventLoopPromise<EventLoopFuture<WebSocketCloseReason>>) {
        self.outcome = outcome
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard case .head(let head) = unwrapInboundIn(data) else { return }
        outcome.fail(WebSocketTransportError.upgradeRejected(status: Int(head.status.code)))
        context.close(promise: nil)
    }
}

/// Refuses frames a server must never send (RFC 6455 §5.1–5.2): masked ones,
/// reserved bits set (no extension was negotiated), reserved opcodes. Sits
/// before the fragment aggregator, which would hide a masked fragment.
///
/// Not Sendable: NIO calls it on its channel's event loop only.
final class ServerFrameValidator: ChannelInboundHandler {
    typealias InboundIn = WebSocketFrame
    typealias InboundOut = WebSocketFrame

    private var failed = false

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !failed else { return }
        if let problem = Self.problem(with: unwrapInboundIn(data)) {
            failed = true
            context.fireErrorCaught(WebSocketTransportError.protocolViolation(problem))
            return
        }
        context.fireChannelRead(data)
    }

    /// Why a frame from the server is invalid, or nil.
    static func problem(with frame: WebSocketFrame) -> String? {
        if frame.maskKey != nil { return "the server masked a frame" }
        if !frame.reservedBits.isEmpty { return "reserved bits set without an extension" }
        switch frame.opcode {
        case .continuation, .text, .binary, .connectionClose, .ping, .pong: return nil
        default: return "reserved opcode \(UInt8(webSocketOpcode: frame.opcode))"
        }
    }
}
