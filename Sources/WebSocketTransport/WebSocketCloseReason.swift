/// A WebSocket close status code (RFC 6455 §7.4), as sent or received in a
/// close frame.
///
/// A value type; any thread. Codes not named here are still representable
/// (`WebSocketCloseCode(rawValue: 4000)`).
public struct WebSocketCloseCode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The number on the wire.
    public var rawValue: UInt16

    /// A code from its number.
    /// - Parameter rawValue: the code as carried in the first two bytes of a close frame.
    public init(rawValue: UInt16) { self.rawValue = rawValue }

    /// 1000: the purpose of the connection is fulfilled.
    public static let normalClosure = WebSocketCloseCode(rawValue: 1000)
    /// 1001: the endpoint is going away (a server restarting, a client shutting down).
    public static let goingAway = WebSocketCloseCode(rawValue: 1001)
    /// 1002: the peer broke the protocol.
    public static let protocolError = WebSocketCloseCode(rawValue: 1002)
    /// 1003: a kind of data the endpoint does not accept.
    public static let unsupportedData = WebSocketCloseCode(rawValue: 1003)
    /// 1007: a text message that is not UTF-8.
    public static let invalidPayload = WebSocketCloseCode(rawValue: 1007)
    /// 1008: a generic policy violation.
    public static let policyViolation = WebSocketCloseCode(rawValue: 1008)
    /// 1009: a message too large to process.
    public static let messageTooBig = WebSocketCloseCode(rawValue: 1009)
    /// 1011: the server hit an unexpected condition; Ktor also uses it for "Ping timeout".
    public static let internalError = WebSocketCloseCode(rawValue: 1011)

    /// Whether the code may be put in a close frame. 1005, 1006 and 1015 are
    /// only ever reported locally, and codes below 1000 or in 1016–2999 are not
    /// assigned (RFC 6455 §7.4.1–7.4.2).
    public var isSendable: Bool {
        switch rawValue {
        case 1000...1003, 1007...1014, 3000...4999: true
        default: false
        }
    }

    /// The number, for logs.
    public var description: String { "\(rawValue)" }
}

/// How a ``WebSocketConnection`` ended: a closing handshake started by either
/// side, or a failure.
///
/// A value type; any thread. ``WebSocketConnection/messages`` finishes
/// normally for the first two cases and throws the error of the third.
public enum WebSocketCloseReason: Sendable, Equatable, CustomStringConvertible {
    /// The client closed with ``WebSocketConnection/close(code:)`` (or by
    /// cancelling the task reading ``WebSocketConnection/messages``, which
    /// sends 1001). Whether the server answered before the close timeout does
    /// not change this.
    case closedByClient(code: WebSocketCloseCode)
    /// The server sent a close frame (and was answered with the same code).
    /// `code` is nil when the frame carried no status (1005).
    case closedByServer(code: WebSocketCloseCode?, reason: String)
    /// Anything else: the TCP connection ended without a close frame, a
    /// network or TLS error, or the server broke the protocol.
    case failed(WebSocketTransportError)

    /// One line for logs.
    public var description: String {
        switch self {
        case .closedByClient(let code): "closed by the client (\(code))"
        case .closedByServer(let code, let reason):
            "closed by the server (\(code.map(\.description) ?? "no status")\(reason.isEmpty ? "" : ": \(reason)"))"
        case .failed(let error): "failed: \(error)"
        }
    }
}
