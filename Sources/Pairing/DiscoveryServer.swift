import Foundation
import LANDiscovery
import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
import NIOSSL

/// The desktop's embedded pairing server: HTTPS (TLS 1.2+, the
/// ``PairingIdentity``) on an ephemeral port, the endpoints of
/// docs/pairing-protocol.md, the rotating codes, mDNS while pairing is open.
///
/// Lifecycle: ``start()`` binds (handlers, timeouts and the TLS context are
/// set up before the listener exists) and returns the real port, or throws;
/// ``stop()`` closes the listener and every connection. Start/stop can repeat.
/// ``openPairing()`` / ``closePairing()`` follow the pairing page; paired
/// devices keep using `/api/v1/status` while the server runs.
///
/// Thread-safe: all mutable state sits behind one lock; `onEvent`, `confirm`
/// and `status` are called from NIO threads or tasks, never the main thread.
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

        /// The protocol's defaults with these names and addresses.
        public init(desktopName: String, appVersion: String, bindAddresses: [String]? = nil) {
            self.desktopName = desktopName
            self.appVersion = appVersion
            self.bindAddresses = bindAddresses
        }
    }

    /// A companion asking to pair, for the confirmation dialog.
    public struct PairingRequest: Sendable, Equatable {
        /// `client_name` the companion sent (show it in "Pair with …?").
        public var clientName: String
        /// `client_model` the companion sent.
        public var clientModel: String
        /// The 6 digits the companion shows too.
        public var comparisonCode: String
        /// Where the request came from.
        public var remoteAddress: String
    }

    /// What `GET /api/v1/status` reports; supplied by the app.
    public struct Status: Sendable, Equatable {
        /// The screen the app shows (a route name, e.g. `library`).
        public var activeRoute: String
        /// The ListenUp server in use, if any.
        public var serverURL: String?
        /// The signed-in user's display name, if anyone is signed in.
        public var userDisplayName: String?

        /// A status report.
        public init(activeRoute: String, serverURL: String? = nil, userDisplayName: String? = nil) {
            self.activeRoute = activeRoute
            self.serverURL = serverURL
            self.userDisplayName = userDisplayName
        }
    }

    /// What the pairing page shows.
    public enum PairingState: Sendable, Equatable {
        /// Pairing is closed.
        case closed
        /// `uri` is the current QR payload; the code rotates at `codeRotatesAt`;
        /// pairing stops at `closesAt`.
        case open(uri: PairingURI, codeRotatesAt: Date, closesAt: Date)
        /// Five minutes passed: offer "Show a new code" (``openPairing()``).
        case expired
    }

    /// Things the app may want to show.
    public enum Event: Sendable, Equatable {
        case stateChanged(PairingState)
        case paired(PairedDevice)
        case unpaired(PairedDevice)
    }

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
    }

    let configuration: Configuration
    let identity: PairingIdentity
    /// The paired devices.
    public let devices: PairedDeviceStore
    let clock: PairingClock
    let confirm: @Sendable (PairingRequest) async -> Bool
    let statusProvider: @Sendable () async -> Status
    let onEvent: @Sendable (Event) -> Void
    let logger: Logger
    let shared: NIOLockedValueBox<Shared>
    private let group: any EventLoopGroup

    /// - Parameters:
    ///   - identity: the TLS identity (its fingerprint goes in the URI).
    ///   - devices: where paired devices are kept.
    ///   - configuration: names, addresses, limits.
    ///   - clock: time for codes and tokens (tests move it by hand).
    ///   - confirm: asks the user "Pair with <name>?"; true accepts. Called off the main thread.
    ///   - status: what `GET /api/v1/status` reports.
    ///   - onEvent: state changes, new and removed devices. State changes are reported with the
    ///     server's lock held, so they arrive in order: return quickly and do not call back into the server.
    public init(identity: PairingIdentity, devices: PairedDeviceStore, configuration: Configuration,
                clock: PairingClock = .system, logger: Logger = Logger(label: "listenup.pairing"),
                confirm: @escaping @Sendable (PairingRequest) async -> Bool,
                status: @escaping @Sendable () async -> Status,
                onEvent: @escaping @Sendable (Event) -> Void = { _ in }) {
        self.identity = identity
        self.devices = devices
        self.configuration = configuration
        self.clock = clock
        self.logger = logger
        self.confirm = confirm
        statusProvider = status
        self.onEvent = onEvent
        shared = NIOLockedValueBox(Shared(codes: PairingCodes(timing: configuration.timing)))
        group = MultiThreadedEventLoopGroup.singleton
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
        do { listener = try await bootstrap.bind(host: host, port: configuration.port).get() } catch {
            throw PairingError.serverStartFailed("bind \(host):\(configuration.port): \(error)")
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
        logger.info("Pairing server listening", metadata: ["port": "\(port)", "addresses": "\(addresses.joined(separator: ","))"])
        return port
    }

    /// Closes pairing, the listener and every open connection.
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
        try? await listener?.close()
        for connection in connections { try? await connection.close() }
    }

    /// The current pairing state (rotating codes if they are due).
    public var state: PairingState {
        tick()
        return shared.withLockedValue { self.pairingState($0) }
    }

    /// Opens pairing (or shows a new code after expiry): a fresh session and
    /// code, the 5-minute window starts, mDNS announces the service.
    /// - Returns: the new state (``PairingState/open(uri:codeRotatesAt:closesAt:)``).
    /// - Throws: ``PairingError/serverStartFailed(_:)`` if the server is not running.
    @discardableResult
    public func openPairing() throws -> PairingState {
        let now = clock.now()
        let state = try shared.withLockedValue { shared -> PairingState in
            guard let port = shared.port, let listener = shared.listener else { throw PairingError.serverStartFailed("not started") }
            shared.codes.open(now: now)
            if configuration.advertise, shared.advertiser == nil {
                // Bound to loopback only (tests, LISTENUP_PAIRING_BIND=127.0.0.1): announce on `lo` only too.
                let loopbackOnly = shared.addresses.allSatisfy { $0.hasPrefix("127.") || $0 == "::1" }
                let advertiser = ServiceAdvertiser(name: PairingURI.displayName(configuration.desktopName), type: "_listenup-pair._tcp", port: port,
                                                   txt: ["v=1", "fp=\(identity.fingerprintBase64URL)"],
                                                   interfaceIndex: loopbackOnly ? Int32(bitPattern: if_nametoindex("lo")) : nil, logger: logger)
                advertiser.start()
                shared.advertiser = advertiser
            }
            if shared.ticker == nil {
                shared.ticker = listener.eventLoop.scheduleRepeatedTask(initialDelay: .milliseconds(500), delay: .milliseconds(500)) { [weak self] _ in
                    self?.tick()
                }
            }
            return self.pairingState(shared)
        }
        publishCurrentState()
        return state
    }

    /// Closes pairing: codes stop working, the mDNS announcement is withdrawn.
    public func closePairing() {
        let (advertiser, ticker) = shared.withLockedValue { shared -> (ServiceAdvertiser?, RepeatedTask?) in
            shared.codes.close()
            defer {
                shared.advertiser = nil
                shared.ticker = nil
            }
            return (shared.advertiser, shared.ticker)
        }
        ticker?.cancel()
        advertiser?.stop()
        publishCurrentState()
    }

    /// Rotates or expires codes that are due, and reports any change of state.
    /// Called twice a second while pairing is open; tests with a hand-moved clock call it directly.
    public func tick() {
        let now = clock.now()
        let advertiser = shared.withLockedValue { shared -> ServiceAdvertiser? in
            shared.codes.advance(now: now)
            var advertiser: ServiceAdvertiser?
            if case .expired = shared.codes.state {
                advertiser = shared.advertiser
                shared.advertiser = nil
            }
            return advertiser
        }
        advertiser?.stop()
        publishCurrentState() // rotation, expiry, a used or burned code
    }

    /// Reports the current state if it differs from the last one reported.
    /// Computed and reported under the lock, so reports are never reordered
    /// (an older code can never be reported after a newer one).
    func publishCurrentState() {
        shared.withLockedValue { shared in
            let state = pairingState(shared)
            guard state != shared.lastState else { return }
            shared.lastState = state
            onEvent(.stateChanged(state))
        }
    }

    func pairingState(_ shared: Shared) -> PairingState {
        switch shared.codes.state {
        case .closed: return .closed
        case .expired: return .expired
        case .open(let code, let endsAt):
            guard let port = shared.port else { return .closed }
            return .open(uri: PairingURI(name: PairingURI.displayName(configuration.desktopName), addresses: shared.addresses, port: port,
                                         fingerprint: identity.fingerprint, session: code.session,
                                         code: code.code, expiresAt: min(code.rotatesAt, endsAt)),
                         codeRotatesAt: min(code.rotatesAt, endsAt), closesAt: endsAt)
        }
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
