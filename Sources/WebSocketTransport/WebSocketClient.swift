import Foundation
import Logging
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL
import NIOWebSocket

/// Opens WebSocket connections (RFC 6455) to `ws://` and `wss://` URLs:
/// pure transport, whole text messages in and out, nothing about kRPC.
///
/// The upgrade is a plain GET with the caller's extra headers (such as
/// `Authorization: Bearer …`), no subprotocol and no extension. `wss://` uses
/// TLS with the system's trust roots (plus
/// ``WebSocketConfiguration/additionalTrustRootsPEM``), the host as SNI and a
/// certificate checked against the host. Logs carry header names, never values.
///
/// A `Sendable` value; any task may connect, any number of times. Reconnecting
/// is the caller's job (see ``ReconnectBackoff``).
public struct WebSocketClient: Sendable {
    /// Timeouts, limits, pings and trust.
    public var configuration: WebSocketConfiguration
    private let logger: Logger
    private let group: any EventLoopGroup

    /// A client; nothing is opened until ``connect(to:headers:)``.
    /// - Parameters:
    ///   - configuration: timeouts, limits, pings and trust.
    ///   - logger: where connects, closes and failures are logged.
    ///   - eventLoopGroup: NIO's loops; the process-wide one by default.
    public init(configuration: WebSocketConfiguration = WebSocketConfiguration(), logger: Logger,
                eventLoopGroup: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton) {
        self.configuration = configuration
        self.logger = logger
        group = eventLoopGroup
    }

    /// Connects, upgrades to a WebSocket and returns the open connection.
    ///
    /// Any task. Everything (DNS, TCP, TLS, upgrade) happens within
    /// ``WebSocketConfiguration/connectTimeout``; messages the server sends
    /// right after the upgrade are kept for ``WebSocketConnection/messages``.
    /// - Parameters:
    ///   - url: `ws://host[:port]/path[?query]` or `wss://…`.
    ///   - headers: extra upgrade headers, e.g. `("Authorization", "Bearer …")`.
    /// - Returns: the open connection.
    /// - Throws: ``WebSocketTransportError``: ``WebSocketTransportError/upgradeRejected(status:)``
    ///   for a non-101 answer (401: refresh the token and retry once),
    ///   ``WebSocketTransportError/timedOut``, ``WebSocketTransportError/connectionFailed(_:)``,
    ///   ``WebSocketTransportError/tlsFailed(_:)``, ``WebSocketTransportError/invalidHandshake(_:)``,
    ///   ``WebSocketTransportError/invalidURL(_:)``, ``WebSocketTransportError/invalidHeader(name:)``;
    ///   `CancellationError` when the task is cancelled during the handshake.
    public func connect(to url: URL, headers: [(name: String, value: String)] = []) async throws -> WebSocketConnection {
        let endpoint = try WebSocketEndpoint(url: url)
        let head = try endpoint.upgradeRequestHead(extraHeaders: headers)
        let tls = try endpoint.usesTLS ? makeTLSContext() : nil
        var logger = self.logger
        logger[metadataKey: "websocket"] = "\(endpoint.logDescription)"
        logger.debug("WebSocket connecting", metadata: ["headers": "\(headers.map(\.name).joined(separator: ","))"])

        let (messages, continuation) = AsyncThrowingStream.makeStream(of: String.self)
        let limit = configuration.maxMessageSize
        let pipeline = UpgradePipeline(
            endpoint: endpoint, head: head, tls: tls,
            deadline: .now() + TimeAmount(configuration.connectTimeout),
            maxFragmentCount: configuration.maxFragmentCount,
            settings: WebSocketFrameHandler.Settings(
                pingInterval: configuration.pingInterval.map { TimeAmount($0) },
                closeTimeout: TimeAmount(configuration.closeTimeout), maxMessageSize: limit),
            messages: continuation, logger: logger)
        let pending: UpgradePipeline.Pending
        do {
            pending = try await ClientBootstrap(group: group)
                .connectTimeout(TimeAmount(configuration.connectTimeout))
                .channelOption(ChannelOptions.socketOption(.tcp_nodelay), value: 1)
                .connect(host: endpoint.host, port: endpoint.port) { channel in
                    channel.eventLoop.makeCompletedFuture { try pipeline.configure(channel) }
                }
        } catch {
            continuation.finish()
            throw failure(error, limit: limit, logger: logger)
        }
        do {
            let ended = try await withTaskCancellationHandler {
                try await pending.outcome.futureResult.get()
            } onCancel: {
                pending.cancel()
            }
            logger.debug("WebSocket open")
            return WebSocketConnection(channel: pending.channel, messages: messages, continuation: continuation,
                                       ended: ended, logger: logger)
        } catch {
            pending.channel.close(promise: nil)
            continuation.finish()
            throw failure(error, limit: limit, logger: logger)
        }
    }

    private func failure(_ error: any Error, limit: Int, logger: Logger) -> any Error {
        if error is CancellationError { return error }
        let failure = WebSocketTransportError(error, phase: .handshake, limit: limit)
        logger.info("WebSocket connect failed", metadata: ["error": "\(failure)"])
        return failure
    }

    private func makeTLSContext() throws -> NIOSSLContext {
        do {
            var tls = TLSConfiguration.makeClientConfiguration()
            if !configuration.additionalTrustRootsPEM.isEmpty {
                let roots = try configuration.additionalTrustRootsPEM.flatMap { try NIOSSLCertificate.fromPEMBytes(Array($0.utf8)) }
                tls.additionalTrustRoots = [.certificates(roots)]
            }
            return try NIOSSLContext(configuration: tls)
        } catch {
            throw WebSocketTransportError.tlsFailed("trust roots: \(error)")
        }
    }
}

/// Tunables of a ``WebSocketClient``; the defaults suit a ListenUp server
/// (kRPC contract §1.3).
///
/// A value type; any thread.
public struct WebSocketConfiguration: Sendable, Equatable {
    /// How long TCP connect, TLS handshake and HTTP upgrade may take together.
    public var connectTimeout: Duration = .seconds(10)
    /// The largest message accepted, whole or aggregated from fragments;
    /// larger ones end the connection with 1009. A `pullDomain` page can reach
    /// hundreds of KB; NIO's own default (16 KiB) is far too small.
    public var maxMessageSize = 64 << 20
    /// The most fragments one message may arrive in (a proxy may split a
    /// large message into small frames).
    public var maxFragmentCount = 1 << 16
    /// How often the client pings the server; nil: never (the server pings
    /// every 15 s anyway, and its pings are always answered). Pongs are not
    /// awaited: a read deadline belongs to the layer above.
    public var pingInterval: Duration? = .seconds(15)
    /// After sending a close frame, how long to wait for the server's before
    /// dropping the TCP connection.
    public var closeTimeout: Duration = .seconds(2)
    /// Certificate authorities (PEM text) trusted for `wss://` besides the
    /// system's roots, for a self-hosted server with its own CA. Empty:
    /// system roots only.
    public var additionalTrustRootsPEM: [String] = []

    /// The defaults.
    public init() {}
}
