import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL

/// A one-request-per-connection HTTPS client that trusts exactly one public
/// key: the peer certificate's SubjectPublicKeyInfo SHA-256 must equal `pin`,
/// checked in the TLS handshake's verification callback, so on a mismatch the
/// handshake fails and no request byte (no code, no token) is ever sent.
/// Thread-safe; each call opens its own connection.
public struct PinnedHTTPSClient: Sendable {
    /// An HTTP answer.
    public struct Response: Sendable {
        /// HTTP status code.
        public var status: Int
        /// Header fields in order.
        public var headers: [(String, String)]
        /// The body bytes.
        public var body: [UInt8]

        /// The first header named `name` (case-insensitive).
        public func header(_ name: String) -> String? { headers.first { $0.0.lowercased() == name.lowercased() }?.1 }
    }

    /// SHA-256 of the server's SubjectPublicKeyInfo.
    public let pin: [UInt8]
    /// Seconds for connect + handshake, and for the whole answer.
    public var connectTimeout: TimeInterval = 5
    /// Seconds to wait for the whole answer (a pairing waits for the user).
    public var responseTimeout: TimeInterval = 180

    /// A client trusting only the key whose SPKI SHA-256 is `pin`.
    public init(pin: [UInt8]) { self.pin = pin }

    /// Sends one request to `host:port` and reads the whole answer.
    /// - Throws: ``PairingError/fingerprintMismatch`` if the pin does not match
    ///   (nothing was sent), ``PairingError/unreachable(_:)`` on connection failure.
    public func send(host: String, port: Int, method: HTTPMethod, path: String, headers: [(String, String)] = [],
                     body: [UInt8] = []) async throws -> Response {
        let promise = MultiThreadedEventLoopGroup.singleton.next().makePromise(of: Response.self)
        return try await exchange(host: host, port: port, method: method, path: path, headers: headers, body: body,
                                  answer: promise, handler: { ResponseCollector(promise: promise) })
    }

    /// Sends one request to `host:port` whose answer is a stream (`text/event-stream`):
    /// returns once the head has arrived, with the body's bytes as they come.
    ///
    /// Stopping the iteration closes the connection; the stream ends when the server
    /// closes it. An answer other than 200 comes whole (its body in ``Response/body``)
    /// with an empty stream.
    /// - Throws: as ``send(host:port:method:path:headers:body:)``, with ``responseTimeout``
    ///   bounding only the wait for the head.
    public func stream(host: String, port: Int, path: String,
                       headers: [(String, String)] = []) async throws -> (head: Response, body: AsyncThrowingStream<[UInt8], any Error>) {
        let (body, continuation) = AsyncThrowingStream.makeStream(of: [UInt8].self)
        let promise = MultiThreadedEventLoopGroup.singleton.next().makePromise(of: Response.self)
        let channel = NIOLockedValueBox<(any Channel)?>(nil)
        continuation.onTermination = { _ in channel.withLockedValue { $0 }?.close(promise: nil) }
        let head = try await exchange(host: host, port: port, method: .GET, path: path, headers: [("Accept", "text/event-stream")] + headers,
                                      body: [], answer: promise, keepOpen: { opened in channel.withLockedValue { $0 = opened } },
                                      handler: { StreamCollector(head: promise, body: continuation) })
        if head.status != 200 { continuation.finish() }
        return (head, body)
    }

    /// Connects pinned, sends the request, waits for `answer` (which `handler` completes).
    /// - Parameter keepOpen: given the channel if it is to stay open after the answer (a stream); nil closes it.
    private func exchange(host: String, port: Int, method: HTTPMethod, path: String, headers: [(String, String)], body: [UInt8],
                          answer promise: EventLoopPromise<Response>, keepOpen: (@Sendable (any Channel) -> Void)? = nil,
                          handler makeHandler: @escaping @Sendable () -> any ChannelHandler) async throws -> Response {
        let pin = pin
        let mismatch = NIOLockedValueBox(false)
        var tls = TLSConfiguration.makeClientConfiguration()
        tls.minimumTLSVersion = .tlsv12
        tls.certificateVerification = .noHostnameVerification // the custom callback below replaces chain checks
        let context = try NIOSSLContext(configuration: tls)
        let bootstrap = ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .connectTimeout(.milliseconds(Int64(connectTimeout * 1000)))
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    let handler = try NIOSSLClientHandler(context: context, serverHostname: nil) { certificates, verdict in
                        let matches = certificates.first.flatMap { try? PairingIdentity.fingerprint(of: $0) }.map {
                            ConstantTime.equals($0, pin)
                        } ?? false
                        if !matches { mismatch.withLockedValue { $0 = true } }
                        verdict.succeed(matches ? .certificateVerified : .failed)
                    }
                    try channel.pipeline.syncOperations.addHandler(handler)
                    try channel.pipeline.syncOperations.addHTTPClientHandlers()
                    try channel.pipeline.syncOperations.addHandler(makeHandler())
                }
            }
        let channel: any Channel
        do { channel = try await bootstrap.connect(host: host, port: port).get() } catch {
            promise.fail(error)
            throw PairingError.unreachable("\(host):\(port): \(error)")
        }
        var head = HTTPRequestHead(version: .http1_1, method: method, uri: path)
        head.headers.add(name: "Host", value: host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)")
        head.headers.add(name: "Content-Length", value: String(body.count))
        head.headers.add(name: "Connection", value: "close")
        for (name, value) in headers { head.headers.add(name: name, value: value) }
        // The request is queued behind the handshake; NIOSSL flushes it only after
        // the verification callback has accepted the certificate.
        channel.write(HTTPClientRequestPart.head(head), promise: nil)
        if !body.isEmpty { channel.write(HTTPClientRequestPart.body(.byteBuffer(channel.allocator.buffer(bytes: body))), promise: nil) }
        channel.writeAndFlush(HTTPClientRequestPart.end(nil), promise: nil)
        let timeout = channel.eventLoop.scheduleTask(in: .milliseconds(Int64(responseTimeout * 1000))) {
            promise.fail(PairingError.unreachable("no answer within \(Int(responseTimeout)) s"))
        }
        var streaming = false
        defer {
            timeout.cancel()
            if !streaming { channel.close(promise: nil) }
        }
        do {
            let response = try await promise.futureResult.get()
            if let keepOpen, response.status == 200 {
                streaming = true
                keepOpen(channel)
            }
            return response
        } catch {
            if mismatch.withLockedValue({ $0 }) { throw PairingError.fingerprintMismatch }
            if let error = error as? PairingError { throw error }
            throw PairingError.unreachable("\(host):\(port): \(error)")
        }
    }
}

/// Gathers one HTTP response and completes the promise (fails it if the connection ends first).
/// `@unchecked Sendable`: used only on its channel's event loop.
private final class ResponseCollector: ChannelInboundHandler, @unchecked Sendable {
    typealias InboundIn = HTTPClientResponsePart

    private let promise: EventLoopPromise<PinnedHTTPSClient.Response>
    private var head: HTTPResponseHead?
    private var body: [UInt8] = []

    init(promise: EventLoopPromise<PinnedHTTPSClient.Response>) { self.promise = promise }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head): self.head = head
        case .body(var buffer): body += buffer.readBytes(length: buffer.readableBytes) ?? []
        case .end:
            guard let head else { return }
            promise.succeed(.init(status: Int(head.status.code), headers: head.headers.map { ($0.name, $0.value) }, body: body))
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        promise.fail(error)
        context.close(promise: nil)
    }

    func channelInactive(context: ChannelHandlerContext) {
        promise.fail(PairingError.badResponse("connection closed before a complete answer"))
    }
}


/// Gathers a streamed answer: the head completes `head` (a non-200 answer is
/// gathered whole first), then each body part goes to `body` until the end.
/// `@unchecked Sendable`: used only on its channel's event loop.
private final class StreamCollector: ChannelInboundHandler, @unchecked Sendable {
    typealias InboundIn = HTTPClientResponsePart

    private let head: EventLoopPromise<PinnedHTTPSClient.Response>
    private let body: AsyncThrowingStream<[UInt8], any Error>.Continuation
    private var response: PinnedHTTPSClient.Response?
    private var streaming = false

    init(head: EventLoopPromise<PinnedHTTPSClient.Response>, body: AsyncThrowingStream<[UInt8], any Error>.Continuation) {
        self.head = head
        self.body = body
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let received):
            let response = PinnedHTTPSClient.Response(status: Int(received.status.code),
                                                      headers: received.headers.map { ($0.name, $0.value) }, body: [])
            if response.status == 200 {
                streaming = true
                head.succeed(response)
            } else {
                self.response = response
            }
        case .body(var buffer):
            let bytes = buffer.readBytes(length: buffer.readableBytes) ?? []
            if streaming { body.yield(bytes) } else { response?.body += bytes }
        case .end:
            if streaming { body.finish() } else if let response { head.succeed(response) }
            context.close(promise: nil)
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        head.fail(error)
        body.finish(throwing: error)
        context.close(promise: nil)
    }

    func channelInactive(context: ChannelHandlerContext) {
        head.fail(PairingError.badResponse("connection closed before a complete answer"))
        body.finish()
    }
}
