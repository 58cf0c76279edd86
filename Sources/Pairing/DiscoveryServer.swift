import Foundation
import LANDiscovery
import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
import NIOSSL

/// The desktop's pairing, in one object: the embedded HTTPS server (TLS 1.2+,
/// the ``PairingIdentity``) on an ephemeral port with the endpoints of
/// docs/pairing-protocol.md, the rotating codes, mDNS while pairing is open,
/// the paired devices, and one event stream (``events()``) that carries state
/// changes, pairing requests to answer by id (``answer(_:accept:)``) and
/// device changes. The app drives it through `PairingClient.host(…)` (in `ListenUpLive`).
///
/// Lifecycle: ``start()`` binds (handlers, timeouts and the TLS context are
/// set up before the listener exists) and returns the real port, or throws;
/// ``stop()`` closes the listener and every connection. Start/stop can repeat.
/// ``openPairing()`` / ``closePairing()`` follow the pairing page; paired
/// devices keep using `/api/v1/status` while the server runs, and, when the
/// app gave a ``RemotePlayer``, see and control playback (`/api/v1/player…`,
/// DiscoveryServer+Remote.swift): the server follows the player's
/// ``RemotePlayer/stateChanges()`` from ``start()`` to ``stop()``.
///
/// Thread-safe: all mutable state sits behind locks; `status` and the
/// ``RemotePlayer`` are called from tasks, never the main thread. Any number
/// of subscribers (a page and the headless front, or an old page model not yet
/// gone and its replacement) each get every event.
public final class DiscoveryServer: Sendable {
    /// Tunables; the defaults are the protocol's.
    public struct Configuration: Sendable {
        /// Shown to companions (`/api/v1/pair/info`, the URI, the mDNS name).
        public var desktopName: String
        /// Reported by `/api/v1/pair/info` and `/api/v1/status`.
        public var appVersion: String
        /// Numeric addresses to bind and advertise; nil: ``LANAddresses/current(environment:)``
        /// (which honours `LISTENUP_PAIRING_BIND`).
        public var bindAddresses: [String]?
        /// 0: ephemeral.
        public var port = 0
        /// Tried before `port` (the port of the last run, so paired devices
        /// find the desktop where they left it); `port` if it is taken.
        public var preferredPort: Int?
        /// Code rotation, grace, lifetime and wrong-attempt rules.
        public var timing = PairingCodes.Timing()
        /// Pairing attempts allowed per remote address per `rateLimitWindow`.
        public var rateLimitAttempts = 10
        /// Seconds over which `rateLimitAttempts` are counted.
        public var rateLimitWindow: TimeInterval = 60
        /// A connection that sends nothing for this long is closed.
        public var idleTimeout: TimeInterval = 5
        /// A request must be complete this long after the connection opened.
        public var requestTimeout: TimeInterval = 10
        /// How long a pairing request waits for the user before it is refused.
        public var confirmationTimeout: TimeInterval = 120
        /// Larger request bodies get 413.
        public var maxBodyBytes = 8 * 1024
        /// Bearer token lifetime.
        public var tokenLifetime: TimeInterval = 30 * 24 * 3600
        /// Announce `_listenup-pair._tcp` through Avahi while pairing is open.
        public var advertise = true
        /// Remote control: requests to `/api/v1/player…` (commands, state, cover,
        /// opening an event stream) allowed per paired device per `remoteRateWindow`;
        /// beyond, 429 with `Retry-After`.
        public var remoteRateLimit = 10
        /// Seconds over which `remoteRateLimit` is counted.
        public var remoteRateWindow: TimeInterval = 1
        /// Event streams (`GET /api/v1/player/events`) one paired device may hold open; beyond, 429.
        public var remoteMaxStreamsPerDevice = 8
        /// The least time between two state events of one stream, seconds: changes in
        /// between are coalesced, the latest winning (0.25: at most 4 a second).
        public var remoteEventInterval: TimeInterval = 0.25
        /// Seconds between two heartbeat comments on an event stream. A client that has
        /// not read what was sent by the next heartbeat is disconnected.
        public var remoteHeartbeatInterval: TimeInterval = 15
        /// Larger bodies sent to `/api/v1/player…` get 413 (the commands' bodies are a few dozen bytes).
        public var remoteMaxBodyBytes = 1024

        /// The protocol's defaults with these names and addresses.
        public init(desktopName: String, appVersion: String, bindAddresses: [String]? = nil) {
            self.desktopName = desktopName
            self.appVersion = appVersion
            self.bindAddresses = bindAddresses
        }
    }

    /// What `GET /api/v1/status` reports; supplied by the app.
    public typealias Status = DesktopStatus

    struct Shared {
        var codes: PairingCodes
        var listener: (any Channel)?
        var port: Int?
        var addresses: [String] = []
        var connections: [ObjectIdentifier: any Channel] = [:]
        var attempts: [String: [Date]] = [:]
        var advertiser: ServiceAdvertiser?
        var ticker: RepeatedTask?
        var lastState: PairingState = .closed
        /// Recent remote-control requests by device id (``DiscoveryServer/takeRemoteRequest(deviceID:)``).
        var remoteRequests: [String: [NIODeadline]] = [:]
    }

    let configuration: Configuration
    let identity: PairingIdentity
    let deviceStore: PairedDeviceStore
    let clock: PairingClock
    let statusProvider: @Sendable () async -> Status
    let logger: Logger
    let shared: NIOLockedValueBox<Shared>
    let subscribers: EventSubscribers
    let pending: PendingRequests
    /// What `/api/v1/player…` controls; nil: those endpoints answer 503.
    let remotePlayer: (any RemotePlayer)?
    let remoteEvents: RemoteEventHub
    private let group: any EventLoopGroup

    /// A server (not started) over an identity and a device store.
    /// - Parameters:
    ///   - identity: the TLS identity (its fingerprint goes in the URI).
    ///   - devices: where paired devices are kept.
    ///   - configuration: names, addresses (nil addresses honour `LISTENUP_PAIRING_BIND`), limits.
    ///   - clock: time for codes and tokens (tests move it by hand).
    ///   - logger: where requests, pairings and refusals are logged.
    ///   - remotePlayer: the player paired devices may see and control (`/api/v1/player…`);
    ///     nil answers those endpoints with 503. Called from tasks, never the main thread.
    ///   - status: what `GET /api/v1/status` reports, asked on each call.
    public init(identity: PairingIdentity, devices: PairedDeviceStore, configuration: Configuration,
                clock: PairingClock = .system, logger: Logger = Logger(label: "listenup.pairing"),
                remotePlayer: (any RemotePlayer)? = nil, status: @escaping @Sendable () async -> Status) {
        self.identity = identity
        deviceStore = devices
        self.configuration = configuration
        self.clock = clock
        self.logger = logger
        statusProvider = status
        self.remotePlayer = remotePlayer
        remoteEvents = RemoteEventHub(streamsPerDevice: configuration.remoteMaxStreamsPerDevice)
        let subscribers = EventSubscribers()
        self.subscribers = subscribers
        pending = PendingRequests(events: subscribers)
        shared = NIOLockedValueBox(Shared(codes: PairingCodes(timing: configuration.timing)))
        group = MultiThreadedEventLoopGroup.singleton
    }

    /// Loads (or creates) the identity and the paired devices from `storage`,
    /// and builds the server (not started).
    /// - Parameters:
    ///   - storage: `$XDG_DATA_HOME/listenup` by default.
    ///   - configuration: names, addresses (nil addresses honour `LISTENUP_PAIRING_BIND`), limits.
    ///   - clock: time for codes and tokens (tests move it by hand).
    ///   - logger: where requests, pairings and refusals are logged.
    ///   - remotePlayer: the player paired devices may see and control (`/api/v1/player…`);
    ///     nil answers those endpoints with 503. Called from tasks, never the main thread.
    ///   - status: what `GET /api/v1/status` reports, asked on each call.
    /// - Throws: ``PairingError`` when the files cannot be read or written.
    public convenience init(storage: PairingStorage = PairingStorage(), configuration: Configuration,
                            clock: PairingClock = .system, logger: Logger = Logger(label: "listenup.pairing"),
                            remotePlayer: (any RemotePlayer)? = nil, status: @escaping @Sendable () async -> Status) throws {
        self.init(identity: try PairingIdentity.loadOrCreate(in: storage), devices: try PairedDeviceStore(storage: storage, clock: clock),
                  configuration: configuration, clock: clock, logger: logger, remotePlayer: remotePlayer, status: status)
    }

    deinit {
        subscribers.finish()
        remoteEvents.stop()
    }

    /// The bound port, while running.
    public var port: Int? { shared.withLockedValue { $0.port } }
    /// The addresses put in the URI, while running.
    public var addresses: [String] { shared.withLockedValue { $0.addresses } }
    /// The fingerprint companions pin.
    public var fingerprint: [UInt8] { identity.fingerprint }

    /// Binds and starts serving. Everything a connection needs is in place
    /// before the socket exists.
    /// - Returns: the real port.
    /// - Throws: ``PairingError/serverStartFailed(_:)``; nothing is left running.
    @discardableResult
    public func start() async throws -> Int {
        if let port { return port }
        let addresses = configuration.bindAddresses ?? LANAddresses.current()
        // One listener; several addresses → the wildcard, advertising only the chosen ones.
        let host = addresses.count == 1 ? addresses[0] : "0.0.0.0"
        let sslContext: NIOSSLContext
        do { sslContext = try NIOSSLContext(configuration: identity.serverTLSConfiguration()) } catch {
            throw PairingError.serverStartFailed("TLS: \(error)")
        }
        let server = self
        let bootstrap = ServerBootstrap(group: group)
            .serverChannelOption(ChannelOptions.socketOption(.so_reuseaddr), value: 1)
            .serverChannelOption(ChannelOptions.backlog, value: 64)
            .childChannelOption(ChannelOptions.socketOption(.tcp_nodelay), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try server.configure(channel, sslContext: sslContext)
                }
            }
        let listener: any Channel
        if let preferred = configuration.preferredPort, preferred != configuration.port,
           let bound = try? await bootstrap.bind(host: host, port: preferred).get() {
            listener = bound
        } else {
            do { listener = try await bootstrap.bind(host: host, port: configuration.port).get() } catch {
                throw PairingError.serverStartFailed("bind \(host):\(configuration.port): \(error)")
            }
        }
        guard let port = listener.localAddress?.port else {
            try? await listener.close()
            throw PairingError.serverStartFailed("no local port")
        }
        shared.withLockedValue {
            $0.listener = listener
            $0.port = port
            $0.addresses = addresses
        }
        if let remotePlayer { remoteEvents.start(following: remotePlayer) }
        logger.info("Pairing server listening", metadata: ["port": "\(port)", "addresses": "\(addresses.joined(separator: ","))"])
        return port
    }

    /// Closes pairing (pending requests are refused), the listener and every open connection.
    public func stop() async {
        closePairing()
        let (listener, connections) = shared.withLockedValue { shared -> ((any Channel)?, [any Channel]) in
            defer {
                shared.listener = nil
                shared.port = nil
                shared.connections.removeAll()
            }
            return (shared.listener, Array(shared.connections.values))
        }
        remoteEvents.stop()
        try? await listener?.close()
        for connection in connections { try? await connection.close() }
    }

    private func configure(_ channel: any Channel, sslContext: NIOSSLContext) throws {
        let key = ObjectIdentifier(channel)
        shared.withLockedValue { $0.connections[key] = channel }
        channel.closeFuture.whenComplete { [weak self] _ in
            _ = self?.shared.withLockedValue { $0.connections.removeValue(forKey: key) }
        }
        let sync = channel.pipeline.syncOperations
        try sync.addHandler(IdleStateHandler(readTimeout: .milliseconds(Int64(configuration.idleTimeout * 1000))))
        try sync.addHandler(NIOSSLServerHandler(context: sslContext))
        try sync.configureHTTPServerPipeline(withPipeliningAssistance: false, withErrorHandling: true)
        try sync.addHandler(PairingHTTPHandler(server: self))
    }
}
