import Logging
import NIOCore
import NIOHTTP1
import NIOSSL
import NIOWebSocket

/// Builds one connection's pipeline: TLS, HTTP/1.1 with the typed upgrade
/// handler, then (on 101) frame codec, validator, aggregator and
/// ``WebSocketFrameHandler``. The outcome promise carries the connection's
/// end future on success and a ``WebSocketTransportError`` (or a NIO error)
/// otherwise, at the latest at the deadline.
struct UpgradePipeline: Sendable {
    /// A channel whose upgrade is under way.
    struct Pending: Sendable {
        var channel: any Channel
        var outcome: EventLoopPromise<EventLoopFuture<WebSocketCloseReason>>

        /// Gives up unless the upgrade is already decided: the outcome fails
        /// with `CancellationError` (and the waiting connect closes the channel).
        func cancel() {
            outcome.fail(CancellationError())
        }
    }

    var endpoint: WebSocketEndpoint
    var head: HTTPRequestHead
    var tls: NIOSSLContext?
    var deadline: NIODeadline
    var maxFragmentCount: Int
    var settings: WebSocketFrameHandler.Settings
    var messages: AsyncThrowingStream<String, any Error>.Continuation
    var logger: Logger

    /// Runs on the channel's event loop, before it connects.
    func configure(_ channel: any Channel) throws -> Pending {
        let outcome = channel.eventLoop.makePromise(of: EventLoopFuture<WebSocketCloseReason>.self)
        do {
            try configure(channel, outcome: outcome)
        } catch {
            outcome.fail(error)  // NIO traps on a promise dropped unfulfilled
            throw error
        }
        let timer = channel.eventLoop.scheduleTask(deadline: deadline) {
            outcome.fail(WebSocketTransportError.timedOut)
        }
        outcome.futureResult.whenComplete { _ in timer.cancel() }
        return Pending(channel: channel, outcome: outcome)
    }

    private func configure(_ channel: any Channel,
                           outcome: EventLoopPromise<EventLoopFuture<WebSocketCloseReason>>) throws {
        let sync = channel.pipeline.syncOperations
        if let tls {
            try sync.addHandler(NIOSSLClientHandler(context: tls, serverHostname: endpoint.serverNameIndication))
        }
        try sync.addHandler(HandshakeWatcher(outcome: outcome))
        let upgrader = NIOTypedWebSocketClientUpgrader<Bool>(
            maxFrameSize: settings.maxMessageSize,
            enableAutomaticErrorHandling: false  // WebSocketFrameHandler answers errors, masked
        ) { [self] channel, _ in
            channel.eventLoop.makeCompletedFuture {
                let sync = channel.pipeline.syncOperations
                try sync.addHandler(ServerFrameValidator())
                try sync.addHandler(NIOWebSocketFrameAggregator(
                    minNonFinalFragmentSize: 0, maxAccumulatedFrameCount: maxFragmentCount,
                    maxAccumulatedFrameSize: settings.maxMessageSize))
                let ended = channel.eventLoop.makePromise(of: WebSocketCloseReason.self)
                do {
                    try sync.addHandler(WebSocketFrameHandler(settings: settings, messages: messages, ended: ended, logger: logger))
                } catch {
                    ended.fail(error)
                    throw error
                }
                outcome.succeed(ended.futureResult)
                return true
            }
        }
        let upgrade = NIOTypedHTTPClientUpgradeConfiguration<Bool>(
            upgradeRequestHead: head, upgraders: [upgrader]
        ) { channel in
            channel.eventLoop.makeCompletedFuture {
                try channel.pipeline.syncOperations.addHandler(RejectedUpgradeReader(outcome: outcome))
                return false
            }
        }
        var configuration = NIOUpgradableHTTPClientPipelineConfiguration(upgradeConfiguration: upgrade)
        // Frames sent right behind the 101 must reach the WebSocket decoder.
        configuration.leftOverBytesStrategy = .forwardBytes
        try sync.configureUpgradableHTTPClientPipeline(configuration: configuration)
            .whenFailure { outcome.fail($0) }
    }
}
