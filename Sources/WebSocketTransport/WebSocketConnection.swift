import Logging
import NIOCore
import NIOWebSocket

/// One open WebSocket from ``WebSocketClient/connect(to:headers:)``: whole
/// text messages in (``messages``) and out (``send(text:)``), a closing
/// handshake (``close(code:)``) and the reason it ended (``closeReason``).
///
/// Thread-safe (`Sendable`): any task may send while another reads
/// ``messages``. The frame work (pongs echoing the server's pings, masking,
/// answering a close) happens on the channel's event loop, so pings are
/// answered however slowly ``messages`` is read.
///
/// Keep the connection alive while using it: when the last reference goes,
/// it starts the closing handshake (1001), and ``messages`` ends.
public final class WebSocketConnection: Sendable {
    /// Every text message the server sends, whole (fragments aggregated), in
    /// order. Binary messages are ignored (the kRPC contract uses text only).
    ///
    /// One reader. It finishes normally after a closing handshake (started by
    /// either side; see ``closeReason``) and throws a
    /// ``WebSocketTransportError`` otherwise: ``WebSocketTransportError/connectionLost``
    /// when TCP ended without a close frame, ``WebSocketTransportError/invalidUTF8``,
    /// ``WebSocketTransportError/protocolViolation(_:)`` or
    /// ``WebSocketTransportError/messageTooLarge(limit:)`` when the server
    /// misbehaved (the connection is then closed). Messages are buffered
    /// without limit until read. Cancelling the reading task closes the
    /// connection with 1001.
    public let messages: AsyncThrowingStream<String, any Error>

    private let channel: any Channel
    private let ended: EventLoopFuture<WebSocketCloseReason>
    private let logger: Logger

    init(channel: any Channel, messages: AsyncThrowingStream<String, any Error>,
         continuation: AsyncThrowingStream<String, any Error>.Continuation,
         ended: EventLoopFuture<WebSocketCloseReason>, logger: Logger) {
        self.channel = channel
        self.messages = messages
        self.ended = ended
        self.logger = logger
        continuation.onTermination = { termination in
            guard case .cancelled = termination else { return }
            channel.triggerUserOutboundEvent(WebSocketFrameHandler.CloseRequest(code: .goingAway), promise: nil)
        }
    }

    deinit {
        channel.triggerUserOutboundEvent(WebSocketFrameHandler.CloseRequest(code: .goingAway), promise: nil)
    }

    /// Sends one text message as a single masked frame.
    ///
    /// Any task; concurrent sends are written whole, in the order they reach
    /// the event loop. Returns once the frame is handed to the socket.
    /// - Parameter text: the message (one kRPC JSON message).
    /// - Throws: ``WebSocketTransportError/notOpen`` once the connection is
    ///   closing or closed.
    public func send(text: String) async throws {
        let frame = WebSocketFrame(fin: true, opcode: .text, data: channel.allocator.buffer(string: text))
        do {
            try await channel.writeAndFlush(frame)
        } catch let error as WebSocketTransportError {
            throw error
        } catch {
            logger.debug("WebSocket send failed", metadata: ["error": "\(String(describing: error))"])
            throw WebSocketTransportError.notOpen
        }
    }

    /// Starts the closing handshake with `code` and returns once it is over:
    /// the server answered, or the close timeout dropped the connection.
    /// Does nothing more if the connection has already ended.
    ///
    /// Any task. ``messages`` then finishes without an error.
    /// - Parameter code: sent to the server; 1000 by default.
    public func close(code: WebSocketCloseCode = .normalClosure) async {
        channel.triggerUserOutboundEvent(WebSocketFrameHandler.CloseRequest(code: code), promise: nil)
        _ = await closeReason
    }

    /// How the connection ended; waits until it has.
    ///
    /// Any task, any number of times.
    public var closeReason: WebSocketCloseReason {
        get async { (try? await ended.get()) ?? .failed(.connectionLost) }
    }
}
