import Foundation

/// One HTTP exchange, as the rest of the core sees it.
public struct HTTPRequest: Sendable {
    public var method: String
    public var url: URL
    /// Header fields in order. `Authorization` is never logged.
    public var headers: [(name: String, value: String)]
    public var body: Data?

    public init(method: String, url: URL, headers: [(name: String, value: String)] = [], body: Data? = nil) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
    }

    /// The value of the first header called `name` (case-insensitive).
    public func header(_ name: String) -> String? {
        headers.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.value
    }
}

/// What came back: status, headers and the whole body (bounded).
public struct HTTPResponse: Sendable {
    public var status: Int
    public var headers: [(name: String, value: String)]
    public var body: Data

    public init(status: Int, headers: [(name: String, value: String)] = [], body: Data = Data()) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// The value of the first header called `name` (case-insensitive).
    public func header(_ name: String) -> String? {
        headers.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.value
    }

    /// Whether the status is a redirect that carries a `Location`.
    public var isRedirect: Bool { [301, 302, 303, 307, 308].contains(status) && header("Location") != nil }
}

/// Why an exchange produced no response. Each case is a different thing to
/// tell the user; none carries a header value or a body.
public enum TransportError: Error, Equatable, Sendable {
    /// No connection: refused, no route, name not found, or closed before a response.
    case unreachable(String)
    /// The TLS handshake failed (untrusted or self-signed certificate, not TLS at all, …).
    case tlsFailure(String)
    /// The exchange did not complete within its time limit.
    case timedOut
    /// The response body passed its size limit.
    case bodyTooLarge(limit: Int)
    /// The response was malformed at the HTTP level (truncated body, bad framing).
    case invalidResponse(String)
    /// The caller cancelled.
    case cancelled

    /// Whether trying the next candidate address makes sense: the first one
    /// could not be connected to, or failed TLS.
    public var isConnectionFailure: Bool {
        switch self {
        case .unreachable, .tlsFailure: true
        default: false
        }
    }
}

/// Sends HTTP requests. A struct of closures so that tests can put a double
/// in a unit test; the app and the integration tests use ``live``.
///
/// Redirects are never followed here: callers decide (the API client follows
/// same-origin redirects only, so a Bearer token never leaves its origin).
public struct HTTPTransport: Sendable {
    /// Sends `request`, waiting at most `timeout` for the whole exchange and
    /// reading at most `maxBodyBytes` of body. Throws ``TransportError`` only.
    public var send: @Sendable (_ request: HTTPRequest, _ timeout: Duration, _ maxBodyBytes: Int) async throws -> HTTPResponse
    /// Opens `request` and hands back the head once it has arrived, with the
    /// body as it streams in (an event stream). `connectTimeout` bounds the
    /// wait for the head only; the body may go on for hours. Throws
    /// ``TransportError`` only.
    public var stream: @Sendable (_ request: HTTPRequest, _ connectTimeout: Duration) async throws -> HTTPStreamingResponse

    public init(send: @escaping @Sendable (_ request: HTTPRequest, _ timeout: Duration, _ maxBodyBytes: Int) async throws -> HTTPResponse,
                stream: @escaping @Sendable (_ request: HTTPRequest, _ connectTimeout: Duration) async throws -> HTTPStreamingResponse = { _, _ in
                    throw TransportError.unreachable("streaming is not supported by this transport")
                }) {
        self.send = send
        self.stream = stream
    }
}

/// A response whose body is still arriving.
public struct HTTPStreamingResponse: Sendable {
    public var status: Int
    public var headers: [(name: String, value: String)]
    /// The body in chunks as they arrive; ends when the server closes,
    /// throws ``TransportError`` when the connection breaks. Cancelling the
    /// consuming task closes the connection.
    public var body: AsyncThrowingStream<[UInt8], any Error>

    public init(status: Int, headers: [(name: String, value: String)] = [], body: AsyncThrowingStream<[UInt8], any Error>) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// The value of the first header called `name` (case-insensitive).
    public func header(_ name: String) -> String? {
        headers.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.value
    }
}
