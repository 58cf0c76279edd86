import Foundation
import ListenUpKRPC
import Logging
import NIOCore
import NIOHTTP1
import NIOWebSocket

/// The kRPC side of the demo server (contract `listenup-krpc-v0.9.md`):
/// the WebSocket upgrades at `/api/rpc/public` and `/api/rpc/authed`, the
/// services behind them, tokens, signed URLs and the plain-HTTP routes,
/// over the same ``DemoService`` state (books, audio, listening) as the
/// REST mode.
///
/// Thread-safe: the state lives in ``DemoService`` and ``DemoKRPCTokens``
/// behind their locks; each socket's session is confined to its event loop.
final class DemoKRPCService: Sendable {
    /// `ServerInfo.version`, `X-Server-Version`.
    static let serverVersion = "0.9.0"
    /// `ServerInfo.apiVersion`, `X-Server-Api`.
    static let apiVersion = "v1"

    let service: DemoService
    let options: DemoServer.KRPCOptions
    let tokens: DemoKRPCTokens
    let signer: DemoSignedURLs
    let logger: Logger
    /// Open sockets' sessions, each bound to its event loop.
    private let sockets = Locked<[ObjectIdentifier: NIOLoopBound<DemoKRPCEndpoint>]>([:])
    /// Each user's playback preferences (`UserPreferencesService`), by user id.
    let preferences = Locked<[String: UserPreferencesDto]>([:])
    /// Open event streams that take control frames, by token: whose they are and how to hand one over.
    private let controlStreams = Locked<[UUID: (userID: String, deliver: @Sendable (String) -> Void)]>([:])
    /// The presence revision last announced (DemoKRPCService+Social.swift).
    let announcedPresence = Locked(0)

    init(service: DemoService, logger: Logger) {
        self.service = service
        self.logger = logger
        options = service.configuration.krpc
        tokens = DemoKRPCTokens(accessLifetime: service.configuration.effectiveAccessTokenLifetime,
                                refreshLifetime: options.refreshTokenLifetime, reuseGrace: options.refreshReuseGrace)
        signer = DemoSignedURLs(tokens: tokens, lifetime: options.signedURLLifetime)
    }

    /// The library id of every book (`BookSyncPayload.libraryId`).
    var libraryID: String { service.instanceID }

    /// The headers the server adds to every response it builds (§1.2, §6.5).
    static func versionHeaders() -> [(String, String)] {
        [("X-Server-Version", serverVersion), ("X-Server-Api", apiVersion), ("X-Request-Id", UUID().uuidString.lowercased())]
    }

    /// Counts a request, an upgrade attempt or a call for ``DemoServer/requestCount(_:)``.
    func count(_ key: String) {
        service.state.withLock { $0.requestCounts[key, default: 0] += 1 }
    }

    /// Sets up one accepted connection: HTTP/1.1 with the WebSocket upgrade
    /// at the two rpc paths, and ``DemoHTTPHandler`` for everything else.
    /// Runs on the channel's event loop.
    func configurePipeline(of channel: any Channel) throws {
        let upgrader = NIOWebSocketServerUpgrader(
            maxFrameSize: 64 << 20, automaticErrorHandling: true,
            shouldUpgrade: { [self] channel, head in
                let path = Self.path(of: head.uri)
                count(path)
                var allowed = false
                if path == KRPCMount.public.path {
                    allowed = true
                } else if path == KRPCMount.authed.path {
                    // Missing, invalid, expired or revoked: 401 instead of 101 (DemoHTTPHandler answers).
                    allowed = tokens.principal(bearer: head.headers.first(name: "Authorization")) != nil
                }
                var headers = HTTPHeaders()
                for (name, value) in Self.versionHeaders() { headers.add(name: name, value: value) }
                return channel.eventLoop.makeSucceededFuture(allowed ? headers : nil)
            },
            upgradePipelineHandler: { [self] channel, head in
                channel.eventLoop.makeCompletedFuture { try openSocket(on: channel, head: head) }
            })
        let sync = channel.pipeline.syncOperations
        try sync.configureHTTPServerPipeline(withServerUpgrade: (upgraders: [upgrader], completionHandler: { context in
            context.pipeline.removeHandler(name: DemoHTTPHandler.name, promise: nil)
        }))
        try sync.addHandler(DemoHTTPHandler(service: service, krpc: self), name: DemoHTTPHandler.name)
    }

    /// After the 101: the frame aggregator (a proxy may fragment) and the session.
    private func openSocket(on channel: any Channel, head: HTTPRequestHead) throws {
        let mount: KRPCMount = Self.path(of: head.uri) == KRPCMount.authed.path ? .authed : .public
        var principal: DemoKRPCPrincipal?
        if mount == .authed {
            // Checked again: the token may have died since `shouldUpgrade`.
            guard let current = tokens.principal(bearer: head.headers.first(name: "Authorization")) else {
                channel.close(promise: nil)
                return
            }
            principal = current
        }
        let endpoint = DemoKRPCEndpoint(service: self, mount: mount, principal: principal,
                                        remoteHost: channel.remoteAddress?.ipAddress ?? "unknown", channel: channel)
        let key = ObjectIdentifier(channel)
        sockets.withLock { $0[key] = NIOLoopBound(endpoint, eventLoop: channel.eventLoop) }
        let sockets = sockets
        channel.closeFuture.whenComplete { _ in sockets.withLock { _ = $0.removeValue(forKey: key) } }
        let sync = channel.pipeline.syncOperations
        try sync.addHandler(NIOWebSocketFrameAggregator(minNonFinalFragmentSize: 0, maxAccumulatedFrameCount: 4096,
                                                        maxAccumulatedFrameSize: 64 << 20))
        try sync.addHandler(DemoKRPCSocketHandler(endpoint: endpoint, pingInterval: options.pingInterval,
                                                  pingTimeout: options.pingTimeout, logger: logger))
    }

    /// Ends every socket as the server does on shutdown, and waits for that.
    func shutDownSockets() async {
        let open = sockets.withLock { Array($0.values) }
        for bound in open {
            try? await bound.eventLoop.submit { bound.value.shutDown() }.get()
        }
    }

    /// Drops every socket without a close frame (a network drop).
    /// How many kRPC sockets are open.
    var openSocketCount: Int { sockets.withLock { $0.count } }

    func dropSockets() {
        for bound in sockets.withLock({ Array($0.values) }) {
            bound.eventLoop.execute { bound.value.channel.close(promise: nil) }
        }
    }

    /// Starts handing `userID`'s control frames to `deliver` (an event stream).
    func addControlStream(_ token: UUID, userID: String, deliver: @escaping @Sendable (String) -> Void) {
        controlStreams.withLock { $0[token] = (userID, deliver) }
    }

    /// Stops handing control frames to the stream registered as `token`.
    func removeControlStream(_ token: UUID) {
        controlStreams.withLock { _ = $0.removeValue(forKey: token) }
    }

    /// Sends a control frame to `userID`'s open event streams only
    /// (the real server's `ChangeBus.publishControl(…, userId)`).
    func publishControl(_ frame: String, to userID: String) {
        let targets = controlStreams.withLock { $0.values.filter { $0.userID == userID }.map(\.deliver) }
        for deliver in targets { deliver(frame) }
    }

    /// Hands a control frame to every open event stream (a broadcast).
    func publishControlToEveryone(_ frame: String) {
        let targets = controlStreams.withLock { $0.values.map(\.deliver) }
        for deliver in targets { deliver(frame) }
    }

    /// The path of a request target, without its query.
    static func path(of uri: String) -> String {
        String(uri.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first ?? "")
    }
}
