import AsyncHTTPClient
import Foundation
import ListenUpCore
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL

extension HTTPTransport {
    /// The real network, through AsyncHTTPClient (SwiftNIO, BoringSSL with the
    /// system's trust store). Redirects are handed back, never followed.
    public static let live = HTTPTransport(
        send: { request, timeout, maxBodyBytes in
            try await LiveHTTP.send(request, timeout: timeout, maxBodyBytes: maxBodyBytes)
        },
        stream: { request, connectTimeout in
            try await LiveHTTP.stream(request, connectTimeout: connectTimeout)
        }
    )
}

/// The process-wide HTTP client behind ``HTTPTransport/live``. It lives as
/// long as the process, so it is never shut down.
enum LiveHTTP {
    static let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration(read: .seconds(10)))
    /// For event streams: the server sends a heartbeat about every 15 s, so
    /// 75 s without a byte means the connection is dead.
    static let streamingClient = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration(read: .seconds(75)))

    /// No redirects followed, no decompression, 10 s to connect, `read` the
    /// longest wait between two reads (before the head and within the body).
    static func configuration(read: TimeAmount) -> HTTPClient.Configuration {
        var configuration = HTTPClient.Configuration(
            redirectConfiguration: .disallow,
            timeout: .init(connect: .seconds(10), read: read),
            decompression: .disabled
        )
        // Fail fast: a refused connection or a failed TLS handshake is an
        // answer (try the next address, or tell the user), not something to
        // retry until the deadline.
        configuration.connectionPool.retryConnectionEstablishment = false
        return configuration
    }

    static func outgoing(_ request: HTTPRequest) -> HTTPClientRequest {
        var outgoing = HTTPClientRequest(url: request.url.absoluteString)
        outgoing.method = HTTPMethod(rawValue: request.method)
        for header in request.headers {
            outgoing.headers.add(name: header.name, value: header.value)
        }
        if let body = request.body {
            outgoing.body = .bytes(ByteBuffer(bytes: body))
        }
        return outgoing
    }

    static func stream(_ request: HTTPRequest, connectTimeout: Duration) async throws -> HTTPStreamingResponse {
        let prepared = outgoing(request)
        let response: HTTPClientResponse
        do {
            // No deadline on the exchange: an event stream is meant to stay
            // open. The head must come within `connectTimeout`.
            response = try await withTimeLimit(connectTimeout) {
                try await streamingClient.execute(prepared, deadline: .distantFuture)
            }
        } catch {
            throw TransportError(classifying: error, limit: 0)
        }
        let (body, continuation) = AsyncThrowingStream.makeStream(of: [UInt8].self, throwing: (any Error).self)
        let pump = Task {
            do {
                for try await buffer in response.body {
                    continuation.yield(Array(buffer.readableBytesView))
                }
                continuation.finish()
            } catch {
                continuation.finish(throwing: TransportError(classifying: error, limit: 0))
            }
        }
        continuation.onTermination = { _ in pump.cancel() }
        return HTTPStreamingResponse(
            status: Int(response.status.code),
            headers: response.headers.map { (name: $0.name, value: $0.value) },
            body: body
        )
    }

    static func send(_ request: HTTPRequest, timeout: Duration, maxBodyBytes: Int) async throws -> HTTPResponse {
        let prepared = outgoing(request)
        do {
            return try await withTimeLimit(timeout) {
                let response = try await client.execute(prepared, timeout: TimeAmount(timeout))
                let buffer = try await response.body.collect(upTo: maxBodyBytes)
                return HTTPResponse(
                    status: Int(response.status.code),
                    headers: response.headers.map { (name: $0.name, value: $0.value) },
                    body: Data(buffer.readableBytesView)
                )
            }
        } catch {
            throw TransportError(classifying: error, limit: maxBodyBytes)
        }
    }
}

/// Runs `operation`, throwing ``TransportError/timedOut`` if it has not
/// finished after `limit` (and cancelling it).
func withTimeLimit<T: Sendable>(_ limit: Duration, _ operation: @escaping @Sendable () async throws -> T) async throws -> T {
    try await withThrowingTaskGroup(of: T.self) { group in
        group.addTask { try await operation() }
        group.addTask {
            try await Task.sleep(for: limit)
            throw TransportError.timedOut
        }
        defer { group.cancelAll() }
        guard let first = try await group.next() else { throw TransportError.timedOut }
        return first
    }
}

extension TransportError {
    /// Sorts whatever AsyncHTTPClient, SwiftNIO or BoringSSL threw into the
    /// few cases the app tells apart.
    init(classifying error: any Error, limit: Int) {
        switch error {
        case let error as TransportError:
            self = error
        case is CancellationError:
            self = .cancelled
        case is NIOTooManyBytesError:
            self = .bodyTooLarge(limit: limit)
        case is NIOSSLError, is BoringSSLError, is NIOSSLExtraError:
            self = .tlsFailure(String(describing: error))
        case is HTTPParserError:
            self = .invalidResponse(String(describing: error))
        case let error as HTTPClientError:
            switch error {
            case .deadlineExceeded, .readTimeout, .connectTimeout, .tlsHandshakeTimeout, .getConnectionFromPoolTimeout:
                self = .timedOut
            case .cancelled:
                self = .cancelled
            case .remoteConnectionClosed:
                self = .unreachable("the server closed the connection")
            case .bodyLengthMismatch, .contentLengthMissing:
                self = .invalidResponse(String(describing: error))
            default:
                self = .unreachable(String(describing: error))
            }
        case let error as NIOConnectionError:
            self = .unreachable(error.dnsAError != nil || error.dnsAAAAError != nil ? "name not found" : "connection failed")
        case is ChannelError:
            self = .unreachable(String(describing: error))
        case let error as IOError:
            self = .unreachable(error.description)
        default:
            self = .unreachable(String(describing: error))
        }
    }
}
