import Foundation
import LANDiscovery
import ListenUpAPI
import Logging
import NIOCore
import NIOHTTP1
import NIOPosix

/// A ListenUp-compatible server for tests, demos and trying the app without
/// a real server: strict like the real one (unknown keys → 422, login
/// without `device_info` → 400, burst-10 rate limit → 429, refresh rotation,
/// configurable access-token lifetime), with a generated library and covers.
///
/// It speaks one of two protocols (``Configuration/protocol``): the Go
/// server's REST v1 (the default) or the v0.9 Kotlin server's kRPC over
/// WebSocket, with the same books, audio and listening rules.
public final class DemoServer: Sendable {
    /// The admin created at start (then `setup_required` is false).
    public struct Admin: Sendable {
        /// The sign-in email.
        public var email: String
        /// The password.
        public var password: String
        /// REST `first_name`; with ``lastName``, the kRPC `displayName`.
        public var firstName: String
        /// REST `last_name`.
        public var lastName: String

        /// An admin; each parameter sets the property of the same name.
        public init(email: String, password: String, firstName: String = "Demo", lastName: String = "Admin") {
            self.email = email
            self.password = password
            self.firstName = firstName
            self.lastName = lastName
        }
    }

    /// How the server behaves.
    public struct Configuration: Sendable {
        /// The address to listen on.
        public var host = "127.0.0.1"
        /// 0 picks a free port.
        public var port = 0
        /// The server's name (REST `data.name`, kRPC `ServerInfo.name`).
        public var serverName = "ListenUp Demo"
        /// How many books to generate.
        public var bookCount = 200
        /// The generator's seed: the same seed gives the same books.
        public var seed: UInt64 = 42
        /// The wire protocol: REST v1 (default) or kRPC (see ``krpc``).
        public var `protocol`: DemoProtocol = .rest
        /// Seconds an access token lives; nil takes the protocol's default
        /// (REST: 30 days, the Go server's; kRPC: 15 minutes, the v0.9 server's).
        public var accessTokenLifetime: TimeInterval?
        /// An admin to create at start.
        public var admin: Admin?
        /// Announce the server as `_listenup._tcp` on the LAN (Avahi), with
        /// the TXT keys the real server sends.
        public var advertise = false
        /// Seconds between heartbeats on `/api/v1/sync/events` (the real
        /// server sends about two every 30 s).
        public var heartbeatInterval: TimeInterval = 15
        /// Whether spent auth attempts come back over time, as the real
        /// servers' do (REST v1: one every 3 s after a burst of 10; kRPC:
        /// each limit over its minute). Off, a limit once reached stays
        /// reached: a test counting attempts against it is not raced by the
        /// refill (20 a minute is one back every 3 s, which a loaded machine
        /// can take for the calls themselves).
        public var rateLimitsRefill = true
        /// When set, every chapter of every book lasts this many seconds
        /// (short books for tests); otherwise books last 1 to 11 hours.
        public var chapterSeconds: Double?
        /// Every chapter in a file of its own, as many audiobooks come, so
        /// that a jump to a chapter opens a file at its start; by default
        /// files are cut elsewhere than the chapters.
        public var filePerChapter = false
        /// How much each book carries: ``DemoPayload/compact`` (the
        /// default, what the tests expect) or ``DemoPayload/realistic``
        /// (a real library's chapters, files, people, series and
        /// descriptions), the same books in both protocols.
        public var payload: DemoPayload = .compact
        /// Shelves each new user starts with: the real server's "To Read"
        /// and, beyond one, shelves of 20 books each (for benches: a
        /// library with many shelves; the tests' users have one).
        public var shelvesPerUser = 1
        /// How the kRPC mode behaves (pings, heartbeats, token lifetimes);
        /// ignored in REST mode.
        public var krpc = KRPCOptions()
        /// Bytes per second each audio response is held to, separately for
        /// each response (a download that must still be running when a test
        /// interrupts it); nil, the default, sends as fast as the socket
        /// goes. At least ``minimumAudioRateLimit``. Tests change it while
        /// running with ``DemoServer/setAudioRateLimit(_:)``.
        public var audioRateLimit: Int?
        /// Called with every audio request once its answer is decided
        /// (before the body is sent), on the connection's event loop: keep
        /// it quick. `listenup-demo-server --report-audio` prints them.
        public var audioRequestObserver: (@Sendable (AudioRequest) -> Void)?
        /// Whether accounts can be registered, and how (both protocols;
        /// DemoRegistration.swift). Tests change it with ``DemoServer/setRegistration(_:)``.
        public var registration: RegistrationMode = .closed

        /// The defaults: REST on a free loopback port, 200 books.
        public init() {}

        /// The access-token lifetime in effect: ``accessTokenLifetime`` or the protocol's default.
        public var effectiveAccessTokenLifetime: TimeInterval {
            accessTokenLifetime ?? (self.protocol == .krpc ? 15 * 60 : 30 * 24 * 3600)
        }
    }

    let service: DemoService
    /// The kRPC side (sockets, tokens, signed URLs); nil in REST mode.
    let krpc: DemoKRPCService?
    private let channel: Locked<(any Channel)?> = Locked(nil)
    private let advertiser: Locked<ServiceAdvertiser?> = Locked(nil)
    /// The port of the first start: a start after ``stop()`` binds it again.
    private let boundPort: Locked<Int?> = Locked(nil)
    /// Open client connections, closed on stop like a real server's.
    private let connections = Locked<[ObjectIdentifier: any Channel]>([:])
    private let logger: Logger

    /// A server that does not listen yet (see ``start()``).
    /// - Parameters:
    ///   - configuration: how it behaves, the protocol included.
    ///   - logger: where it logs (never tokens or passwords).
    public init(configuration: Configuration, logger: Logger = Logger(label: "listenup-demo-server")) {
        service = DemoService(configuration: configuration, logger: logger)
        krpc = configuration.protocol == .krpc ? DemoKRPCService(service: service, logger: logger) : nil
        self.logger = logger
    }

    /// The instance id (`lib-…`) this server answers with.
    public var instanceID: String { service.instanceID }
    /// The generated books.
    public var bookCount: Int { service.books.count }
    /// The protocol this server speaks.
    public var wireProtocol: DemoProtocol { service.configuration.protocol }
    /// `http://host:port` as bound (an IPv6 host in brackets); nil until
    /// ``start()`` has bound the socket.
    public var baseURL: URL? {
        guard let port = boundPort.withLock({ $0 }) else { return nil }
        let host = service.configuration.host
        return URL(string: "http://\(host.contains(":") ? "[\(host)]" : host):\(port)")
    }

    /// Starts listening; returns once the socket is bound, with its port.
    /// Started again after ``stop()``, it listens on the port it had (a
    /// server coming back: clients keep their address), with its state
    /// (users, sessions, books, listening) as it was.
    @discardableResult
    public func start() async throws -> Int {
        let service = service
        let krpc = krpc
        let connections = connections
        let bound = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(ChannelOptions.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                let key = ObjectIdentifier(channel)
                connections.withLock { $0[key] = channel }
                channel.closeFuture.whenComplete { _ in connections.withLock { _ = $0.removeValue(forKey: key) } }
                if let krpc {
                    return channel.eventLoop.makeCompletedFuture { try krpc.configurePipeline(of: channel) }
                }
                return channel.pipeline.configureHTTPServerPipeline().flatMap {
                    channel.pipeline.addHandler(DemoHTTPHandler(service: service))
                }
            }
            .bind(host: service.configuration.host, port: boundPort.withLock { $0 } ?? service.configuration.port)
            .get()
        channel.withLock { $0 = bound }
        let port = bound.localAddress?.port ?? 0
        boundPort.withLock { $0 = port }
        logger.info("Demo server listening", metadata: ["port": "\(port)", "books": "\(service.books.count)",
                                                        "protocol": "\(service.configuration.protocol.rawValue)"])
        if service.configuration.advertise {
            let configuration = service.configuration
            // A server bound to loopback is announced on `lo` only: nothing
            // on the LAN could reach it anyway.
            let host = configuration.host
            let loopback = host.hasPrefix("127.") || host == "::1" || host == "localhost"
            let version = configuration.protocol == .krpc ? DemoKRPCService.serverVersion : "1.0.0"
            let announcer = ServiceAdvertiser(
                name: configuration.serverName, type: "_listenup._tcp", port: port,
                txt: ["id=\(service.instanceID)", "name=\(configuration.serverName)", "version=\(version)", "api=v1"],
                interface: loopback ? .named("lo") : .fromEnvironment(), logger: logger)
            announcer.start()
            advertiser.withLock { $0 = announcer }
        }
        return port
    }

    /// Stops listening. kRPC sockets are ended the way the real server
    /// ends them on shutdown (open streams get `StreamCancel`, clients that
    /// advertised CANCELLATION an ENDPOINT cancellation, then close 1001).
    public func stop() async {
        let bound = channel.withLock { channel -> (any Channel)? in
            defer { channel = nil }
            return channel
        }
        try? await bound?.close()
        await krpc?.shutDownSockets()
        for open in connections.withLock({ Array($0.values) }) { try? await open.close() }
        advertiser.withLock { advertiser in
            advertiser?.stop()
            advertiser = nil
        }
    }
}
