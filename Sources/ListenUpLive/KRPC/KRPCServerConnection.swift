import Foundation
import KRPCSession
import ListenUpAPI
import ListenUpCore
import ListenUpKRPC
import Logging
import WebSocketTransport

/// Talks to one ListenUp v0.9 (Kotlin) server over kRPC: the kRPC
/// implementation of ``ServerConnection``, beside REST v1's ``APIClient``.
///
/// One public and one authed ``KRPCSession`` (two WebSockets), each opened
/// on first use and again, after a wait that grows with failures
/// (`ReconnectBackoff`), when it has ended. The session (tokens) is kept in
/// the same ``SessionStore`` as ``APIClient``'s, through the same
/// ``SessionRefresher``: the access token (15 minutes) is refreshed on the
/// public socket, single flight, ahead of its expiry and on a 401 at the
/// authed upgrade; only the newest pair is kept; a refused refresh ends the
/// session, closes both sockets and calls the ``onSessionLapsed(_:)`` handlers.
///
/// Thread-safe: an actor; any task may call.
public actor KRPCServerConnection: ServerConnection, SessionRenewing {
    /// The server's HTTP base URL.
    public nonisolated let baseURL: URL
    let transport: HTTPTransport
    let deviceInfo: ListenUpAPI.DeviceInfo
    let logger: Logger
    let configuration: KRPCSessionConfiguration
    let client: WebSocketClient
    let timeout: Duration
    /// Live events with nothing (not even a heartbeat) for this long are dead.
    let readIdleTimeout: Duration
    /// The session and its renewal.
    let refresher: SessionRefresher
    var sockets: [KRPCMount: KRPCSession] = [:]
    var opening: [KRPCMount: Task<KRPCSession, any Error>] = [:]
    var backoff = ReconnectBackoff(initial: .milliseconds(250), maximum: .seconds(5))
    var notBefore: ContinuousClock.Instant?
    /// The highest revision a pull or an event has shown (live events start after it).
    var highestRevision: Int64?
    /// Title, authors and length of the books pulled so far (for listings).
    var summaries: [String: KRPCMapping.BookSummary] = [:]
    /// The book of each playback position seen (a deleted position's event names the position only).
    var positionBooks: [String: String] = [:]
    /// The user's listening events pulled so far, by id (Home's days;
    /// KRPCServerConnection+Stats.swift), and the revision to pull on from.
    var listeningEvents: [String: KRPCStats.Span] = [:]
    var listeningEventsRevision: Int64 = 0

    /// Live events with nothing (not even a heartbeat, every 25 s) for this
    /// long are dead: three heartbeats missed, as the official client counts.
    public static let defaultReadIdleTimeout: Duration = .seconds(75)

    /// A connection to the server at `baseURL`, signed in with `session` if given.
    /// - Parameters:
    ///   - transport: HTTP for covers.
    ///   - sessions: where the session is saved (and forgotten).
    ///   - deviceInfo: who this client is, sent with sign-ins.
    ///   - timeout: the longest a call may take (and the server's answer to
    ///     the kRPC handshake, at most 10 s).
    ///   - readIdleTimeout: how long live events may bring nothing at all
    ///     before the stream (and its socket) is given up as dead.
    ///   - webSocket: the sockets' settings (connect timeout, trust).
    public init(baseURL: URL, session: StoredSession?, transport: HTTPTransport, sessions: SessionStore,
                deviceInfo: ListenUpAPI.DeviceInfo, logger: Logger, timeout: Duration = .seconds(15),
                readIdleTimeout: Duration = KRPCServerConnection.defaultReadIdleTimeout,
                webSocket: WebSocketConfiguration = WebSocketConfiguration()) {
        self.baseURL = baseURL
        self.transport = transport
        self.deviceInfo = deviceInfo
        self.logger = logger
        self.timeout = timeout
        self.readIdleTimeout = readIdleTimeout
        configuration = KRPCSessionConfiguration(handshakeTimeout: min(.seconds(10), timeout), callTimeout: timeout)
        client = WebSocketClient(configuration: webSocket, logger: logger)
        refresher = SessionRefresher(serverURL: baseURL, session: session, store: sessions, logger: logger)
    }

    /// The current session (after any refresh).
    public var currentSession: StoredSession? {
        get async { await refresher.session }
    }

    /// Runs `handler` when a refresh is refused (the session is over).
    public func onSessionLapsed(_ handler: @escaping @Sendable () async -> Void) async {
        await refresher.onLapse(handler)
    }

    // MARK: Sockets

    /// The open session of `mount`, opened (or opened again) if need be.
    func socket(_ mount: KRPCMount) async throws -> KRPCSession {
        if let open = sockets[mount], await open.isOpen { return open }
        sockets[mount] = nil
        if let pending = opening[mount] { return try await pending.value }
        let task = Task { try await self.open(mount) }
        opening[mount] = task
        defer { opening[mount] = nil }
        let opened = try await task.value
        sockets[mount] = opened
        return opened
    }

    private func open(_ mount: KRPCMount) async throws -> KRPCSession {
        if let notBefore, notBefore > .now { try await Task.sleep(until: notBefore) }
        guard let url = KRPCEndpoints.socketURL(base: baseURL, mount: mount) else {
            throw ServerError.protocolMismatch("no WebSocket URL for \(baseURL.absoluteString)")
        }
        let headers = [(name: "X-Client-Version", value: ClientDevice.appVersion), (name: "X-Client-Api", value: "v1")]
        do {
            let opened: KRPCSession
            switch mount {
            case .public:
                opened = try await KRPCSession.connect(url: url, headers: headers, configuration: configuration, client: client, logger: logger)
            case .authed:
                opened = try await KRPCSession.connectRefreshingOnce(
                    url: url, headers: headers, configuration: configuration, client: client, logger: logger
                ) { refused in try await self.accessToken(refusing: refused) }
            }
            backoff.reset()
            notBefore = nil
            return opened
        } catch KRPCSessionError.unauthorized where mount == .authed {
            // Even a freshly refreshed token was refused: the session is not live.
            await refresher.lapse(self)
            throw ServerError.sessionLapsed
        } catch {
            if !(error is CancellationError) { notBefore = .now + backoff.nextDelay() }
            throw error
        }
    }

    /// Forgets a socket that failed under a call, so the next call opens another.
    func drop(_ mount: KRPCMount, _ failed: KRPCSession) async {
        if sockets[mount] === failed { sockets[mount] = nil }
        await failed.close()
    }

    /// Closes both sockets.
    func closeSockets() async {
        let open = Array(sockets.values)
        sockets = [:]
        for socket in open { await socket.close() }
    }

    // MARK: Calls

    /// A unary call on `mount`; a domain failure is thrown as
    /// ``ServerError``. After a failure a new socket may mend, the call
    /// is sent once more on a new socket if its delivery allows
    /// (``KRPCDelivery/allowsResend(after:)``): a `retryOnce` method after
    /// any such failure, an `atMostOnce` one (login, setupRoot, marking a
    /// book finished) only when the failure proves it never left; after a
    /// timeout or a socket that ended under it, its caller gets the error.
    /// - Parameter delivery: overrides the method's ``KRPCMethod/delivery``
    ///   for this call (nil: the method's).
    func call<Result: Decodable & Sendable>(_ method: KRPCMethod, _ arguments: some Encodable & Sendable, returning: Result.Type,
                                            on mount: KRPCMount = .authed,
                                            delivery: KRPCDelivery? = nil) async throws(ServerError) -> Result {
        if mount == .authed { _ = try await refresher.requireSession() }
        let delivery = delivery ?? method.delivery
        var attempt = 0
        while true {
            attempt += 1
            let socket: KRPCSession
            let result: AppResult<Result>
            do {
                socket = try await self.socket(mount)
            } catch {
                throw KRPCErrorMapping.error(error)
            }
            do {
                result = try await socket.call(method, arguments: arguments, returning: Result.self)
            } catch let error as KRPCSessionError where error.isRetryableAfterReconnect && attempt == 1 {
                await drop(mount, socket)
                guard delivery.allowsResend(after: error) else {
                    logger.debug("kRPC call failed and may have run on the server; not sent again",
                                 metadata: ["method": "\(method)", "delivery": "\(delivery)"])
                    throw KRPCErrorMapping.error(error)
                }
                logger.debug("kRPC call failed on an ended socket; once more on a new one", metadata: ["method": "\(method)"])
                continue
            } catch {
                throw KRPCErrorMapping.error(error)
            }
            switch result {
            case .success(let value):
                return value
            case .failure(let error) where mount == .authed && [.authSessionExpired, .authSessionNotFound].contains(error.kind):
                // The socket's session ended on the server: a refresh says
                // whether the user is still signed in (a refusal lapses it).
                // The server refused the call before running it, so even an
                // at-most-once call is sent again.
                await drop(mount, socket)
                guard attempt == 1, let current = await refresher.session else { throw await refresher.lapsedError() }
                _ = try await refreshed(after: current.accessToken)
                continue
            case .failure(let error):
                throw KRPCErrorMapping.error(error)
            }
        }
    }
}
