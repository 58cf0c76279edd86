import Foundation
import Logging
import WebSocketTransport

extension KRPCSession {
    /// Opens the WebSocket, sends the Handshake and returns once the server
    /// answered it (§2.3): the session is then open.
    ///
    /// Any task. Cancelling it closes the socket and throws `CancellationError`.
    /// - Parameters:
    ///   - url: `ws(s)://host:port/api/rpc/public` or `…/api/rpc/authed`.
    ///   - headers: extra upgrade headers; on `/authed`,
    ///     `("Authorization", "Bearer <accessToken>")`. Logged with secrets hidden.
    ///   - configuration: handshake and call timeouts.
    ///   - client: the WebSocket client (its configuration: connect timeout,
    ///     message limit, pings, trust); nil: one with the defaults and `logger`.
    ///   - logger: session events, and at debug level every frame, redacted.
    /// - Returns: the open session.
    /// - Throws: ``KRPCSessionError/unauthorized`` for a 401 at the upgrade
    ///   (refresh the token and retry once), ``KRPCSessionError/transport(_:)``
    ///   when the socket cannot be opened, ``KRPCSessionError/handshakeFailed``
    ///   when the server does not answer the Handshake in time,
    ///   ``KRPCSessionError/closed(_:)`` or ``KRPCSessionError/endpointCancelled``
    ///   when it ends the session during it; `CancellationError`.
    public static func connect(url: URL, headers: [(name: String, value: String)] = [],
                               configuration: KRPCSessionConfiguration = KRPCSessionConfiguration(),
                               client: WebSocketClient? = nil, logger: Logger) async throws -> KRPCSession {
        var logger = logger
        logger[metadataKey: "krpc"] = "\(loggable(url))"
        let shownHeaders = KRPCFrameRedactor.redact(headers: headers).map { "\($0.name): \($0.value)" }
        logger.debug("kRPC connecting", metadata: ["headers": "\(shownHeaders.joined(separator: "; "))"])
        let connection: WebSocketConnection
        do {
            connection = try await (client ?? WebSocketClient(logger: logger)).connect(to: url, headers: headers)
        } catch let error as WebSocketTransportError {
            throw error.isUnauthorized ? KRPCSessionError.unauthorized : KRPCSessionError.transport(error)
        }
        let session = KRPCSession(connection: connection, configuration: configuration, logger: logger)
        await session.start()
        do {
            try await withTaskCancellationHandler {
                try await session.waitForHandshake()
            } onCancel: {
                Task { await session.close() }
            }
        } catch {
            await session.close()
            if Task.isCancelled { throw CancellationError() }
            throw error
        }
        return session
    }

    /// Connects to `/api/rpc/authed` with `Authorization: Bearer <token>`;
    /// on a 401 at the upgrade, asks `tokenProvider` for a fresh token once
    /// and tries again (§1.2: the server only re-checks the token at the upgrade).
    ///
    /// Any task.
    /// - Parameters:
    ///   - url: the `…/api/rpc/authed` URL.
    ///   - headers: other upgrade headers (e.g. `X-Client-Version`).
    ///   - configuration: handshake and call timeouts.
    ///   - client: the WebSocket client; nil: one with the defaults.
    ///   - logger: as for ``connect(url:headers:configuration:client:logger:)``.
    ///   - tokenProvider: called with nil for the current access token, then,
    ///     after a 401, with the refused token: return a refreshed one (it may
    ///     skip refreshing if its token has already changed). Its errors
    ///     (e.g. a revoked refresh token) are thrown as they are.
    /// - Returns: the open session.
    /// - Throws: as ``connect(url:headers:configuration:client:logger:)``;
    ///   ``KRPCSessionError/unauthorized`` when the fresh token is refused too.
    public static func connectRefreshingOnce(
        url: URL, headers: [(name: String, value: String)] = [],
        configuration: KRPCSessionConfiguration = KRPCSessionConfiguration(), client: WebSocketClient? = nil,
        logger: Logger, tokenProvider: @Sendable (_ refusedToken: String?) async throws -> String
    ) async throws -> KRPCSession {
        let token = try await tokenProvider(nil)
        do {
            return try await connect(url: url, headers: headers + [("Authorization", "Bearer \(token)")],
                                     configuration: configuration, client: client, logger: logger)
        } catch KRPCSessionError.unauthorized {
            logger.info("The server refused the access token; connecting again with a fresh one")
            let fresh = try await tokenProvider(token)
            return try await connect(url: url, headers: headers + [("Authorization", "Bearer \(fresh)")],
                                     configuration: configuration, client: client, logger: logger)
        }
    }

    /// The URL for logs: scheme, host, port and path, never the query (a ticket may be there).
    static func loggable(_ url: URL) -> String {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return "(URL)" }
        components.query = nil
        components.fragment = nil
        components.user = nil
        components.password = nil
        return components.string ?? "(URL)"
    }
}
