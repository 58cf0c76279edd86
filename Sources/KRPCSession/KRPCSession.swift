import Foundation
import ListenUpKRPC
import Logging
import WebSocketTransport

/// One kRPC session over one WebSocket (§2.8): the Handshake, unary calls
/// and streams multiplexed by callId, client-side timeouts, cancellation,
/// and a redacted frame log. The rules live in ``KRPCSessionMachine``; this
/// actor carries out its actions: it owns the `WebSocketConnection`, a
/// reader task (frames in), a writer task (frames out, in order) and a timer
/// task that ticks the machine's deadlines.
///
/// Open one with ``connect(url:headers:configuration:client:logger:)``
/// (or ``connectRefreshingOnce(url:headers:configuration:client:logger:tokenProvider:)``
/// on `/api/rpc/authed`). One session per mount serves every service of that
/// mount. When it ends (``waitUntilClosed()``, ``closeReason``) every
/// pending call and stream has failed; the caller reconnects with the
/// transport's `ReconnectBackoff` unless it closed the session itself.
///
/// Thread-safe: an actor; any task may call, stream and close concurrently.
/// Keep a reference while using it: when the last one goes, the session
/// sends the ENDPOINT cancellation, closes the socket and fails its streams.
public actor KRPCSession {
    /// A frame or the close, queued for the writer task in the order the machine emitted them.
    enum Outgoing: Sendable {
        case text(String)
        case close
    }

    var machine: KRPCSessionMachine
    let connection: WebSocketConnection
    let logger: Logger
    let frameLog: KRPCFrameLog
    let outbox: AsyncStream<Outgoing>.Continuation
    private let outboxStream: AsyncStream<Outgoing>
    private let clock = ContinuousClock()
    private let origin: ContinuousClock.Instant
    var unaryCalls: [KRPCCallHandle: CheckedContinuation<String, any Error>] = [:]
    var streams: [KRPCCallHandle: AsyncThrowingStream<String, any Error>.Continuation] = [:]
    var handshakeWaiters: [CheckedContinuation<Void, any Error>] = []
    var endWaiters: [Int: CheckedContinuation<KRPCSessionCloseReason, any Error>] = [:]
    var nextWaiterID = 0
    var writer: Task<Void, Never>?
    var ticker: Task<Void, Never>?

    /// How the session ended, or nil while it runs.
    public internal(set) var closeReason: KRPCSessionCloseReason?
    /// The server Handshake's `connectionId` (1 on ListenUp), once open.
    public internal(set) var connectionId: Int64?

    /// Whether the handshake completed and the session has not ended.
    public var isOpen: Bool {
        if case .open = machine.state { return true }
        return false
    }

    init(connection: WebSocketConnection, configuration: KRPCSessionConfiguration, logger: Logger) {
        machine = KRPCSessionMachine(configuration: configuration)
        self.connection = connection
        self.logger = logger
        frameLog = KRPCFrameLog(logger: logger, limit: configuration.frameLogLimit)
        (outboxStream, outbox) = AsyncStream.makeStream(of: Outgoing.self)
        origin = clock.now
    }

    deinit {
        // Nobody can call any more: end politely and fail what still listens.
        if case .open = machine.state { outbox.yield(.text(KRPCMessage.cancelEndpoint.encoded())) }
        outbox.finish()
        ticker?.cancel()
        for stream in streams.values { stream.finish(throwing: KRPCSessionError.closed(.closedByClient)) }
    }

    /// The machine's clock: time since the session was created.
    func now() -> Duration { clock.now - origin }

    /// Starts the writer, reader and timer tasks and sends the Handshake.
    func start() {
        let (connection, outboxStream, logger) = (connection, outboxStream, logger)
        writer = Task.detached {
            for await item in outboxStream {
                switch item {
                case .text(let text):
                    do { try await connection.send(text: text) } catch {
                        logger.debug("kRPC frame not sent", metadata: ["error": "\(error)"])
                    }
                case .close:
                    await connection.close()
                    return
                }
            }
            await connection.close(code: .goingAway)
        }
        Task.detached { [weak self] in
            do {
                for try await text in connection.messages {
                    guard let session = self else { return }
                    await session.received(text)
                }
            } catch {
                logger.debug("kRPC socket read ended", metadata: ["error": "\(error)"])
            }
            let reason = await connection.closeReason
            await self?.socketEnded(reason)
        }
        let interval = machine.configuration.tickInterval
        ticker = Task.detached { [weak self] in
            while !Task.isCancelled {
                try? await Task.sleep(for: interval)
                guard let session = self, await session.tick() else { return }
            }
        }
        perform(machine.socketOpened(now: now()))
    }

    /// Returns once the server answered the Handshake.
    /// - Throws: ``KRPCSessionError/handshakeFailed`` or the error of how the session ended.
    func waitForHandshake() async throws {
        if case .open = machine.state { return }
        if let closeReason { throw KRPCSessionError(ending: closeReason) }
        try await withCheckedThrowingContinuation { handshakeWaiters.append($0) }
    }
}
