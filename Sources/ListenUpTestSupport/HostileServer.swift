import Foundation
import ListenUpCore
import NIOCore
import NIOPosix
import NIOSSL

/// Test support, not part of the app.
///
/// A loopback HTTP/1.1 server that misbehaves on purpose, written at the
/// byte level so it can do what a well-behaved server library will not:
/// truncate bodies, drip bytes, reset connections, redirect anywhere.
public final class HostileServer: Sendable {
    /// What to do with one request.
    public enum Behavior: Sendable {
        /// A complete response.
        case respond(status: Int, contentType: String, body: Data, headers: [(String, String)] = [])
        /// A body of `bytes` bytes, written in chunks for as long as the client reads.
        case hugeBody(bytes: Int)
        /// Headers announcing 1000 bytes, then one byte every `interval`.
        case slowDrip(interval: TimeAmount)
        /// Announces `announced` bytes, sends `sent`, then closes.
        case truncated(announced: Int, sent: Data)
        /// Closes the connection with a TCP reset as soon as the request arrives.
        case reset
        /// Reads the request and never answers.
        case silent
    }

    /// One request as received.
    public struct ReceivedRequest: Sendable {
        public var method: String
        public var path: String
        public var headers: [(String, String)]
        public func header(_ name: String) -> String? {
            headers.first { $0.0.caseInsensitiveCompare(name) == .orderedSame }?.1
        }
    }

    public let port: Int
    public let scheme: String
    private let channel: any Channel
    private let received: LockedValue<[ReceivedRequest]>

    /// Requests received so far.
    public var requests: [ReceivedRequest] { received.value }
    /// `scheme://127.0.0.1:port`.
    public var baseURL: URL { URL(string: "\(scheme)://127.0.0.1:\(port)") ?? URL(fileURLWithPath: "/") }

    /// Starts listening on 127.0.0.1 (ephemeral port).
    /// - Parameters:
    ///   - tls: serve TLS with this context (a self-signed certificate, say).
    ///   - behavior: what to do for each request.
    public static func start(tls: NIOSSLContext? = nil, behavior: @escaping @Sendable (ReceivedRequest) -> Behavior) async throws -> HostileServer {
        let received = LockedValue<[ReceivedRequest]>([])
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(ChannelOptions.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    if let tls {
                        try channel.pipeline.syncOperations.addHandler(NIOSSLServerHandler(context: tls))
                    }
                    try channel.pipeline.syncOperations.addHandler(RequestHandler(behavior: behavior, received: received))
                }
            }
            .bind(host: "127.0.0.1", port: 0)
            .get()
        return HostileServer(channel: channel, port: channel.localAddress?.port ?? 0, scheme: tls == nil ? "http" : "https", received: received)
    }

    private init(channel: any Channel, port: Int, scheme: String, received: LockedValue<[ReceivedRequest]>) {
        self.channel = channel
        self.port = port
        self.scheme = scheme
        self.received = received
    }

    public func stop() async {
        try? await channel.close()
    }

    /// A TLS context with a freshly made self-signed certificate for 127.0.0.1
    /// and localhost (``TestCertificate``).
    public static func selfSignedTLS() throws -> NIOSSLContext {
        try tlsContext(TestCertificate.makeNow())
    }

    /// A server TLS context presenting `certificate`.
    public static func tlsContext(_ certificate: TestCertificate) throws -> NIOSSLContext {
        let configuration = TLSConfiguration.makeServerConfiguration(
            certificateChain: try NIOSSLCertificate.fromPEMBytes(Array(certificate.certificatePEM.utf8)).map { .certificate($0) },
            privateKey: .privateKey(try NIOSSLPrivateKey(bytes: Array(certificate.privateKeyPEM.utf8), format: .pem))
        )
        return try NIOSSLContext(configuration: configuration)
    }
}

/// Reads one request head, then acts out the behaviour.
private final class RequestHandler: ChannelInboundHandler, @unchecked Sendable {
    // @unchecked Sendable: the handler lives on its channel's event loop and is
    // only touched there; Sendable is needed for scheduled callbacks on that loop.
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private let behavior: @Sendable (HostileServer.ReceivedRequest) -> HostileServer.Behavior
    private let received: LockedValue<[HostileServer.ReceivedRequest]>
    private var buffer = ""
    private var answered = false
    private var drip: RepeatedTask?

    init(behavior: @escaping @Sendable (HostileServer.ReceivedRequest) -> HostileServer.Behavior, received: LockedValue<[HostileServer.ReceivedRequest]>) {
        self.behavior = behavior
        self.received = received
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        var bytes = unwrapInboundIn(data)
        if buffer.isEmpty, bytes.getInteger(at: bytes.readerIndex, as: UInt8.self) == 0x16 {
            // A TLS ClientHello on a plain port: answer like a plain HTTP server would.
            answered = true
            act(.respond(status: 400, contentType: "text/plain", body: Data("Client sent an HTTP request to an HTTPS server.\n".utf8)), context: context)
            return
        }
        buffer += bytes.readString(length: bytes.readableBytes) ?? ""
        guard !answered, let end = buffer.range(of: "\r\n\r\n") else { return }
        answered = true
        let lines = buffer[..<end.lowerBound].components(separatedBy: "\r\n")
        let parts = (lines.first ?? "").split(separator: " ")
        let headers = lines.dropFirst().compactMap { line -> (String, String)? in
            guard let colon = line.firstIndex(of: ":") else { return nil }
            return (String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
        }
        let request = HostileServer.ReceivedRequest(
            method: parts.first.map(String.init) ?? "",
            path: parts.count > 1 ? String(parts[1]) : "",
            headers: headers
        )
        received.withLock { $0.append(request) }
        act(behavior(request), context: context)
    }

    func channelInactive(context: ChannelHandlerContext) {
        drip?.cancel()
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }

    private func write(_ text: String, context: ChannelHandlerContext) {
        context.writeAndFlush(wrapOutboundOut(context.channel.allocator.buffer(string: text)), promise: nil)
    }

    private func act(_ behavior: HostileServer.Behavior, context: ChannelHandlerContext) {
        switch behavior {
        case .respond(let status, let contentType, let body, let headers):
            var head = "HTTP/1.1 \(status) Status\r\nContent-Type: \(contentType)\r\nContent-Length: \(body.count)\r\nConnection: close\r\n"
            for (name, value) in headers { head += "\(name): \(value)\r\n" }
            head += "\r\n"
            var out = context.channel.allocator.buffer(string: head)
            out.writeBytes(body)
            let channel = context.channel
            context.writeAndFlush(wrapOutboundOut(out)).whenComplete { _ in channel.close(promise: nil) }
        case .hugeBody(let total):
            write("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: \(total)\r\n\r\n", context: context)
            // Written through the channel (Sendable) so the completion
            // callbacks capture no handler context.
            let channel = context.channel
            let chunk = channel.allocator.buffer(repeating: UInt8(ascii: " "), count: 64 * 1024)
            @Sendable func next(_ remaining: Int) {
                guard remaining > 0, channel.isActive else { return }
                var slice = chunk
                let size = min(remaining, slice.readableBytes)
                slice.moveWriterIndex(to: size)
                channel.writeAndFlush(slice).whenSuccess { next(remaining - size) }
            }
            next(total)
        case .slowDrip(let interval):
            write("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{", context: context)
            let channel = context.channel
            drip = context.eventLoop.scheduleRepeatedTask(initialDelay: interval, delay: interval) { _ in
                channel.writeAndFlush(channel.allocator.buffer(string: " "), promise: nil)
            }
        case .truncated(let announced, let sent):
            var out = context.channel.allocator.buffer(string: "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: \(announced)\r\n\r\n")
            out.writeBytes(sent)
            let channel = context.channel
            context.writeAndFlush(wrapOutboundOut(out)).whenComplete { _ in channel.close(promise: nil) }
        case .reset:
            // SO_LINGER with a zero timeout makes close() send RST instead of FIN.
            let channel = context.channel
            if let provider = channel as? any SocketOptionProvider {
                provider.setSoLinger(linger(l_onoff: 1, l_linger: 0)).whenComplete { _ in channel.close(promise: nil) }
            } else {
                context.close(promise: nil)
            }
        case .silent:
            break
        }
    }
}
