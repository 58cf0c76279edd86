import WebSocketTransport

/// Why a kRPC session ended (§2.6, §2.8).
///
/// A value type; any thread. Everything except ``closedByClient`` means "the
/// server or the network ended it": reconnect with `ReconnectBackoff` and
/// resubscribe streams from their latest cursor.
public enum KRPCSessionCloseReason: Sendable, Equatable, CustomStringConvertible {
    /// ``KRPCSession/close()`` was called (the client sent the ENDPOINT cancellation).
    case closedByClient
    /// The server sent an ENDPOINT cancellation: it is ending this kRPC
    /// session, typically because it is shutting down.
    case endpointCancelled
    /// The server did not answer the client's Handshake within the handshake
    /// timeout (not a kRPC endpoint, or a hung server).
    case handshakeTimedOut
    /// The WebSocket ended under the session: a close frame from the server,
    /// a lost connection, a protocol violation (see the transport's reason).
    case socketClosed(WebSocketCloseReason)

    /// Whether the client asked for the end; false means a reconnect makes sense.
    public var isClientInitiated: Bool { self == .closedByClient }

    /// One line for logs.
    public var description: String {
        switch self {
        case .closedByClient: "closed by the client"
        case .endpointCancelled: "the server ended the kRPC session (ENDPOINT cancellation)"
        case .handshakeTimedOut: "the server did not answer the kRPC handshake"
        case .socketClosed(let reason): "the WebSocket \(reason)"
        }
    }
}

/// Why a kRPC session could not be opened, or why one call or stream failed.
///
/// A value type; any thread; `Equatable` so tests and callers can match
/// cases. `description` is for logs and never contains a token or argument.
/// Domain errors are **not** here: a `CallSuccess` carrying
/// `{"type":"Failure",…}` is a successful call whose `AppResult` is a failure.
public enum KRPCSessionError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The server answered the WebSocket upgrade with HTTP 401: the access
    /// token was refused. Refresh it (on the public socket) and connect again,
    /// once (§1.2).
    case unauthorized
    /// The WebSocket could not be opened (refused, unreachable, TLS, another
    /// HTTP status, timeout): the transport's reason.
    case transport(WebSocketTransportError)
    /// The server did not answer the client's Handshake within the handshake
    /// timeout; the socket has been closed. Calls queued behind it fail so too.
    case handshakeFailed
    /// A unary call got no answer within its timeout (`method` is the Kotlin
    /// method name). The server never answers some mistakes (§2.7): an
    /// unregistered service, a malformed envelope. The call was cancelled.
    case timedOut(method: String)
    /// The server could not run the call (`CallException`, §2.4.4): unknown
    /// method, arguments that do not decode, an `init{require}` violation, a
    /// Flow called without its marker. A bug or contract mismatch: **do not
    /// retry**. `className` and `message` are the server's, for logs.
    case callException(className: String, message: String)
    /// The server sent an ENDPOINT cancellation: the whole session is over,
    /// every pending call and stream failed with this. Reconnect.
    case endpointCancelled
    /// The server ended a stream with `StreamCancel` (§2.5): its Flow failed
    /// or was cancelled (e.g. a shutdown). `message` is the cause's message.
    case streamCancelled(message: String)
    /// The server cancelled this one call with a REQUEST cancellation.
    case cancelledByServer
    /// The session ended while the call or stream was in flight (it may or
    /// may not have run on the server).
    case closed(KRPCSessionCloseReason)
    /// The session had already ended (or was closing) when the call was
    /// started: nothing was sent.
    case notOpen
    /// The caller's task was cancelled while waiting; `KRPCSession` throws
    /// `CancellationError` in its place. The REQUEST cancellation was sent.
    case cancelled
    /// The typed convenience could not encode the arguments (a non-finite number).
    case invalidArguments(String)
    /// The typed convenience could not decode the result as the expected
    /// `AppResult` (a contract mismatch).
    case undecodableResult(String)

    /// One line for logs.
    public var description: String {
        switch self {
        case .unauthorized: "the server refused the access token (HTTP 401 at the WebSocket upgrade)"
        case .transport(let error): "could not open the WebSocket: \(error)"
        case .handshakeFailed: "the server did not answer the kRPC handshake"
        case .timedOut(let method): "\(method) got no answer in time"
        case .callException(let className, let message): "the server could not run the call: \(className): \(message)"
        case .endpointCancelled: "the server ended the kRPC session"
        case .streamCancelled(let message): "the server cancelled the stream: \(message)"
        case .cancelledByServer: "the server cancelled the call"
        case .closed(let reason): "the session ended during the call: \(reason)"
        case .notOpen: "the kRPC session is not open"
        case .cancelled: "the call was cancelled"
        case .invalidArguments(let detail): "the arguments could not be encoded: \(detail)"
        case .undecodableResult(let detail): "the result could not be decoded: \(detail)"
        }
    }

    /// Whether the same call may succeed on a new session (after a reconnect).
    /// False for ``callException(className:message:)`` (a bug),
    /// ``unauthorized`` (refresh first), argument and result errors, and
    /// ``cancelled``.
    public var isRetryableAfterReconnect: Bool {
        switch self {
        case .transport, .handshakeFailed, .timedOut, .endpointCancelled, .streamCancelled, .cancelledByServer,
             .closed, .notOpen:
            true
        case .unauthorized, .callException, .cancelled, .invalidArguments, .undecodableResult:
            false
        }
    }
}

extension KRPCSessionError {
    /// The error pending calls get when the session ends for `reason`.
    init(ending reason: KRPCSessionCloseReason) {
        switch reason {
        case .endpointCancelled: self = .endpointCancelled
        case .handshakeTimedOut: self = .handshakeFailed
        case .closedByClient, .socketClosed: self = .closed(reason)
        }
    }
}
