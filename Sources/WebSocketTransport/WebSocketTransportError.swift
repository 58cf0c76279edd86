import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL
import NIOWebSocket

/// Why a WebSocket could not be opened, used, or kept open.
///
/// A value type; any thread. `description` is for logs and never contains a
/// header value (tokens stay out of logs).
public enum WebSocketTransportError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The URL is not `ws://` or `wss://` with a host.
    case invalidURL(String)
    /// An extra header cannot be sent: its name is one the handshake sets
    /// itself (Host, Upgrade, Connection, Sec-WebSocket-*, framing), or the
    /// name or value holds bytes HTTP does not allow. Carries the name only.
    case invalidHeader(name: String)
    /// No open WebSocket within the connect timeout (TCP, TLS and upgrade together).
    case timedOut
    /// The TCP connection could not be made (refused, unreachable, DNS), or
    /// the server closed it before answering the upgrade.
    case connectionFailed(String)
    /// The TLS handshake failed or the server's certificate was refused.
    case tlsFailed(String)
    /// The server answered the upgrade with this HTTP status instead of 101.
    /// 401 means the access token was refused: refresh it and retry once.
    case upgradeRejected(status: Int)
    /// The server answered 101 but not a valid WebSocket handshake, or did
    /// not speak HTTP at all.
    case invalidHandshake(String)
    /// The TCP connection ended without a close frame (code 1006), after a
    /// network error or an abrupt close by the server or a proxy.
    case connectionLost
    /// The server broke RFC 6455: a masked frame, reserved bits or opcodes,
    /// a bad fragment sequence, an oversized control frame.
    case protocolViolation(String)
    /// A text message was not valid UTF-8.
    case invalidUTF8
    /// A message (whole or aggregated from fragments) exceeds this many bytes.
    case messageTooLarge(limit: Int)
    /// The connection is closing or closed: nothing more can be sent.
    case notOpen

    /// True for a 401 answer to the upgrade (the token was refused).
    public var isUnauthorized: Bool { self == .upgradeRejected(status: 401) }

    /// One line for logs.
    public var description: String {
        switch self {
        case .invalidURL(let url): "not a ws:// or wss:// URL: \(url)"
        case .invalidHeader(let name): "header \(name) cannot be sent on a WebSocket upgrade"
        case .timedOut: "timed out opening the WebSocket"
        case .connectionFailed(let detail): "connection failed: \(detail)"
        case .tlsFailed(let detail): "TLS failed: \(detail)"
        case .upgradeRejected(let status): "the server answered the WebSocket upgrade with HTTP \(status)"
        case .invalidHandshake(let detail): "invalid WebSocket handshake: \(detail)"
        case .connectionLost: "the connection ended without a close frame"
        case .protocolViolation(let detail): "WebSocket protocol violation: \(detail)"
        case .invalidUTF8: "a text message was not valid UTF-8"
        case .messageTooLarge(let limit): "a message exceeds \(limit) bytes"
        case .notOpen: "the WebSocket is not open"
        }
    }

    /// The code to put in the close frame sent before dropping the
    /// connection, or nil when the connection is already unusable.
    var closeCode: WebSocketCloseCode? {
        switch self {
        case .protocolViolation: .protocolError
        case .invalidUTF8: .invalidPayload
        case .messageTooLarge: .messageTooBig
        default: nil
        }
    }

    /// Where an underlying error happened, which decides how it reads.
    enum Phase { case handshake, open }

    /// Classifies an error from NIO, NIOSSL or the handshake.
    /// - Parameters:
    ///   - error: what the pipeline or bootstrap reported.
    ///   - phase: before the upgrade (a failure to connect) or after (a lost connection).
    ///   - limit: the configured message limit, reported by ``messageTooLarge(limit:)``.
    init(_ error: any Error, phase: Phase, limit: Int) {
        switch error {
        case let error as WebSocketTransportError:
            self = error
        case ChannelError.connectTimeout:
            self = .timedOut
        case NIOSSLError.uncleanShutdown where phase == .open:
            self = .connectionLost
        case is NIOSSLError, is BoringSSLError, is NIOSSLExtraError:
            self = .tlsFailed(String(describing: error))
        case is NIOConnectionError:
            self = .connectionFailed(String(describing: error))
        case is NIOHTTPClientUpgradeError, is HTTPParserError:
            self = .invalidHandshake(String(describing: error))
        case NIOWebSocketError.invalidFrameLength:
            self = .messageTooLarge(limit: limit)
        case is NIOWebSocketError:
            self = .protocolViolation(String(describing: error))
        case NIOWebSocketFrameAggregator.Error.accumulatedFrameSizeIsTooLarge:
            self = .messageTooLarge(limit: limit)
        case let error as NIOWebSocketFrameAggregator.Error:
            self = .protocolViolation("fragments: \(error)")
        default:
            self = phase == .handshake ? .connectionFailed(String(describing: error)) : .connectionLost
        }
    }
}
